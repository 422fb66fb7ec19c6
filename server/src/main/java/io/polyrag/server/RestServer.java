package io.polyrag.server;

import io.javalin.Javalin;
import io.javalin.config.SizeUnit;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import io.javalin.json.JavalinJackson3;
import io.javalin.router.Endpoint;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.polyrag.app.HttpFrontDoor;
import io.polyrag.app.Json;
import io.polyrag.app.Polyrag;
import io.polyrag.app.Tracing;
import io.polyrag.app.api.Limits;
import io.polyrag.app.api.Version;
import io.polyrag.core.config.Settings;
import io.polyrag.core.model.Tenant;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.slf4j.MDC;
import tools.jackson.databind.node.ObjectNode;

/**
 * The REST API over the {@link Polyrag} facade, as a bootstrap that only wires: Javalin and Jetty's settings, request
 * ids and the access log, CORS, one routes class per resource ({@link HealthRoutes}, {@link SearchRoutes},
 * {@link IngestRoutes}, {@link DocumentRoutes}, {@link GraphRoutes}) and the one {@link ProblemMapper}. The routes
 * parse requests and call one facade method each; they hold no behaviour of their own. Requests run on virtual
 * threads.
 */
public final class RestServer implements HttpFrontDoor {
    private static final System.Logger ACCESS = System.getLogger("io.polyrag.server.access");
    static final String REQUEST_ID = "polyrag.request.id";
    /** The request's span ({@link io.polyrag.app.Tracing.Request}), when traces are on. */
    static final String TRACE = "polyrag.trace";
    static final String REQUEST_ID_HEADER = "X-Request-Id";

    /** The build's version ({@link io.polyrag.app.api.Version}). */
    static final String VERSION = Version.VERSION;

    /** How long a stop waits for the requests in flight (inside the deployments' 90 s grace, with jobs' 30 s). */
    static final Duration STOP_DRAIN = Duration.ofSeconds(20);
    private final Javalin app;
    private final Polyrag polyrag;
    private final ObjectNode[] openApi = new ObjectNode[1];
    private final List<String> operations = new ArrayList<>();
    private final AtomicBoolean stopping = new AtomicBoolean();

