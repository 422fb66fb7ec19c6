package io.polyrag.ingest;

import io.polyrag.core.model.IngestReport;
import java.util.Optional;

/**
 * What an ingest that threw (a store gone, a full disk) had done by then, attached to its exception as a suppressed
 * one and never thrown itself: its embeddings and extraction tokens were spent, and a caller counting usage counts
 * them.
 */
public final class PartialIngest extends RuntimeException {
    private final transient IngestReport report;

    PartialIngest(IngestReport report) {
        super("what the ingest had done when it failed", null, false, false);
        this.report = report;
    }

    public IngestReport report() {
        return report;
    }

    /** The partial report an ingest's exception carries, if any. */
    public static Optional<IngestReport> of(Throwable e) {
        for (Throwable s : e.getSuppressed()) {
            if (s instanceof PartialIngest p) {
                return Optional.of(p.report);
            }
        }
        return Optional.empty();
    }
}
