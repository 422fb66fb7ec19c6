package io.polyrag.server;

import io.javalin.config.JavalinConfig;
import io.javalin.http.staticfiles.Location;
import java.util.Map;

/**
 * The web UI at {@code /}: the single-page app the {@code ui} module builds into the class path under {@link #ROOT},
 * served as static files with a strict Content-Security-Policy (scripts, styles and requests to this origin only). A
 * build made without Node has no UI: {@code /} then says how to get it, and the API works as ever.
 */
final class WebUi {
    static final String ROOT = "/io/polyrag/ui/static";
    static final String CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
            + "img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
            + "form-action 'self'; frame-ancestors 'none'";
    private static final Map<String, String> HEADERS = Map.of("Content-Security-Policy", CSP,
            "X-Content-Type-Options", "nosniff", "Referrer-Policy", "no-referrer", "X-Frame-Options", "DENY",
            "Cache-Control", "no-cache");
    static final String MISSING = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>polyrag</title></head>
            <body style="font-family: sans-serif; max-width: 40rem; margin: 4rem auto; line-height: 1.5">
            <h1>polyrag</h1>
            <p>This build of polyrag has no web UI: it was built on a machine without Node.js.
            The API is here as ever: <a href="/v1/openapi.json">/v1/openapi.json</a> describes it.</p>
            <p>To get the UI, install Node.js 20 or newer with npm and build again
            (<code>./mvnw install -DskipTests</code>); <code>polyrag serve</code> then shows it here.</p>
            </body></html>
            """;

    private WebUi() {
    }

    /** Whether this class path holds the built UI. */
    static boolean present() {
        return WebUi.class.getResource(ROOT + "/index.html") != null;
    }

    static void register(JavalinConfig config) {
        register(config, present());
    }

    /** The UI's files when {@code built}, else a page at {@code /} that says how to get them. */
    static void register(JavalinConfig config, boolean built) {
        if (built) {
            config.staticFiles.add(files -> {
                files.hostedPath = "/";
                files.directory = ROOT;
                files.location = Location.CLASSPATH;
                files.headers = HEADERS;
            });
        } else {
            config.routes.get("/", ctx -> {
                HEADERS.forEach(ctx::header);
                ctx.html(MISSING);
            });
        }
    }
}
