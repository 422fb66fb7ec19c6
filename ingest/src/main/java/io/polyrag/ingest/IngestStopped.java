package io.polyrag.ingest;

import io.polyrag.core.StoreException;
import io.polyrag.core.model.IngestReport;

/**
 * An ingest stopped because a store could not write: the batch being written was rolled back, the documents of
 * earlier batches stay indexed, later ones were not attempted. The message is one line naming the cause and the
 * fix; {@link #report()} has what was done before.
 */
public final class IngestStopped extends StoreException {
    private static final long serialVersionUID = 1L;
    private final transient IngestReport report;

    IngestStopped(Tally tally, RuntimeException cause) {
        super(summary(tally.report(), cause), cause);
        this.report = tally.report();
    }

    private static String summary(IngestReport r, RuntimeException cause) {
        return "ingest stopped: " + cause.getMessage() + " (" + (r.added() + r.updated() + r.unchanged())
                + " of " + r.documents() + " inputs were indexed or unchanged before it; the rest were not "
                + "written)";
    }

    /** What the ingest did before it stopped. */
    public IngestReport report() {
        return report;
    }
}
