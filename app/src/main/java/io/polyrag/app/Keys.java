package io.polyrag.app;

import io.polyrag.core.ConflictException;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.NotFoundException;
import io.polyrag.core.UnavailableException;
import io.polyrag.core.model.ApiKey;
import io.polyrag.core.model.Ids;
import io.polyrag.core.model.Tenant;
import io.polyrag.core.port.KeyStore;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Supplier;

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
    private final Supplier<LocalData> localData;
    private final Predicate<String> hasOwnData;

    /**
     * @param localData what local mode holds now
     * @param hasOwnData whether a tenant has data of its own (in its namespace) that adopting would hide
     */
    /** Keys are required even before the first exists ({@code http.require.keys}): no local mode. */
    private final boolean alwaysRequired;

    Keys(KeyStore store, Supplier<LocalData> localData,
            Predicate<String> hasOwnData, boolean alwaysRequired) {
        this.store = store;
        this.localData = localData;
        this.hasOwnData = hasOwnData;
        this.alwaysRequired = alwaysRequired;
    }

    /**
     * A new key for {@code tenant}.
     *
     * @param key the key itself: show it once, it cannot be read back
     * @param info what is stored about it
     * @param localOwner whether its tenant holds local mode's data (adopted now or before)
     * @param warnings what the key's owner should know: local mode's data that no key reads
     */
    public record Created(String key, ApiKey info, boolean localOwner, List<String> warnings) {
    }

    /** What local mode (the data indexed with no key, by the command line, by {@code serve --watch}) holds. */
    public record LocalData(int knowledgeBases, long documents, int sources, int jobs, boolean conversations) {
        public LocalData(int knowledgeBases, long documents, int sources) {
            this(knowledgeBases, documents, sources, 0, false);
        }

        /**
         * Nothing a key would hide: no document, source, unfinished job (an upload of 300 files queued in local
         * mode, none published yet, was "nothing", and its documents later hidden all the same) or conversation.
         */
        public boolean empty() {
            return documents == 0 && sources == 0 && jobs == 0 && !conversations;
        }

        @Override
        public String toString() {
            return documents + (documents == 1 ? " document" : " documents") + " in " + knowledgeBases
                    + (knowledgeBases == 1 ? " knowledge base" : " knowledge bases") + (sources == 0 ? "" : ", "
                    + sources + (sources == 1 ? " sync source" : " sync sources")) + (jobs == 0 ? "" : ", " + jobs
                    + (jobs == 1 ? " unfinished job" : " unfinished jobs")) + (conversations ? ", conversations"
                    : "");
        }
    }

    public Created create(String tenant, String name) {
        return create(tenant, name, false);
    }

    /**
     * A new key for {@code tenant}; with {@code adoptLocal}, the tenant takes over local mode's data: its keys act as
     * the local tenant (its knowledge bases, documents, jobs, sources and graph), and what the command line and
     * {@code serve --watch} index later is the tenant's too. One tenant at most, and only one with no data of its own
     * (that would be hidden): either is a conflict.
     */
    public Created create(String tenant, String name, boolean adoptLocal) {
        Tenant t = Tenant.of(tenant);
        if (name != null && (name.length() > 200 || name.chars().anyMatch(Character::isISOControl))) {
            throw new InvalidInputException("key name must be at most 200 characters with no control characters");
        }
        Optional<String> owner = store.localOwner();
        if (adoptLocal) {
            if (owner.isPresent() && !owner.get().equals(t.id())) {
                throw new ConflictException("local mode's data belongs to tenant '" + owner.get() + "' already: "
                        + "create this key without adopting it, or a key for '" + owner.get() + "'");
            }
            if (owner.isEmpty() && hasOwnData.test(t.id())) {
                throw new ConflictException("tenant '" + t.id() + "' has knowledge bases, sources, unfinished jobs or "
                        + "conversations of its own, which adopting local mode's data would hide: adopt it with a new "
                        + "tenant");
            }
            if (!store.adoptLocal(t.id())) {
                throw new ConflictException("another tenant adopted local mode's data meanwhile: 'polyrag keys list' "
                        + "names it");
            }
        }
        boolean owns = adoptLocal || owner.filter(t.id()::equals).isPresent();
        LocalData local = localData.get();
        List<String> warnings = owns || owner.isPresent() || local.empty() ? List.of() : List.of("local mode's data ("
                + local + ") is read by no key: this key's tenant does not see it. To make it a tenant's, create "
                + "that tenant's key with --adopt-local (POST /v1/admin/keys: \"adopt_local\": true); see "
                + "docs/tenancy.md");
        byte[] id = new byte[8];
        byte[] secret = new byte[32];
        RANDOM.nextBytes(id);
        RANDOM.nextBytes(secret);
        String keyId = HexFormat.of().formatHex(id);
        String key = PREFIX + keyId + Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
        return new Created(key, store.createKey(keyId, t.id(), name == null ? "" : name.strip(), hash(key)), owns,
                warnings);
    }

    /** The tenant that took over local mode's data, if one has. */
    public Optional<String> localOwner() {
        return store.localOwner();
    }

    /** What local mode holds now. */
    public LocalData localData() {
        return localData.get();
    }

    public List<ApiKey> list() {
        return store.keys();
    }

    public void revoke(String id) {
        if (id == null || !store.revokeKey(id)) {
            throw new NotFoundException("no active key with id '" + Ids.abbreviate(String.valueOf(id), 64) + "'");
        }
    }

    /**
     * Whether requests need a key: when any key is active, or always with {@code POLYRAG_HTTP_REQUIRE_KEYS=true} (a
     * server reachable from other machines from its first start: a container, a cluster). Otherwise the server runs
     * in local mode (loopback only, no keys asked).
     */
    public boolean required() {
        return alwaysRequired || store.anyActiveKey();
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
        Optional<KeyStore.Active> active;
        try {
            active = store.activeKey(id);
        } catch (RuntimeException e) {
            // Said to whoever sent a well-formed key, before it is known to be anyone's: the catalog's failure names
            // its address, database and user, which the logs keep and the answer does not.
            System.getLogger(Keys.class.getName()).log(System.Logger.Level.WARNING, "an API key could not be "
                    + "checked: " + e.getMessage());
            throw new UnavailableException("API keys cannot be checked now (the catalog does not answer): retry in "
                    + "a moment");
        }
        return active.filter(k -> MessageDigest.isEqual(presented,
                k.keyHash().getBytes(StandardCharsets.US_ASCII))).map(k -> k.adoptsLocal()
                        ? Tenant.adopting(k.key().tenant()) : Tenant.of(k.key().tenant()));
    }

    static String hash(String key) {
        return Ids.sha256Hex(key.getBytes(StandardCharsets.UTF_8));
    }
}
