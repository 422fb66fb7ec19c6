package io.polyrag.core.model;

import java.time.Instant;

/**
 * A job as the catalog keeps it.
 *
 * @param id the job id
 * @param kind what kind of job (e.g. {@code ingest})
 * @param status queued, running, succeeded, failed
 * @param progress stage and counts
 * @param error why the job failed, or null
 * @param attempts how many times a worker has claimed it
 * @param createdAt when it was submitted
 * @param updatedAt when it last changed
 * @param tenant whose job it is (empty: the local tenant)
 * @param knowledgeBase the knowledge base it writes into (stored name), or null
 * @param source the sync source it runs, or null
 * @param startedAt when a worker last took it up, or null while it has not been
 */
public record JobInfo(String id, String kind, JobStatus status, JobProgress progress, String error, int attempts,
        Instant createdAt, Instant updatedAt, String tenant, String knowledgeBase, String source, Instant startedAt) {
    public JobInfo(String id, String kind, JobStatus status, JobProgress progress, String error, int attempts,
            Instant createdAt, Instant updatedAt) {
        this(id, kind, status, progress, error, attempts, createdAt, updatedAt, "", null, null, null);
    }

    /** The same job with its knowledge base named as a tenant sees it. */
    public JobInfo withKnowledgeBase(String shown) {
        return new JobInfo(id, kind, status, progress, error, attempts, createdAt, updatedAt, tenant, shown, source,
                startedAt);
    }
}
