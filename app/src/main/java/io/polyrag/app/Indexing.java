package io.polyrag.app;

import io.polyrag.core.model.JobInfo;
import io.polyrag.core.model.JobStatus;
import io.polyrag.core.model.Tenant;
import io.polyrag.core.port.JobStore;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Whether a tenant has documents still on their way into the stores, for searches to say so: a search during the
 * first ingest answers with few or no hits, and without a word that looks like "nothing matched". The job store is
 * read at most once a second per tenant when nothing is being indexed (four times while something is), and again
 * after a submit, so a search pays a map lookup.
 */
final class Indexing {
    private static final long FRESH_NANOS = 1_000_000_000L;
    /** Jobs looked at: the newest, where queued and running ones are. */
    private static final int RECENT_JOBS = 50;

    private record Seen(long atNanos, String warning) {
    }

    private final JobStore jobs;
    private final ConcurrentHashMap<String, Seen> seen = new ConcurrentHashMap<>();

    Indexing(JobStore jobs) {
        this.jobs = jobs;
    }

    /** A warning when ingest jobs of {@code tenant} are queued or running, naming how many documents they hold. */
    Optional<String> warning(Tenant tenant) {
        long now = System.nanoTime();
        Seen s = seen.get(tenant.id());
        // Quiet is remembered for a second, a warning a quarter of one (so it ends soon after the jobs): under load
        // during an ingest, searches do not each read the job store.
        if (s == null || now - s.atNanos() > (s.warning() == null ? FRESH_NANOS : FRESH_NANOS / 4)) {
            s = new Seen(now, read(tenant));
            seen.put(tenant.id(), s);
        }
        return Optional.ofNullable(s.warning());
    }

    /** A job of {@code tenant} was submitted in this process: the next search looks again. */
    void changed(Tenant tenant) {
        seen.remove(tenant.id());
    }

    private String read(Tenant tenant) {
        int active = 0;
        long pending = 0;
        for (JobInfo j : jobs.jobs(tenant.id(), 0, RECENT_JOBS)) {
            boolean unfinished = j.status() == JobStatus.QUEUED || j.status() == JobStatus.RUNNING;
            // Not a back-fill (searchable as it goes) nor a tuning (its counts are searches, not documents).
            if (unfinished && !j.kind().equals(Backfill.KIND) && !j.kind().equals(KbFusion.KIND)) {
                active++;
                if (j.progress() != null) {
                    pending += Math.max(0, j.progress().total() - j.progress().processed());
                }
            }
        }
        if (active == 0) {
            return null;
        }
        return (pending > 0 ? pending + (pending == 1 ? " document is" : " documents are") : "documents are")
                + " still being indexed (" + active + (active == 1 ? " ingest job" : " ingest jobs")
                + " queued or running): they are not searchable until indexed; GET /v1/jobs shows their progress";
    }
}
