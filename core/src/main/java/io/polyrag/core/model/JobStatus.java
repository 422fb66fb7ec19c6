package io.polyrag.core.model;

import java.util.Locale;

/** A job's life: queued, running, then succeeded or failed. A job that succeeded may still report per-item errors. */
public enum JobStatus {
    QUEUED,
    RUNNING,
    SUCCEEDED,
    FAILED;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public boolean finished() {
        return this == SUCCEEDED || this == FAILED;
    }

    /** The wire name, so serialisers and messages show what users type. */
    @Override
    public String toString() {
        return wireName();
    }
}
