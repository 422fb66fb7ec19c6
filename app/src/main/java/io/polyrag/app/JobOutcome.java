package io.polyrag.app;

import io.polyrag.core.model.JobProgress;
import io.polyrag.core.model.JobStatus;

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
}
