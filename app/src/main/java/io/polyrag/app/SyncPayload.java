package io.polyrag.app;

import io.polyrag.core.model.Source;

/**
 * What a sync job is asked to do: which source, and how.
 *
 * @param once the first sync at registration: it runs for a source registered disabled too (indexed once)
 * @param maxDeletePercent this sync's own cap on deletes (a user confirming that most of a source is gone), or null
 *        for {@code sync.max.delete.percent}
 */
record SyncPayload(String tenant, String source, Boolean once, Integer maxDeletePercent) {

    static String of(Source s, boolean once) {
        return of(s, once, null);
    }

    static String of(Source s, boolean once, Integer maxDeletePercent) {
        return Sources.JSON.writeValueAsString(new SyncPayload(s.tenant(), s.id(), once ? Boolean.TRUE : null,
                maxDeletePercent));
    }

    /** A job's payload; one written by an earlier version (without the newer fields) reads with them null. */
    static SyncPayload read(String json) {
        return Sources.JSON.readValue(json, SyncPayload.class);
    }
}
