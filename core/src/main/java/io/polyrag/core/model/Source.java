package io.polyrag.core.model;

import java.time.Instant;

/**
 * A source kept in sync with the index.
 *
 * @param tenant whose it is
 * @param id the caller's id for it, unique within the tenant
 * @param type its connector: {@code filesystem}
 * @param config the connector's settings, as JSON (for {@code filesystem}: root, include, exclude, follow_symlinks)
 * @param knowledgeBase where its items are indexed (stored name)
 * @param intervalSeconds how often it is scanned
 * @param enabled whether it is scanned and watched
 * @param createdAt when it was registered
 * @param lastScanAt when the last scan finished, null before the first
 * @param lastError what the last scan could not do, null when it did everything
 * @param registeredBy for a source of local mode's rows ({@code tenant} empty), the tenant that registered it after it
 *     adopted local mode's data ({@code acme}); empty when local mode itself (the operator) did. Its scans read the
 *     folders that tenant may, not the operator's.
 */
public record Source(String tenant, String id, String type, String config, String knowledgeBase, int intervalSeconds,
        boolean enabled, Instant createdAt, Instant lastScanAt, String lastError, String registeredBy) {
    public Source {
        registeredBy = registeredBy == null ? "" : registeredBy;
    }

    /** A source registered by its own tenant (or by local mode itself). */
    // style: the record's fields but the last, as every caller before registeredBy wrote them
    public Source(String tenant, String id, String type, String config, String knowledgeBase, int intervalSeconds,
            boolean enabled, Instant createdAt, Instant lastScanAt, String lastError) {
        this(tenant, id, type, config, knowledgeBase, intervalSeconds, enabled, createdAt, lastScanAt, lastError, "");
    }
}
