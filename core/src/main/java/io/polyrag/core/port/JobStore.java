package io.polyrag.core.port;

import io.polyrag.core.model.JobInfo;
import io.polyrag.core.model.JobProgress;
import io.polyrag.core.model.JobStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Durable jobs, claimed by workers.
 *
 * <p>A job is a row: submitted as queued with an opaque payload, claimed by exactly one worker at a time
 * ({@link #claim}), updated with progress while it runs, and finished once. A running job whose worker stopped
 * updating it for longer than the stale timeout is claimed again, up to a bounded number of attempts.
 * Safe for concurrent use by many workers, in one process or several over a shared database.
 */
public interface JobStore {

    /**
     * A job claimed by a worker: its info and payload.
     *
     * @param gaveUp true when the claim found the job had used up its attempts and failed it instead: the worker
     *     only releases what the job held (its staged files), and runs nothing
     */
    record Claimed(JobInfo info, String payload, boolean gaveUp) {
        public Claimed(JobInfo info, String payload) {
            this(info, payload, false);
        }
    }

    /** A sync job's id, and whether it was queued just now (false: it was already queued or running). */
    record Queued(String id, boolean created) {
    }

    /** Creates a queued job of {@code tenant} (empty: the local one) and returns its id. */
    default String submit(String tenant, String kind, String payload) {
        return submit(tenant, kind, payload, null, null, 0);
    }

    /**
     * Creates a queued job of {@code tenant} and returns its id.
     *
     * @param knowledgeBase the knowledge base it writes into (stored name), or null: shown in job lists
     * @param source the sync source it runs, or null
     * @param stagedBytes the bytes of uploaded files it holds until it ends (counted against the tenant's storage)
     */
    String submit(String tenant, String kind, String payload, String knowledgeBase, String source, long stagedBytes);

    /**
     * What a tenant has waiting: its jobs queued or running, and the uploaded bytes its queued ones hold (a running
     * job's files become documents as it goes, counted as stored then; counted twice, a long upload job refused every
     * other upload of its tenant for as long as it ran).
     */
    record Pending(int jobs, long stagedBytes) {
    }

    /** The tenant's jobs queued or running and the staged bytes its queued ones hold. */
    Pending pending(String tenant);

    /**
     * Every tenant's queued jobs: how many, and when the one queued longest ago was queued (null when none). For the
     * metrics, read at each scrape: counted in the catalog, not by reading every unfinished job's payload.
     */
    record Queue(int queued, Instant oldestQueuedAt) {
    }

    Queue queue();

    /**
     * Creates a queued job for the sync {@code source} of {@code tenant} unless one of that source is queued or
     * running, whose id is returned instead. The check and the insert are one transaction that holds the source's
     * row, so two processes over one catalog (replicas) never queue two syncs of a source.
     */
    Queued submitForSource(String tenant, String kind, String payload, String knowledgeBase, String source);

    /** Creates a queued job of the local tenant and returns its id. */
    default String submit(String kind, String payload) {
        return submit("", kind, payload);
    }

    /**
     * Claims a job for this worker, marking it running: a stale running one first (its worker died), else a queued
     * one, chosen fairly between tenants — the tenant with the fewest running jobs, then the one served longest ago,
     * then its oldest job. A run that ended without recording its end (a crash, a kill) counts against the job only
     * when it got no further than the furthest earlier run ({@link JobProgress#processed()}); a run released with
     * {@link #release} never counts.
     *
     * @param staleAfter how long a running job may go without an update before it is considered abandoned
     * @param maxAttempts how many runs without progress a job gets before it is failed instead (then returned with
     *     {@link Claimed#gaveUp()})
     */
    Optional<Claimed> claim(Duration staleAfter, int maxAttempts);

    /**
     * Puts a running job back in the queue under the claim {@code attempt}, to be claimed again later, without
     * counting the run against it: its worker stopped it on purpose (another tenant's job waits; shutdown).
     *
     * @return false when the claim is lost or the job has ended
     */
    default boolean release(String jobId, int attempt) {
        return release(jobId, attempt, "queued");
    }

    /**
     * Like {@link #release(String, int)}, with the stage the queued job shows until it runs again ("waiting for a
     * store" while one cannot be reached).
     */
    boolean release(String jobId, int attempt, String stage);

    /**
     * Leaves a running job running under the claim {@code attempt}, but its run is not counted against it when the
     * job is claimed again: it was still winding down when a graceful stop stopped waiting for it (an extraction
     * batch cannot be cut mid-way), which is no crash. False when the claim is lost or the job has ended.
     */
    boolean excuse(String jobId, int attempt);

    /**
     * Whether a queued job of a tenant other than {@code tenant} (empty: the local one), of a kind other than
     * {@code exceptKinds}, waits for a worker.
     */
    boolean othersWaiting(String tenant, Collection<String> exceptKinds);

    /**
     * Puts every running job back in the queue. Only for a process that knows it is the store's sole user (an
     * embedded catalog locked by it): at start-up, any running job was abandoned by a previous run.
     *
     * @return how many jobs were requeued
     */
    int requeueRunning();

    /**
     * Records progress of a running job (also its heartbeat), under the claim that {@code attempt} names
     * ({@link JobInfo#attempts()} of the claimed job): once another worker has reclaimed the job, or it has ended,
     * nothing is written.
     *
     * @return false when the worker should stop at the next item: a cancel was requested (finish it canceled), or
     *     the claim is lost (another worker runs the job now; finishing it records nothing)
     */
    boolean progress(String jobId, int attempt, JobProgress progress);

    /**
     * Tells other workers the job is still being run under this claim, without new progress (a long item).
     *
     * @return false when the claim is lost: the job was reclaimed or has ended
     */
    boolean heartbeat(String jobId, int attempt);

    /**
     * Whether a cancel was asked of this running job: read with each heartbeat, so a worker on one long item (no
     * progress written meanwhile) still sees a cancel asked through another replica.
     */
    boolean cancelRequested(String jobId);

    /**
     * Cancels a job: a queued one ends canceled at once; a running one is asked to stop (its worker sees it at its
     * next progress write or heartbeat, or at once when the process running it was asked).
     *
     * @return false when the job is unknown or already finished
     */
    boolean cancel(String jobId);

    /** {@code tenant}'s jobs (empty: the local tenant's), newest first. */
    default List<JobInfo> jobs(String tenant, int offset, int limit) {
        return jobs(tenant, offset, limit, null);
    }

    /**
     * {@link #jobs(String, int, int)} without the jobs of kind {@code hidden} (null: none hidden), left out before
     * the page is cut, so a page is short only at the end.
     */
    List<JobInfo> jobs(String tenant, int offset, int limit, String hidden);

    /**
     * {@code tenant}'s queued and running jobs, oldest first, at most {@code limit}: however many finished ones are
     * newer (a long upload beside frequent syncs fell out of the newest 50, and searches stopped saying it ran).
     */
    List<JobInfo> unfinished(String tenant, int limit);

    /**
     * Marks a job finished with {@code status} (succeeded, partial or failed) and its final progress; {@code error}
     * is null on success. Durable when it returns. Only the claim {@code attempt} may finish the job.
     *
     * @return false when nothing was recorded: the claim was lost (the job was reclaimed, and its new worker will
     *     finish it)
     */
    boolean finish(String jobId, int attempt, JobStatus status, JobProgress progress,
            String error);

    /** Queued and running jobs with their payloads, oldest first (to tell which staged files are still needed). */
    List<Claimed> unfinished();

    /** The job, if it exists. */
    Optional<JobInfo> job(String jobId);

    /**
     * Jobs of every tenant written at or after {@code since} (by any process), oldest write first, at most
     * {@code limit}: how a replica hears of the jobs other replicas run.
     */
    List<JobInfo> changedSince(Instant since, int limit);

    /**
     * Deletes the records of jobs that finished (succeeded, partial, failed or canceled) before {@code cutoff}: what
     * they indexed stays; their progress, errors and payload go. Queued and running jobs are never touched.
     *
     * @return how many were deleted
     */
    int deleteFinishedBefore(Instant cutoff);
}
