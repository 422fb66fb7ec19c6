package io.polyrag.server;

import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Local mode (no API key) answers only this machine's own pages and tools. Any page a browser shows can send requests
 * to {@code http://127.0.0.1:8080}: a form posted there (a multipart upload needs no permission from the server)
 * would add its documents, and a page whose name was rebound to 127.0.0.1 could read every answer. So a request
 * whose Host is not a loopback name is refused (421), and so is a write whose Origin is another site's (403) unless
 * {@code POLYRAG_HTTP_CORS_ORIGINS} names it ({@code *} names none here: another site's page is refused even a read),
 * as is any API request a browser marks as sent by another site's page. Tools such as curl send no Origin; the web
 * UI is on the same origin.
 */
final class LocalOnly {
    private static final Set<String> LOOPBACK = Set.of("localhost", "127.0.0.1", "[::1]", "::1");
    private static final Set<String> READS = Set.of("GET", "HEAD", "OPTIONS");
    private static final List<String> FORWARDED = List.of("Forwarded", "X-Forwarded-For", "X-Real-IP",
            "X-Forwarded-Host");

    private LocalOnly() {
    }

    static void check(Context ctx, List<String> allowedOrigins) {
        // A proxy on this machine connects from loopback, and with its default Host (nginx's $proxy_host) looks like
        // this machine's own user: once the last key was revoked, anyone who reached the proxy had local mode,
        // admin routes included. A request a proxy forwarded says so in these headers.
        for (String forwarded : FORWARDED) {
            if (ctx.header(forwarded) != null) {
                throw new HttpResponseException(401, "this server is in local mode (no API key) and answers only "
                        + "this machine's own programs, not requests a proxy forwarded (" + forwarded + "): create "
                        + "an API key ('polyrag keys create TENANT') to serve through a proxy, and set "
                        + "POLYRAG_HTTP_REQUIRE_KEYS=true so that revoking the last one does not return to local mode");
            }
        }
        // "*" admits no page here: with it CORS tells every browser that any site may read the answers, so a page of
        // any site read this machine's documents (and wrote, past a preflight). Only origins listed by name count.
        boolean any = allowedOrigins.contains("*");
        String host = ctx.header("Host");
        if (host != null && !loopback(hostName(host))
                && allowedOrigins.stream().noneMatch(o -> hostName(authority(o)).equals(hostName(host)))) {
            throw new HttpResponseException(421, "this server is in local mode (no API key) and answers only requests "
                    + "addressed to this machine (localhost, 127.0.0.1 or [::1]), not to '" + shorten(host) + "': "
                    + "create an API key to serve other names, or list the origin in POLYRAG_HTTP_CORS_ORIGINS");
        }
        String origin = ctx.header("Origin");
        // A read sent by another site's page without CORS (an image, a script tag, a link followed) carries no Origin,
        // but the browser says where it came from: it could not read the answer, but it made this server evaluate a
        // knowledge base or compare every store. The web UI's own pages (another site's link to them) stay open.
        // The page is named by its Origin, else by its Referer (an image tag sends no Origin): a page the operator
        // listed, or one of this machine (localhost:3000 calling 127.0.0.1:8080), is admitted as before.
        String page = origin != null ? origin : pageOf(ctx.header("Referer"));
        if ("cross-site".equalsIgnoreCase(ctx.header("Sec-Fetch-Site")) && ctx.path().startsWith("/v1/")
                && (page == null || !allowedOrigins.contains(page) && !loopback(hostName(authority(page))))) {
            throw new HttpResponseException(403, "this server is in local mode (no API key) and answers no request "
                    + "a page of another site sent (Sec-Fetch-Site: cross-site): list its origin in "
                    + "POLYRAG_HTTP_CORS_ORIGINS (it must send it), or create an API key");
        }
        if (origin != null && (any || !READS.contains(ctx.method().name())) && !allowedOrigins.contains(origin)
                && !loopback(hostName(authority(origin)))) {
            throw new HttpResponseException(403, "this server is in local mode (no API key) and takes no "
                    + (any ? "request" : "writes") + " from pages of another site (Origin '" + shorten(origin) + "'"
                    + (any ? "; POLYRAG_HTTP_CORS_ORIGINS=* admits none in local mode" : "") + "): list the origin in "
                    + "POLYRAG_HTTP_CORS_ORIGINS, or create an API key");
        }
    }

    /** The origin ({@code scheme://host:port}) of a Referer, or null. */
    private static String pageOf(String referer) {
        try {
            URI u = referer == null ? null : URI.create(referer.strip());
            return u == null || u.getScheme() == null || u.getRawAuthority() == null ? null
                    : u.getScheme() + "://" + u.getRawAuthority();
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static boolean loopback(String name) {
        return LOOPBACK.contains(name) || name.startsWith("127.") && name.chars().allMatch(c -> c == '.'
                || Character.isDigit(c));
    }

    /** {@code host:port} or {@code [v6]:port} without its port, lower-cased. */
    static String hostName(String authority) {
        String a = authority.strip().toLowerCase(Locale.ROOT);
        if (a.startsWith("[")) {
            int close = a.indexOf(']');
            return close < 0 ? a : a.substring(0, close + 1);
        }
        int colon = a.indexOf(':');
        return colon < 0 ? a : a.substring(0, colon);
    }

    /** The authority of an origin ({@code https://app.example.com:8443} → {@code app.example.com:8443}). */
    private static String authority(String origin) {
        try {
            String a = URI.create(origin.strip()).getRawAuthority();
            return a == null ? "" : a;
        } catch (IllegalArgumentException e) {
            return "";
        }
    }

    private static String shorten(String s) {
        return s.length() > 80 ? s.substring(0, 80) + "…" : s;
    }
}
