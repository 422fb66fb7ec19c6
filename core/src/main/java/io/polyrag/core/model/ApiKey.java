package io.polyrag.core.model;

import java.time.Instant;

/**
 * An API key as stored: never the key itself, only what identifies and describes it.
 *
 * @param id the key's id (to list and revoke it)
 * @param tenant the tenant it acts for
 * @param name what its owner called it
 * @param createdAt when it was created
 * @param revokedAt when it was revoked, or null while it is active
 */
public record ApiKey(String id, String tenant, String name, Instant createdAt, Instant revokedAt) {
    public boolean active() {
        return revokedAt == null;
    }
}
