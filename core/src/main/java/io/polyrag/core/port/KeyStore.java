package io.polyrag.core.port;

import io.polyrag.core.model.ApiKey;
import java.util.List;
import java.util.Optional;

/**
 * API keys: an id (not secret, part of the key) and the SHA-256 of the key. The key itself is shown once when it is
 * created and never stored; keys are long random strings, so the hash is worthless to whoever reads the table.
 */
public interface KeyStore {
    /** Stores a new active key for {@code tenant}. */
    ApiKey createKey(String id, String tenant, String name, String keyHash);

    /** Every key, active and revoked, oldest first. */
    List<ApiKey> keys();

    /** Revokes the key; false when there is no active key with that id. */
    boolean revokeKey(String id);

    /** The active key with this id, and the hash to compare a presented key's hash with. */
    Optional<Active> activeKey(String id);

    /**
     * An active key and its stored hash.
     *
     * @param adoptsLocal whether its tenant took over local mode's data (its keys act as the local tenant)
     */
    record Active(ApiKey key, String keyHash, boolean adoptsLocal) {
    }

    /** The tenant that took over local mode's data, if one has. */
    Optional<String> localOwner();

    /**
     * Records that {@code tenant} takes over local mode's data; idempotent for the same tenant.
     *
     * @return false when another tenant already has
     */
    boolean adoptLocal(String tenant);

    /** Whether any key is active (if none is, the server runs in local mode). */
    boolean anyActiveKey();
}
