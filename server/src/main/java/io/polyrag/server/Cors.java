package io.polyrag.server;

import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import io.polyrag.core.ConfigException;
import java.util.Arrays;
import java.util.List;

/**
 * CORS for the origins {@code POLYRAG_HTTP_CORS_ORIGINS} lists, as the first before-handler: a listed origin's
 * answers carry {@code Access-Control-Allow-Origin} whatever their status (refusals included, so a browser app can
 * read a 401 or a 429's {@code Retry-After}), and its preflight is answered here, 200 with what it may send. An
 * unlisted origin's requests run as any other, without the headers; the browser then keeps the answer from its page.
 * Javalin's bundled plugin set every such request's status to 400 before it ran, so a search or a write from the
 * server's own UI on another origin ran and answered 400; and it ran after authentication, so refusals had no
 * headers.
 */
final class Cors {
    private static final String EXPOSED = "Location, Retry-After, Content-Disposition, Content-Range, ETag, "
            + RestServer.REQUEST_ID_HEADER;
    private static final String METHODS = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";
    private static final String HEADERS = "Authorization, Content-Type, X-Api-Key, Last-Event-ID, "
            + RestServer.REQUEST_ID_HEADER + ", Accept, Range";
    private final List<String> origins;
    private final boolean any;

    private Cors(List<String> origins) {
        this.origins = origins;
        this.any = origins.contains("*");
    }

    /** The configured origins' CORS; null when none is configured (browsers then allow the server's own only). */
    static Cors of(String configured) {
        List<String> list = Arrays.stream(configured.split(",")).map(String::strip).filter(o -> !o.isEmpty())
                .toList();
        if (list.isEmpty()) {
            return null;
        }
        for (String o : list) {
            if (!o.equals("*") && !o.matches("https?://[A-Za-z0-9.-]+(:\\d{1,5})?")) {
                throw new ConfigException("POLYRAG_HTTP_CORS_ORIGINS: '" + o + "' is not an origin: "
                        + "give scheme://host[:port] (e.g. https://app.example.com), or * for any");
            }
        }
        return new Cors(list);
    }

    void apply(Context ctx) {
        String origin = ctx.header("Origin");
        if (origin == null || !any && !origins.contains(origin)) {
            return;
        }
        ctx.header("Access-Control-Allow-Origin", any ? "*" : origin);
        ctx.header("Vary", "Origin");
        ctx.header("Access-Control-Expose-Headers", EXPOSED);
        if (ctx.method() == HandlerType.OPTIONS && ctx.header("Access-Control-Request-Method") != null) {
            ctx.header("Access-Control-Allow-Methods", METHODS);
            String asked = ctx.header("Access-Control-Request-Headers");
            ctx.header("Access-Control-Allow-Headers", asked != null && asked.matches("[A-Za-z0-9, -]{1,500}")
                    ? asked : HEADERS);
            ctx.header("Access-Control-Max-Age", "600");
            ctx.status(200);
            ctx.skipRemainingHandlers();
        }
    }
}
