package io.polyrag.server;

import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import io.javalin.http.HttpResponseException;
import io.micrometer.core.instrument.Counter;
import io.polyrag.app.Polyrag;
import io.polyrag.core.ConfigException;
import io.polyrag.core.config.Settings;
import io.polyrag.core.model.Tenant;
import java.net.InetAddress;
import java.net.URLDecoder;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Who a request acts for. As soon as one API key exists every {@code /v1} route needs one ({@code Authorization:
 * Bearer <key>} or {@code X-Api-Key}), and the request acts for the key's tenant; with none the server is in local
 * mode (it only binds a loopback address then) and every request acts for the local tenant. {@code /v1/admin}
 * routes need the operator key ({@code POLYRAG_HTTP_ADMIN_KEY}) once keys exist. A missing, wrong or revoked key is
 * one uniform 401; a client address that fails too often in a minute gets 429 instead for its failing requests
 * until the minute is over, while its requests with a valid key go on.
 */
final class Auth {
    static final String TENANT = "polyrag.tenant";
    /** The key a request was let in with (absent in local mode and for the operator key). */
    private static final String KEY = "polyrag.key";
    static final String UNAUTHORIZED = "a valid API key is required: send it as 'Authorization: Bearer <key>' or "
            + "'X-Api-Key: <key>' (create one with 'polyrag keys create TENANT')";
    /** The operator's routes take the operator key, not a tenant's: the 401 says which and how it is set. */
    private static final String OPERATOR_UNAUTHORIZED = "the operator key is required here: send "
            + "POLYRAG_HTTP_ADMIN_KEY's value as 'Authorization: Bearer <key>' or 'X-Api-Key: <key>'";
    private static final long KEYS_CHECK_NANOS = 2_000_000_000L;
    private static final int MAX_TRACKED_CLIENTS = 10_000;

    private final Polyrag polyrag;
    private final byte[] adminKey;
    private final int failuresPerMinute;
    private final List<Cidr> trustedProxies;
    private final Map<String, long[]> failures = new ConcurrentHashMap<>();
    /**
     * Failures on the operator's routes, counted apart: tenants' failures from a shared address (a load balancer not
     * listed as a trusted proxy) throttled the operator's scrapes and admin calls with the right key.
     */
    private final Map<String, long[]> operatorFailures = new ConcurrentHashMap<>();
    /** Addresses the operator key came from, and when last: an hour after, they share the untracked count again. */
    private final Map<String, Long> operatorAddresses = new ConcurrentHashMap<>();
    private final Counter authFailures;
    private final List<String> corsOrigins;
    /** Bound beyond loopback: keys stay required even once every key is revoked (local mode would answer anyone). */
    private final boolean wide;
    private volatile boolean keysRequired;
    private volatile long sweptMinute = -1;
    private volatile long keysCheckedAt = Long.MIN_VALUE;
    private volatile long keysFailureLoggedAt = System.nanoTime() - 120_000_000_000L;
    private static final System.Logger LOG = System.getLogger(Auth.class.getName());

    Auth(Polyrag polyrag, String host) {
        this.polyrag = polyrag;
        this.wide = !loopback(host);
        this.corsOrigins = Arrays.stream(polyrag.config().get(Settings.HTTP_CORS_ORIGINS).split(","))
                .map(String::strip).filter(x -> !x.isEmpty()).toList();
        // Stripped, as a presented key is: a key read from a file (a Kubernetes secret made --from-file) ends in a
        // newline, and no key sent could match it.
        String admin = polyrag.config().get(Settings.HTTP_ADMIN_KEY).strip();
        this.adminKey = admin.isEmpty() ? null : digest(checkedAdminKey(admin));
        this.failuresPerMinute = polyrag.config().get(Settings.HTTP_AUTH_FAILURES_PER_MINUTE);
        this.trustedProxies = Arrays.stream(polyrag.config().get(Settings.HTTP_TRUSTED_PROXIES).split(","))
                .filter(x -> !x.isBlank()).map(Cidr::parse).toList();
        this.authFailures = Counter.builder("polyrag_auth_failures_total")
                .description("requests with a missing, wrong or revoked key").register(polyrag.metrics().registry());
        refresh();
    }

