package io.polyrag.app;

import io.polyrag.core.model.JobProgress;
import io.polyrag.core.port.JobStore;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Runs the jobs of one kind. Adding a kind of background work (sync, re-embed) is one class implementing this,
 * registered with {@link Jobs}; the workers, retries, progress writes and recovery are shared.
 */
interface JobHandler {
    /** The kind this handler runs, as stored with each job. */
    String kind();

    /**
     * What one of the job's items is called in its summary ("1 of 3 files failed"): {@code file} for an upload,
     * {@code item} (a file, a page, an object) by default; the plural adds an s.
     */
    default String item() {
        return "item";
    }

    /**
     * Runs one job to its end.
     *
     * @param job the claimed job, with its payload
     * @param context where to report progress, and whether the job was asked to stop
     * @return the final progress; its failed count decides between succeeded, partial and failed
     */
    JobProgress run(JobStore.Claimed job, Context context);

    /** What a running job reports to, and asks. */
    interface Context {
        /** Reports progress (written at most every quarter second, and on each stage change). */
        void progress(JobProgress progress);

        /**
         * Whether to stop at the next item: a cancel was requested, the claim was lost, or the process is shutting
         * down. What was done stays done; the runner records which it was (a shut-down job is requeued, not ended).
         */
        boolean canceled();

        /**
         * Whether another tenant's job waits for this worker: a handler whose jobs resume cheaply ({@link
         * #resumable}) stops at the next item and throws {@link Yielded}; the job goes back in the queue and resumes
         * later, its finished items skipped as unchanged.
         */
        default boolean yieldRequested() {
            return false;
        }

        /** Whether a user asked to cancel (not a shutdown, not a lost claim): the job ends, it is not put back. */
        default boolean canceledByRequest() {
            return false;
        }

        /**
         * Whether this run still holds the job, asked of the job store now (a heartbeat), before a step that deletes:
         * a run whose claim lapsed (a process paused past the stale timeout) learned it only at its next progress
         * write or heartbeat, and meanwhile deleted what the run that took the job over had just found.
         */
        default boolean stillClaimed() {
            return !canceled();
        }
    }

    /** Thrown by a handler that stopped early because {@link Context#yieldRequested()} asked it to. */
    final class Yielded extends RuntimeException {
        Yielded() {
            super("yielded the worker to another tenant's job", null, false, false);
        }
    }

    /**
     * Whether a job with this payload can stop between items and be run again from the start cheaply (what it
     * finished is found unchanged), so it may be asked to yield its worker to another tenant's job.
     */
    default boolean resumable(String payload) {
        return false;
    }

    /** Called once the job's end is durably recorded: release what it held. */
    default void ended(JobStore.Claimed job) {
    }

    /** The staged blobs an unfinished job of this kind still needs, so sweeps keep them. */
    default List<String> stagedBlobs(String payload) {
        return List.of();
    }

    /** The bytes of the uploaded files a job with this payload holds until it ends (0: none). */
    default long stagedBytes(String payload) {
        return 0;
    }

    /** The local staging folder an unfinished job of this kind still needs, so recovery keeps it. */
    /** The knowledge base (its stored name) a job with this payload writes into, when it writes into one. */
    default Optional<String> knowledgeBase(String payload) {
        return Optional.empty();
    }

    /** The sync source a job with this payload runs, when it runs one. */
    default Optional<String> source(String payload) {
        return Optional.empty();
    }

    default Optional<Path> stagingDir(String payload) {
        return Optional.empty();
    }
}
