package io.polyrag.app;

import io.polyrag.core.InvalidInputException;
import io.polyrag.core.NotFoundException;
import io.polyrag.core.model.ApiKey;
import io.polyrag.core.model.Ids;
import io.polyrag.core.model.Tenant;
import io.polyrag.core.port.KeyStore;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * API keys: each acts for exactly one tenant. A key is {@code prk_}, a 16-hex-digit id, and 32 random bytes
 * (base64url): 63 characters, shown once when it is made. Only the id and the key's SHA-256 are stored (a key this
 * random needs no slow hash: guessing one is hopeless however fast the hash). A presented key is found by its id and
 * its hash compared with the stored one in constant time.
 */
public final class Keys {
    /** Every key starts so; a client or a log scanner can tell a polyrag key at a glance. */
    public static final String PREFIX = "prk_";
    private static final int KEY_LENGTH = 63;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final KeyStore store;

    Keys(KeyStore store) {
        this.store = store;
    }

    /**
     * A new key for {@code tenant}.
     *
     * @param key the key itself: show it once, it cannot be read back
     * @param info what is stored about it
     */
    public record Created(String key, ApiKey info) {
    }

    public Created create(String tenant, String name) {
        Tenant t = Tenant.of(tenant);
        if (name != null && (name.length() > 200 || name.chars().anyMatch(Character::isISOControl))) {
            throw new InvalidInputException("key name must be at most 200 characters with no control characters");
        }
        byte[] id = new byte[8];
        byte[] secret = new byte[32];
        RANDOM.nextBytes(id);
        RANDOM.nextBytes(secret);
        String keyId = java.util.HexFormat.of().formatHex(id);
        String key = PREFIX + keyId + Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
        return new Created(key, store.createKey(keyId, t.id(), name == null ? "" : name.strip(), hash(key)));
    }

    public List<ApiKey> list() {
        return store.keys();
    }

    public void revoke(String id) {
        if (id == null || !store.revokeKey(id)) {
            throw new NotFoundException("no active key with id '" + Ids.abbreviate(String.valueOf(id), 64) + "'");
        }
    }

    /** Whether any key is active: if none is, the server runs in local mode (loopback only, no keys asked). */
    public boolean required() {
        return store.anyActiveKey();
    }

    /** The tenant an active key acts for; empty for a missing, malformed, wrong or revoked key. */
    public Optional<Tenant> authenticate(String key) {
        if (key == null || key.length() != KEY_LENGTH || !key.startsWith(PREFIX)) {
            return Optional.empty();
        }
        String id = key.substring(PREFIX.length(), PREFIX.length() + 16);
        if (!id.matches("[0-9a-f]{16}")) {
            return Optional.empty();
        }
        byte[] presented = hash(key).getBytes(StandardCharsets.US_ASCII);
        return store.activeKey(id).filter(k -> MessageDigest.isEqual(presented,
                k.keyHash().getBytes(StandardCharsets.US_ASCII))).map(k -> Tenant.of(k.key().tenant()));
    }

    static String hash(String key) {
        return Ids.sha256Hex(key.getBytes(StandardCharsets.UTF_8));
    }
}