    /**
     * Starts the server.
     *
     * @param host address to bind
     * @param port port to bind; 0 picks a free one ({@link #port()} tells which)
     * @param maxRequestBytes largest request body, uploads included
     */
    // style: Jetty and Javalin configured in one place: every route class registered in order
    public RestServer(Polyrag polyrag, String host, int port, long maxRequestBytes) {
        Auth.checkBind(polyrag, host);
        Auth auth = new Auth(polyrag, host);
        this.polyrag = polyrag;
        this.app = Javalin.create(config -> {
            config.startup.showJavalinBanner = false;
            config.concurrency.useVirtualThreads = true;
            config.jsonMapper(new JavalinJackson3(Json.MAPPER, false));
            config.http.maxRequestSize = maxRequestBytes;
            config.http.prefer405over404 = true;
            // A stop lets the requests in flight finish (an upload still arriving, a download, an answer), up to
            // STOP_DRAIN; one arriving meanwhile gets a 503. Without it, every connection was cut at once: an upload
            // told "400 bad multipart" (which no client retries), a download ended short under a logged 200.
            config.jetty.modifyServer(server -> {
                server.setErrorHandler(new ProblemErrorHandler());
                server.setStopTimeout(STOP_DRAIN.toMillis());
            });
            config.jetty.modifyServletContextHandler(context -> {
                context.insertHandler(new GracefulHandler());
                context.setErrorHandler(new ProblemErrorHandler());
                // Parts of a multipart request count as form keys: the files a request may carry, and its fields.
                context.setMaxFormKeys(Limits.MAX_FORM_PARTS);
            });
            config.jetty.host = host;
            config.jetty.port = port;
            config.jetty.multipartConfig.maxFileSize(maxRequestBytes, SizeUnit.BYTES);
            config.jetty.multipartConfig.maxTotalRequestSize(maxRequestBytes, SizeUnit.BYTES);
            // Parts up to this size stay in memory, the rest go to disk: at 1 MB a request of a thousand files of
            // under a megabyte each held its whole 256 MiB in the heap, and a few at once ran the server out of it.
            config.jetty.multipartConfig.maxInMemoryFileSize(64, SizeUnit.KB);
            Cors cors = Cors.of(polyrag.config().get(Settings.HTTP_CORS_ORIGINS));
            WebUi.register(config);
            // One access-log line per request; the MDC adds the id echoed in X-Request-Id and the tenant.
            MeterRegistry meters = polyrag.metrics().registry();
            config.requestLogger.http((ctx, ms) -> {
                Tracing.Request traced = ctx.attribute(TRACE);
                // The trace id is on the line through the MDC (trace_id), with the request id and tenant.
                String method = method(ctx);
                ACCESS.log(ctx.statusCode() >= 500 ? System.Logger.Level.WARNING : System.Logger.Level.INFO,
                        () -> String.format(Locale.ROOT, "%s %s %d %.1f ms", method, route(ctx),
                                ctx.statusCode(), ms));
                boolean matched = matched(ctx);
                if (traced != null) {
                    // A span is named by its route pattern; with none (a 404, a 401 before routing) by its method
                    // alone, as OpenTelemetry's conventions say: a raw path made a span name per id.
                    if (matched) {
                        traced.attributes(route(ctx), tenantOf(ctx));
                    }
                    traced.end(method, ctx.statusCode());
                }
                // By route pattern, never the raw path: ids in paths must not make a metric per request.
                String route = matched ? route(ctx) : "unmatched";
                Timer.builder("polyrag_http_requests_seconds")
                        .description("HTTP requests by route, method and status").tag("route", route)
                        .tag("method", method).tag("status", Integer.toString(ctx.statusCode()))
                        .publishPercentileHistogram().register(meters)
                        .record(Duration.ofNanos((long) (ms * 1_000_000)));
                MDC.clear();
            });
            // First: every answer to a listed origin carries its CORS headers, a 401 or 429 included (a browser
            // app read a refused key as a network error), and the status is never touched.
            if (cors != null) {
                config.routes.before(cors::apply);
            }
            config.routes.before(RestServer::requestId);
            // Javalin routes by X-HTTP-Method-Override (ctx.method() reads it first): a GET carrying DELETE deleted a
            // knowledge base past any proxy that lets a client only read, and was logged and counted as a GET.
            config.routes.before(ctx -> {
                if (ctx.header("X-HTTP-Method-Override") != null) {
                    throw new HttpResponseException(400, "X-HTTP-Method-Override is not supported: send the method "
                            + "itself");
                }
            });
            config.routes.before(ctx -> ctx.attribute(Http.MAX_REQUEST, maxRequestBytes));
            config.routes.before(ctx -> {
                Tracing.Request traced = polyrag.tracing().request(method(ctx), ctx::header);
                ctx.attribute(TRACE, traced);
                if (traced.traceId() != null) {
                    MDC.put("trace_id", traced.traceId());
                }
            });
            // A tenant's answer is never kept by a shared cache: a key sent as X-Api-Key is invisible to one, so
            // behind a caching proxy the next caller of the same URL got it. A route that may be kept says so itself.
            config.routes.before("/v1/*", ctx -> ctx.header("Cache-Control", "no-store"));
            config.routes.before(auth::authenticate);
            config.routes.before(RestServer::tenantInLogs);
            // Each handler runs with its request's span current, so the spans it causes are that request's.
            Api api = new Api(config.routes, h -> ProblemMapper.guarded(ctx -> {
                Tracing.Request traced = ctx.attribute(TRACE);
                if (traced == null) {
                    h.handle(ctx);
                    return;
                }
                try (var entered = traced.enter()) {
                    h.handle(ctx);
                }
            }));
            new HealthRoutes(polyrag, auth).register(api);
            new KeyRoutes(polyrag, auth).register(api);
            new KnowledgeBaseRoutes(polyrag).register(api);
            new JobRoutes(polyrag, auth, stopping::get).register(api);
            new SearchRoutes(polyrag).register(api);
            new IngestRoutes(polyrag).register(api);
            new DocumentRoutes(polyrag).register(api);
            new SourceRoutes(polyrag).register(api);
            new GraphRoutes(polyrag).register(api);
            new ChatRoutes(polyrag).register(api);
            new ConversationRoutes(polyrag).register(api);
            new UsageRoutes(polyrag).register(api);
            api.get("/v1/openapi.json", ctx -> ctx.json(openApi[0])).summary("admin",
                    "This document: the API in OpenAPI 3.1").noAuth().response(200, "the document", Object.class);
            openApi[0] = api.document(VERSION);
            operations.addAll(api.operations());
            ProblemMapper.register(config.routes, ProblemMapper.tooLarge(maxRequestBytes));
        });
        app.start();
    }