    /** The shortest operator key taken: guessing one is throttled per address, not made impossible. */
    static final int MIN_ADMIN_KEY = 16;

    /**
     * The operator key as configured, or a refusal to start: "changeme" was taken, and with a fresh client address
     * for each 20 tries (an IPv6 /64) a short one falls to guessing; a character outside visible ASCII may never be
     * sent as typed (headers are Latin-1 on the wire).
     */
    static String checkedAdminKey(String admin) {
        if (admin.length() < MIN_ADMIN_KEY || !admin.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
            throw new ConfigException("POLYRAG_HTTP_ADMIN_KEY must be at least " + MIN_ADMIN_KEY + " visible ASCII "
                    + "characters (no spaces), it is " + admin.length() + (admin.chars().allMatch(c -> c > 0x20
                    && c < 0x7f) ? "" : " with others among them") + ": make one with 'openssl rand -hex 24'");
        }
        return admin;
    }

    private static byte[] digest(String key) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is in every JDK", e);
        }
    }

    /** Whether keys are required: at most two seconds stale (a key made through the admin route refreshes it). */
    boolean keysRequired() {
        if (System.nanoTime() - keysCheckedAt > KEYS_CHECK_NANOS) {
            refresh();
        }
        return keysRequired;
    }

    void refresh() {
        try {
            keysRequired = wide || polyrag.keys().required();
        } catch (RuntimeException e) {
            if (keysCheckedAt == Long.MIN_VALUE) {
                keysRequired = true; // never known: closed, not local mode
            }
            // The catalog failing (a PostgreSQL restart): what was known stands, checked again in two seconds. Thrown,
            // every caller, keyless, got a 503 naming the catalog's host and database, /health included.
            if (System.nanoTime() - keysFailureLoggedAt > 60_000_000_000L) {
                keysFailureLoggedAt = System.nanoTime();
                LOG.log(System.Logger.Level.WARNING, "cannot tell whether API keys exist (keeping '"
                        + (keysRequired ? "keys required" : "local mode") + "'): " + e.getMessage());
            }
        }
        keysCheckedAt = System.nanoTime();
        checked.clear(); // a key revoked here ends its streams at their next check, not seconds later
    }

    /** The before-handler of every route: resolves the tenant, or answers 401/403/429. */
    void authenticate(Context ctx) {
        String path = canonical(ctx.path());
        String raw = rawPath(ctx.path());
        boolean operator = operator(path) || operator(raw);
        // Open only when the path is an open one both as the router sees it and decoded: "/v1/jobs/x%2F..%2F..%2F..
        // %2Fhealth" decodes to /health, but the router runs the jobs route with it.
        if (open(path) && open(raw)) {
            if ((path.equals("/health") || path.equals("/ready")) && !keysRequired()) {
                // In local mode these show counts, store addresses and errors: a page whose name was rebound to
                // 127.0.0.1 read them, as it cannot read /v1 (the Host check).
                LocalOnly.check(ctx, corsOrigins);
            }
            return;
        }
        if (!keysRequired()) {
            // Local mode binds loopback only; a peer from elsewhere (a proxy in front of it) is not this machine's user.
            if (!loopbackPeer(ctx.req().getRemoteAddr())) {
                throw new HttpResponseException(401, UNAUTHORIZED);
            }
            LocalOnly.check(ctx, corsOrigins);
            ctx.attribute(TENANT, Tenant.LOCAL);
            return;
        }
        if (ctx.method() == HandlerType.OPTIONS && ctx.header("Access-Control-Request-Method") != null) {
            return; // a browser's CORS preflight never carries the key; it reads nothing, the request it precedes will
        }
        String client = client(ctx);
        String key = presented(ctx);
        if (operator) {
            // The operator key is whatever the operator typed, not 256 random bits: a throttled address does not get
            // its guesses checked (tenants behind a shared address do not use these routes).
            // An address the operator key came from lately is judged by its own failures only: the shared count of
            // untracked addresses (a flood of ten thousand) kept Prometheus and the operator out too. Any other
            // address shares it, so a flood does not open unthrottled guessing from fresh addresses.
            throttle(ctx, client, operatorFailures, !operatorSeen(client));
            // Digests compared: equal lengths whatever was sent, so the time taken says nothing of the key's length.
            if (adminKey != null && key != null && MessageDigest.isEqual(adminKey, digest(key))) {
                if (operatorAddresses.size() < MAX_TRACKED_CLIENTS || operatorAddresses.containsKey(client)) {
                    operatorAddresses.put(client, System.currentTimeMillis());
                }
                ctx.attribute(TENANT, Tenant.LOCAL);
                return;
            }
            if (key != null && polyrag.keys().authenticate(key).isPresent()) {
                throw new HttpResponseException(403, adminKey == null
                        ? "the admin routes are off on a server with API keys: set POLYRAG_HTTP_ADMIN_KEY and send it"
                        : "this route needs the operator key (POLYRAG_HTTP_ADMIN_KEY), not a tenant's key");
            }
            fail(ctx, client, operatorFailures);
        }
        // A valid key always gets in: only failures are throttled, so bad requests from an address a tenant shares
        // (a proxy, a NAT) lock nobody out. Keys are 256-bit random, so letting a throttled address on to the key
        // check teaches a guesser nothing.
        var tenant = key == null ? Optional.<Tenant>empty() : polyrag.keys().authenticate(key);
        if (tenant.isEmpty()) {
            fail(ctx, client, failures);
        }
        ctx.attribute(TENANT, tenant.get());
        ctx.attribute(KEY, key);
    }

    /**
     * Whether a long-lived request (an event stream) may go on: its key is still active, or, let in by local mode,
     * the server is still in it. A revoked key's stream ends, as its next request would get 401.
     */
    boolean stillAllowed(Context ctx) {
        String key = ctx.attribute(KEY);
        if (key == null) {
            return operatorPath(ctx) || !keysRequired(); // the operator key is the configuration's, not revocable
        }
        // One catalog read per key every few seconds, however many streams it holds open: each stream read it.
        long now = System.nanoTime();
        Checked last = checked.get(key);
        if (last == null || now - last.at() > CHECK_AGAIN_NANOS) {
            if (checked.size() > MAX_TRACKED_CLIENTS) {
                checked.clear();
            }
            last = new Checked(now, polyrag.keys().authenticate(key).orElse(null));
            checked.put(key, last);
        }
        return last.tenant() != null && last.tenant().equals(ctx.attribute(TENANT));
    }

    /** A key's tenant as last read (null: no longer valid), and when. */
    private record Checked(long at, Tenant tenant) {
    }

    private final Map<String, Checked> checked = new ConcurrentHashMap<>();
    private static final long CHECK_AGAIN_NANOS = 4_000_000_000L;

    private static boolean operatorPath(Context ctx) {
        String path = canonical(ctx.path());
        return path.startsWith("/v1/admin") || path.equals("/metrics") || path.startsWith("/metrics/");
    }

    /**
     * The client's address: the peer's, or, when the peer is a configured trusted proxy, the last address of
     * {@code X-Forwarded-For} that is not a trusted proxy (the one the first proxy saw).
     */
    String client(Context ctx) {
        String peer = ctx.req().getRemoteAddr();
        if (trustedProxies.isEmpty() || !trusted(peer)) {
            return peer;
        }
        List<String> forwarded = new ArrayList<>();
        for (String header : Collections.list(ctx.req().getHeaders("X-Forwarded-For"))) {
            for (String a : header.split(",")) {
                if (!a.isBlank()) {
                    forwarded.add(withoutPort(a.strip()));
                }
            }
        }
        for (int i = forwarded.size() - 1; i >= 0; i--) {
            if (!trusted(forwarded.get(i))) {
                return forwarded.get(i);
            }
        }
        return forwarded.isEmpty() ? peer : forwarded.getFirst();
    }

    /**
     * An address as some proxies forward it ({@code 203.0.113.9:51234}, {@code [2001:db8::1]:443}) without its
     * port: with it, every connection was a client of its own, and a guesser's failures were never counted together.
     */
    static String withoutPort(String address) {
        if (address.startsWith("[")) {
            int close = address.indexOf(']');
            return close < 0 ? address : address.substring(1, close);
        }
        int colon = address.indexOf(':');
        return colon > 0 && address.indexOf(':', colon + 1) < 0 ? address.substring(0, colon) : address;
    }

    private boolean trusted(String address) {
        byte[] a = literal(address);
        if (a == null) {
            return false;
        }
        for (Cidr c : trustedProxies) {
            if (c.contains(a)) {
                return true;
            }
        }
        return false;
    }

    private static boolean loopbackPeer(String address) {
        byte[] a = address == null ? null : literal(address);
        try {
            return a != null && InetAddress.getByAddress(a).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /** The bytes of an IP literal; null for anything else (never a DNS lookup). */
    private static byte[] literal(String address) {
        String s = address.startsWith("[") && address.endsWith("]") ? address.substring(1, address.length() - 1)
                : address;
        if (!s.matches("[0-9.]+|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*")) {
            return null;
        }
        try {
            return InetAddress.getByName(s).getAddress();
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /** An address range: a network's bytes and its prefix length. */
    record Cidr(byte[] network, int prefix) {
        static Cidr parse(String text) {
            String t = text.strip();
            int slash = t.indexOf('/');
            byte[] net = literal(slash < 0 ? t : t.substring(0, slash));
            int prefix;
            try {
                prefix = net == null ? -1 : slash < 0 ? net.length * 8 : Integer.parseInt(t.substring(slash + 1));
            } catch (NumberFormatException e) {
                prefix = -1;
            }
            if (net == null || prefix < 0 || prefix > net.length * 8) {
                throw new ConfigException("POLYRAG_HTTP_TRUSTED_PROXIES: '" + t + "' is not an IP "
                        + "address or CIDR range (e.g. 10.0.0.5 or 10.0.0.0/8)");
            }
            return new Cidr(net, prefix);
        }

        boolean contains(byte[] address) {
            if (address.length != network.length) {
                return false;
            }
            int full = prefix / 8;
            for (int i = 0; i < full; i++) {
                if (address[i] != network[i]) {
                    return false;
                }
            }
            int rest = prefix % 8;
            return rest == 0 || ((address[full] ^ network[full]) & (0xff << (8 - rest)) & 0xff) == 0;
        }
    }

    /**
     * A path as the router may match it, for deciding who may ask: percent-escapes decoded, {@code ;parameters}
     * dropped, repeated slashes merged, dot segments resolved, the trailing slash dropped, lower case. Two spellings
     * of one route ({@code /metrics/}, {@code /v1//admin;x}, {@code /%6Detrics}) are one route here, so none of
     * them is let through as another.
     */
    static String canonical(String raw) {
        String decoded = raw == null ? "/" : raw;
        if (decoded.indexOf('%') >= 0) {
            try {
                decoded = URLDecoder.decode(decoded.replace("+", "%2B"), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                // a malformed escape: the router will not match it either; judge it as written
            }
        }
        Deque<String> segments = new ArrayDeque<>();
        for (String segment : decoded.split("/")) {
            int semi = segment.indexOf(';');
            String s = semi >= 0 ? segment.substring(0, semi) : segment;
            if (s.isEmpty() || s.equals(".")) {
                continue;
            }
            if (s.equals("..")) {
                segments.pollLast();
            } else {
                segments.addLast(s);
            }
        }
        return ("/" + String.join("/", segments)).toLowerCase(Locale.ROOT);
    }

    private static boolean operator(String path) {
        return path.startsWith("/v1/admin") || path.equals("/metrics") || path.startsWith("/metrics/");
    }

    private static boolean open(String path) {
        return !path.startsWith("/v1/") && !path.equals("/v1") && !operator(path) || path.equals("/v1/openapi.json");
    }

    /** The path as sent, lower case, without one trailing slash: nothing decoded or resolved. */
    private static String rawPath(String raw) {
        String p = raw == null || raw.isEmpty() ? "/" : raw.toLowerCase(Locale.ROOT);
        return p.length() > 1 && p.endsWith("/") ? p.substring(0, p.length() - 1) : p;
    }

    /** The tenant the request acts for (set by {@link #authenticate}). */
    static Tenant tenant(Context ctx) {
        Tenant t = ctx.attribute(TENANT);
        return t == null ? Tenant.LOCAL : t;
    }

    private static String presented(Context ctx) {
        String auth = ctx.header("Authorization");
        if (auth != null && auth.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return auth.substring(7).strip();
        }
        String key = ctx.header("X-Api-Key");
        return key == null ? null : key.strip();
    }

    private boolean operatorSeen(String client) {
        Long at = operatorAddresses.get(client);
        if (at != null && System.currentTimeMillis() - at > 3_600_000) {
            operatorAddresses.remove(client, at);
            return false;
        }
        return at != null;
    }

    private void throttle(Context ctx, String client, Map<String, long[]> counts) {
        throttle(ctx, client, counts, true);
    }

    /** With {@code shared}, an address not tracked on its own is judged by the count every such address shares. */
    private void throttle(Context ctx, String client, Map<String, long[]> counts, boolean shared) {
        long[] f = counts.get(client);
        if (f == null && shared && counts.size() > MAX_TRACKED_CLIENTS) {
            f = counts.get("(others)");
        }
        long minute = System.currentTimeMillis() / 60_000;
        if (f != null && f[0] == minute && f[1] >= failuresPerMinute) {
            long wait = 60 - (System.currentTimeMillis() / 1000) % 60;
            ctx.header("Retry-After", Long.toString(wait));
            throw new HttpResponseException(429, "too many failed authentications from this address: try again in "
                    + wait + " s");
        }
    }

    /** A failed authentication: 429 once the address has failed too often this minute, else one uniform 401. */
    private void fail(Context ctx, String client, Map<String, long[]> counts) {
        throttle(ctx, client, counts);
        long minute = System.currentTimeMillis() / 60_000;
        if (counts.size() > MAX_TRACKED_CLIENTS && sweptMinute != minute) {
            // Once a minute at most: with the map full of this minute's clients every failure walked all of them.
            sweptMinute = minute;
            counts.entrySet().removeIf(e -> e.getValue()[0] != minute);
        }
        // Past the bound, new addresses share one count (a flood of addresses cannot grow the map without end).
        String tracked = counts.size() > MAX_TRACKED_CLIENTS && !counts.containsKey(client) ? "(others)" : client;
        counts.compute(tracked, (c, f) -> f == null || f[0] != minute ? new long[] {minute, 1}
                : new long[] {minute, f[1] + 1});
        authFailures.increment();
        ctx.header("WWW-Authenticate", "Bearer realm=\"polyrag\"");
        throw new HttpResponseException(401, counts == operatorFailures ? OPERATOR_UNAUTHORIZED : UNAUTHORIZED);
    }

    /** Local mode answers anyone who can connect: refuse to bind beyond this machine without keys. */
    static void checkBind(Polyrag polyrag, String host) {
        if (polyrag.keys().required() || loopback(host)) {
            return;
        }
        throw new ConfigException("refusing to serve on " + host + " without API keys: anyone who "
                + "can reach it could read and change every document. Create a key first ('polyrag keys create "
                + "TENANT'), or bind a loopback address (POLYRAG_HTTP_HOST=127.0.0.1)");
    }

    static boolean loopback(String host) {
        try {
            for (InetAddress a : InetAddress.getAllByName(host)) {
                if (!a.isLoopbackAddress()) {
                    return false;
                }
            }
            return true;
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
