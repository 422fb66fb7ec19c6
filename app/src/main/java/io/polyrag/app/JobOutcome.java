package io.polyrag.app;

import io.polyrag.core.model.JobProgress;
import io.polyrag.core.model.JobStatus;
import io.polyrag.core.port.JobStore;

/** How a job's run ended, from its progress: its status, and the summary of one that did not fully succeed. */
final class JobOutcome {
    private JobOutcome() {
    }

    static JobStatus status(JobProgress p) {
        if (p.failed() == 0) {
            return JobStatus.SUCCEEDED;
        }
        return p.failed() >= p.total() ? JobStatus.FAILED : JobStatus.PARTIAL;
    }

    /** The summary of a job that did not fully succeed, naming its items as its handler calls them. */
    static String error(JobStatus status, JobProgress p, String item) {
        return switch (status) {
            case FAILED -> (p.failed() == 1 ? "the " + item + " failed" : "all " + p.failed() + " " + item + "s failed")
                    + (p.errors().isEmpty() ? "" : "; the first: " + p.errors().getFirst().reason());
            case PARTIAL -> p.failed() + " of " + p.total() + " " + item + "s failed; the others were indexed (see "
                    + "errors)";
            default -> null;
        };
    }

    /** What earlier runs of a resumed job did, as its progress was last written; null when they did nothing. */
    static JobProgress earlier(JobProgress p) {
        return p == null || p.added() + p.updated() + p.chunks() + p.deleted() + p.extractionTokens() == 0 ? null : p;
    }

    /**
     * A resumed run's progress with what the job's earlier runs did: a run walks its items again and finds those
     * finished before unchanged, so a job of 100 new files that yielded after 40 ended "added 60, unchanged 40", and
     * counted 60 documents in the metrics. Counts of work add up; those found unchanged lose the earlier runs' work;
     * failures are this run's (it tries them again).
     */
    static JobProgress cumulative(JobProgress earlier, JobProgress now) {
        if (earlier == null || now == null) {
            return now;
        }
        int before = earlier.added() + earlier.updated();
        // The total too: a sync's is what it has listed so far, which a resumed run starts again from 0 ("5,000 of
        // 1,000" at its first batch).
        return now.toBuilder().processed(Math.max(earlier.processed(), now.processed()))
                .total(Math.max(earlier.total(), now.total()))
                .added(earlier.added() + now.added()).updated(earlier.updated() + now.updated())
                .unchanged(Math.max(0, now.unchanged() - before)).chunks(earlier.chunks() + now.chunks())
                .relations(earlier.relations() + now.relations())
                .extractionTokens(earlier.extractionTokens() + now.extractionTokens())
                .deleted(earlier.deleted() + now.deleted()).build();
    }

    /** A job's tenant as logs and traces name it ("-" for local mode's). */
    static String tenantOf(JobStore.Claimed job) {
        return job.info().tenant() == null || job.info().tenant().isEmpty() ? "-" : job.info().tenant();
    }
}