    /** The OpenAPI document this server serves at {@code /v1/openapi.json}. */
    ObjectNode openApi() {
        return openApi[0];
    }

    /** Every operation it answers, as {@code METHOD path}. */
    List<String> operations() {
        return List.copyOf(operations);
    }

    @Override
    public int port() {
        return app.port();
    }

    /**
     * Gives every request an id: the client's {@code X-Request-Id} when it is a sane token (letters, digits, {@code
     * -_.:}, at most 64), else a new UUID; echoed in the response and the access log.
     */
    private static void requestId(Context ctx) {
        String given = ctx.header(REQUEST_ID_HEADER);
        String id = given != null && given.matches("[A-Za-z0-9._:-]{1,64}") ? given : UUID.randomUUID().toString();
        ctx.attribute(REQUEST_ID, id);
        ctx.header(REQUEST_ID_HEADER, id);
        MDC.clear();
        MDC.put("request_id", id);
    }

    /** Puts the authenticated tenant beside the request id, for every log line the request causes. */
    private static void tenantInLogs(Context ctx) {
        MDC.put("tenant", tenantOf(ctx));
    }

    /** The tenant a request acted for, for the access log: its name, {@code -} in local mode or before auth. */
    private static String tenantOf(Context ctx) {
        Tenant t = ctx.attribute(Auth.TENANT);
        return t == null || t.name().isEmpty() ? "-" : t.name();
    }

    /**
     * The request's method as sent on the wire, one of HTTP's own or "other": never the X-HTTP-Method-Override header
     * Javalin's {@code ctx.method()} reads, whose every value (sent without a key) was a metric series of its own.
     */
    static String method(Context ctx) {
        String m = ctx.req().getMethod();
        return switch (m) {
            case "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS" -> m;
            default -> "other";
        };
    }

    private static boolean matched(Context ctx) {
        try {
            return ctx.endpoints().lastHttpEndpoint() != null;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** The route pattern that answered ({@code /v1/jobs/{id}}), or the path when none did (a 404). */
    private static String route(Context ctx) {
        try {
            Endpoint e = ctx.endpoints().lastHttpEndpoint();
            return e == null ? ctx.path() : e.path;
        } catch (RuntimeException e) {
            return ctx.path();
        }
    }
































    @Override
    public void close() {
        // Event streams never end by themselves: they end first (within a second), or the drain would wait them out.
        // The Polyrag is not stopped here: it may serve on through another front door (a launcher that is stopping
        // the process calls Polyrag.beginStop first, so the jobs' wind-down overlaps the drain).
        stopping.set(true);
        app.stop();
    }

    /** How a launcher starts this front door (registered for {@link java.util.ServiceLoader}). */
    public static final class Factory implements HttpFrontDoor.Factory {
        @Override
        public HttpFrontDoor start(Polyrag polyrag, String host, int port, long maxRequestBytes) {
            return new RestServer(polyrag, host, port, maxRequestBytes);
        }
    }
}
