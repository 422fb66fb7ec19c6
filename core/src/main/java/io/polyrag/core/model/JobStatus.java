package io.polyrag.core.model;

import java.util.Locale;

/**
 * A job's life: queued, running, then succeeded (every item went in or was unchanged), partial (some items failed,
 * the rest went in; the job's error says how many), failed (nothing could be done, or every item failed) or
 * canceled (by request; what was indexed before stays indexed).
 */
public enum JobStatus {
    QUEUED,
    RUNNING,
    SUCCEEDED,
    PARTIAL,
    FAILED,
    CANCELED;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public boolean finished() {
        return this == SUCCEEDED || this == PARTIAL || this == FAILED || this == CANCELED;
    }

    /** The wire name, so serialisers and messages show what users type. */
    @Override
    public String toString() {
        return wireName();
    }
}
