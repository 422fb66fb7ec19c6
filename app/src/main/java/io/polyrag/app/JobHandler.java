package io.polyrag.app;

import io.polyrag.core.model.JobProgress;
import io.polyrag.core.port.JobStore;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Runs the jobs of one kind. Adding a kind of background work (sync, re-embed) is one class implementing this,
 * registered with {@link Jobs}; the workers, retries, progress writes and recovery are shared.
 */
interface JobHandler {
    /** The kind this handler runs, as stored with each job. */
    String kind();

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

        /** Whether a cancel was requested: stop at the next item; what was done stays done. */
        boolean canceled();
    }

    /** Called once the job's end is durably recorded: release what it held. */
    default void ended(JobStore.Claimed job) {
    }

    /** The staged blobs an unfinished job of this kind still needs, so sweeps keep them. */
    default java.util.List<String> stagedBlobs(String payload) {
        return java.util.List.of();
    }

    /** The local staging folder an unfinished job of this kind still needs, so recovery keeps it. */
    default Optional<Path> stagingDir(String payload) {
        return Optional.empty();
    }
}
