package io.polyrag.app.api;

import java.time.Instant;
import java.util.Map;

/**
 * A registered source as its tenant sees it.
 *
 * @param id the caller's id for it
 * @param type its connector
 * @param config the connector's settings
 * @param knowledgeBase where its items are indexed
 * @param intervalSeconds how often it is scanned (live changes of a watched folder are picked up sooner)
 * @param enabled whether it is scanned and watched
 * @param createdAt when it was registered
 * @param lastScanAt when the last scan finished, null before the first
 * @param lastError what the last scan could not do, null when it did everything
 * @param items items the index holds of it
 */
public record SourceInfo(String id, String type, Map<String, Object> config, String knowledgeBase,
        int intervalSeconds, boolean enabled, Instant createdAt, Instant lastScanAt, String lastError, int items) {
}
