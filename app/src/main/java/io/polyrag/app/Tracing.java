package io.polyrag.app;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import io.polyrag.app.api.Version;
import io.polyrag.core.ConfigException;
import io.polyrag.core.config.Config;
import io.polyrag.core.http.Outbound;
import io.polyrag.core.model.Modality;
import io.polyrag.core.model.SearchRequest;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.StoreHit;
import io.polyrag.core.port.Embedder;
import io.polyrag.core.port.ForwardingEmbedder;
import io.polyrag.core.port.ForwardingLlmClient;
import io.polyrag.core.port.LlmClient;
import io.polyrag.ingest.IngestSpans;
import io.polyrag.retrieval.HybridSearcher;
import io.polyrag.retrieval.Retriever;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Traces in OpenTelemetry's model, exported as OTLP by the official SDK; off unless the standard variables ask for
 * them: {@code OTEL_EXPORTER_OTLP_ENDPOINT} (or {@code OTEL_EXPORTER_OTLP_TRACES_ENDPOINT}, or {@code
 * OTEL_TRACES_EXPORTER} other than {@code none}), and not {@code OTEL_SDK_DISABLED=true}. Every other {@code OTEL_*}
 * variable (service name, sampler, headers, protocol) means what the SDK documents; the defaults here are the
 * service name {@code polyrag}, and no metrics or logs through OTLP (metrics are Prometheus's, at {@code /metrics}).
 *
 * <p>A request is one trace: the front door's server span (continuing the caller's W3C {@code traceparent}), the
 * search under it, each retriever leg with its store and outcome, the query's embedding, the language model's call
 * with its tokens; a job's run is a trace of its own with a span per stage. Spans below the front door are only made
 * inside a trace, so work nobody asked to trace (an ingest's embeddings) makes none.
 */
public final class Tracing implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(Tracing.class.getName());
    private static final AttributeKey<String> MODALITY = AttributeKey.stringKey("polyrag.modality");
    private static final AttributeKey<String> BACKEND = AttributeKey.stringKey("polyrag.backend");
    private static final AttributeKey<Long> HITS = AttributeKey.longKey("polyrag.hits");
    private static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("polyrag.outcome");
    private static final TextMapGetter<Function<String, String>> HEADERS = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Function<String, String> carrier) {
            return List.of("traceparent", "tracestate");
        }

        @Override
        public String get(Function<String, String> carrier, String key) {
            return carrier == null ? null : carrier.apply(key);
        }
    };

    private static final Tracing OFF = new Tracing(null);

    private final OpenTelemetrySdk sdk;
    private final OpenTelemetry otel;
    private final Tracer tracer;
    private final Outbound.Observer outbound;

    private Tracing(OpenTelemetrySdk sdk) {
        this.sdk = sdk;
        this.otel = sdk == null ? OpenTelemetry.noop() : sdk;
        this.tracer = otel.getTracer("io.polyrag", Version.VERSION);
        this.outbound = sdk == null ? null : outbound();
    }

    /** Traces the process's outbound calls from now on (until {@link #close}), when tracing is on. */
    void watchOutbound() {
        if (outbound != null) {
            Outbound.observe(outbound);
        }
    }

    /**
     * Tracing as the configuration's environment ({@link io.polyrag.core.config.Config#otel()}) and the system
     * properties ask: off unless they name an exporter.
     */
    public static Tracing of(Config config) {
        return of(config.otel(), System.getProperties());
    }

    static Tracing of(Map<String, String> env, Properties properties) {
        Function<String, String> get = name -> {
            String p = properties.getProperty(name.toLowerCase(Locale.ROOT).replace('_', '.'));
            return p != null ? p : env.get(name);
        };
        if ("true".equalsIgnoreCase(get.apply("OTEL_SDK_DISABLED"))) {
            return OFF;
        }
        String exporter = get.apply("OTEL_TRACES_EXPORTER");
        boolean asked = get.apply("OTEL_EXPORTER_OTLP_ENDPOINT") != null
                || get.apply("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != null
                || exporter != null && !exporter.isBlank() && !"none".equalsIgnoreCase(exporter.strip());
        if (!asked || "none".equalsIgnoreCase(exporter == null ? "" : exporter.strip())) {
            return OFF;
        }
        OtelProblems.requireHttp(get);
        try {
            OpenTelemetrySdk sdk = AutoConfiguredOpenTelemetrySdk.builder()
                    // Defaults the environment and system properties override.
                    .addPropertiesSupplier(() -> Map.of("otel.service.name", "polyrag", "otel.metrics.exporter",
                            "none", "otel.logs.exporter", "none", "otel.exporter.otlp.protocol", "http/protobuf"))
                    .disableShutdownHook().build().getOpenTelemetrySdk();
            LOG.log(System.Logger.Level.INFO, "tracing on: spans go to " + firstNonNull(
                    get.apply("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"), get.apply("OTEL_EXPORTER_OTLP_ENDPOINT"),
                    "the " + exporter + " exporter"));
            return new Tracing(sdk);
        } catch (RuntimeException e) {
            throw new ConfigException("the OTEL_* variables do not configure a tracer: "
                    + OtelProblems.shown(e) + "; fix them, or unset OTEL_EXPORTER_OTLP_ENDPOINT and "
                    + "OTEL_TRACES_EXPORTER to trace nothing");
        }
    }

    private static String firstNonNull(String... values) {
        for (String v : values) {
            if (v != null) {
                return v;
            }
        }
        return null;
    }

    /** No traces (tests, tools). */
    public static Tracing off() {
        return OFF;
    }

    /** Whether spans are exported. */
    public boolean on() {
        return sdk != null;
    }

    /**
     * A front door's request: a server span named {@code name}, child of the caller's {@code traceparent} (read
     * through {@code header}) when it sends one.
     */
    public Request request(String name, Function<String, String> header) {
        if (sdk == null) {
            return Request.NONE;
        }
        Context parent = otel.getPropagators().getTextMapPropagator().extract(Context.root(), header, HEADERS);
        Span span = tracer.spanBuilder(name).setSpanKind(SpanKind.SERVER).setParent(parent).startSpan();
        return new Request(span, name);
    }

    /**
     * An MCP tool call as the adapter receives it: a server span {@code tools/call <tool>} in the OpenTelemetry
     * conventions for MCP, child of the caller's context when the request's {@code _meta} carries a W3C {@code
     * traceparent} (and {@code tracestate}), as those conventions propagate it. End it with {@link Request#end(boolean)}.
     */
    public Request tool(String tool, Map<String, Object> meta) {
        if (sdk == null) {
            return Request.NONE;
        }
        Function<String, String> carrier = key -> meta != null && meta.get(key) instanceof String v ? v : null;
        Context parent = otel.getPropagators().getTextMapPropagator().extract(Context.root(), carrier, HEADERS);
        Span span = tracer.spanBuilder("tools/call " + tool).setSpanKind(SpanKind.SERVER).setParent(parent)
                .setAttribute("mcp.method.name", "tools/call").setAttribute("gen_ai.tool.name", tool)
                .setAttribute("gen_ai.operation.name", "execute_tool").startSpan();
        return new Request(span, "tools/call");
    }

    /**
     * An outbound HTTP request made on this thread: a client span under the current one (none outside a trace), whose
     * context {@link Call#headers} writes into the request as {@code traceparent}, so the server it reaches continues
     * the same trace.
     */
    public Call call(String method, URI uri) {
        if (sdk == null || !Span.current().getSpanContext().isValid()) {
            return Call.NONE;
        }
        Span span = tracer.spanBuilder(method).setSpanKind(SpanKind.CLIENT).setAttribute("http.request.method", method)
                .setAttribute("url.full", withoutQuery(uri).toString()).startSpan();
        return new Call(this, span);
    }

    /**
     * What watches the process's outbound calls ({@link io.polyrag.core.http.Outbound}: language models, rerankers,
     * web sources): each attempt a client span, when inside a trace, named by its method, with the target
     * ({@code openai-compatible}, {@code web}) and the URL without its query (which may hold a key).
     */
    private Outbound.Observer outbound() {
        return (method, uri, target) -> {
            Call call = call(method, uri);
            if (call != Call.NONE) {
                call.span.setAttribute("polyrag.target", target);
            }
            return call == Call.NONE ? Outbound.Observer.Call.NONE : call;
        };
    }

    private static URI withoutQuery(URI uri) {
        try {
            return new URI(uri.getScheme(), null, uri.getHost(), uri.getPort(), uri.getPath(), null, null);
        } catch (URISyntaxException e) {
            return uri;
        }
    }

    /** One outbound request's client span. */
    public static final class Call implements Outbound.Observer.Call {
        static final Call NONE = new Call(null, Span.getInvalid());
        private final Tracing tracing;
        private final Span span;

        private Call(Tracing tracing, Span span) {
            this.tracing = tracing;
            this.span = span;
        }

        /** Writes the span's context into the request's headers ({@code traceparent}, {@code tracestate}). */
        @Override
        public void headers(BiConsumer<String, String> header) {
            if (tracing != null) {
                tracing.otel.getPropagators().getTextMapPropagator().inject(Context.current().with(span), header,
                        (h, k, v) -> h.accept(k, v));
            }
        }

        /** The response came: its status (5xx is an error). */
        @Override
        public void end(int status) {
            if (tracing != null) {
                span.setAttribute("http.response.status_code", status);
                if (status >= 500) {
                    span.setStatus(StatusCode.ERROR);
                }
                span.end();
            }
        }

        /** No response: the request failed with {@code e}. */
        @Override
        public void fail(Throwable e) {
            if (tracing != null) {
                span.recordException(e);
                span.setStatus(StatusCode.ERROR, String.valueOf(e.getMessage()));
                span.end();
            }
        }
    }

    /** A span made current on a thread, until closed. */
    public interface Entered extends AutoCloseable {
        @Override
        void close();
    }

    /** One request's span: made current around its handler, ended with its status. */
    public static final class Request {
        static final Request NONE = new Request(Span.getInvalid(), "");
        private final Span span;
        private final String method;

        private Request(Span span, String method) {
            this.span = span;
            this.method = method;
        }

        /** Makes the span current on this thread until the returned scope closes. */
        public Entered enter() {
            return span == Span.getInvalid() ? () -> { } : span.makeCurrent()::close;
        }

        /** The trace's id (32 hex digits), or null when not traced. */
        public String traceId() {
            return span.getSpanContext().isValid() ? span.getSpanContext().getTraceId() : null;
        }

        /** Names the span by its route and records the attributes a server span carries. */
        public void attributes(String route, String tenant) {
            if (span != Span.getInvalid()) {
                span.updateName(method + " " + route);
                span.setAttribute("http.route", route);
                span.setAttribute("polyrag.tenant", tenant);
            }
        }

        /** Ends the span, an error when {@code failed} (a tool call answered with an error). */
        public void end(boolean failed) {
            if (span != Span.getInvalid()) {
                if (failed) {
                    span.setStatus(StatusCode.ERROR);
                }
                span.end();
            }
        }

        /** Ends the span with the response's status (5xx is an error, as the HTTP conventions say). */
        public void end(String method, int status) {
            if (span != Span.getInvalid()) {
                span.setAttribute("http.request.method", method);
                span.setAttribute("http.response.status_code", status);
                if (status >= 500) {
                    span.setStatus(StatusCode.ERROR);
                }
                span.end();
            }
        }
    }

    /** Runs {@code body} in a child span of the current one, when there is one; else just runs it. */
    <T> T span(String name, Consumer<Span> before, Function<T, Consumer<Span>> after, Supplier<T> body) {
        if (sdk == null || !Span.current().getSpanContext().isValid()) {
            return body.get();
        }
        Span span = tracer.spanBuilder(name).startSpan();
        before.accept(span);
        try (Scope ignored = span.makeCurrent()) {
            T result = body.get();
            after.apply(result).accept(span);
            return result;
        } catch (RuntimeException | Error e) {
            span.recordException(e);
            span.setStatus(StatusCode.ERROR, String.valueOf(e.getMessage()));
            throw e;
        } finally {
            span.end();
        }
    }

    /** A span for the work of {@code body}, named {@code name}, with no attributes of its own. */
    <T> T span(String name, Supplier<T> body) {
        return span(name, s -> { }, r -> s -> { }, body);
    }

    /**
     * A search's phases after its legs (fusion, the catalog join and dedup, reranking), as spans under the current
     * one with the times they really took: they are timed by the searcher, not wrapped, so nothing runs in between.
     */
    void phases(Instant startedAt, List<HybridSearcher.Phase> phases) {
        if (sdk == null || !Span.current().getSpanContext().isValid()) {
            return;
        }
        long base = startedAt.getEpochSecond() * 1_000_000_000L + startedAt.getNano();
        for (var p : phases) {
            tracer.spanBuilder(p.name()).setStartTimestamp(base + p.startNanos(), TimeUnit.NANOSECONDS).startSpan()
                    .end(base + p.endNanos(), TimeUnit.NANOSECONDS);
        }
    }

    /** The legs' executor, carrying the searching thread's trace into each leg. */
    ExecutorService carrying(ExecutorService legs) {
        return sdk == null ? legs : Context.taskWrapping(legs);
    }

    /** A retriever whose every search is a span: its modality, its store, how many hits, and its outcome. */
    Retriever traced(Retriever r, String backend) {
        if (sdk == null) {
            return r;
        }
        Modality modality = r.modality();
        return new Retriever() {
            @Override
            public Modality modality() {
                return modality;
            }

            @Override
            public boolean calibrated() {
                return r.calibrated();
            }

            @Override
            public boolean patient() {
                return r.patient();
            }

            @Override
            public List<StoreHit> retrieve(String query, SearchScope scope, int limit) {
                return run(query, scope, limit).hits();
            }

            @Override
            public Leg run(String query, SearchScope scope, int limit) {
                return run(query, scope, limit, SearchRequest.Tuning.CONFIGURED);
            }

            @Override
            public Leg run(String query, SearchScope scope, int limit, SearchRequest.Tuning tuning) {
                return span("retrieve " + modality.wireName(), s -> {
                    s.setAttribute(MODALITY, modality.wireName());
                    s.setAttribute(BACKEND, backend);
                    s.setAttribute("polyrag.limit", limit);
                }, leg -> s -> {
                    s.setAttribute(HITS, (long) leg.hits().size());
                    s.setAttribute(OUTCOME, leg.note() == null || leg.note().isEmpty() ? "ok" : leg.note());
                }, () -> r.run(query, scope, limit, tuning));
            }
        };
    }

    /** An embedder whose query embeddings are spans ({@code embed query}); its batches are left alone. */
    Embedder traced(Embedder e) {
        if (sdk == null) {
            return e;
        }
        return new ForwardingEmbedder(e) {
            @Override
            public float[] embedQuery(String query) {
                return span("embed query", () -> e.embedQuery(query));
            }
        };
    }

    /** A language model whose every call is a span with the model and the tokens it took and gave. */
    LlmClient traced(LlmClient llm) {
        if (sdk == null || llm == null) {
            return llm;
        }
        return new ForwardingLlmClient(llm) {
            @Override
            protected Response call(String how, Supplier<Response> body) {
                return span("llm " + how, s -> s.setAttribute("gen_ai.system", llm.id()), r -> s -> {
                    if (r != null) {
                        s.setAttribute("gen_ai.response.model", String.valueOf(r.model()));
                        s.setAttribute("gen_ai.usage.input_tokens", (long) r.inputTokens());
                        s.setAttribute("gen_ai.usage.output_tokens", (long) r.outputTokens());
                    }
                }, body);
            }
        };
    }

    /**
     * The ingest pipeline's steps as spans of the trace current on the ingesting thread (a job's), each store's
     * write with its backend ({@code backends}: modality → backend name).
     */
    IngestSpans ingest(Map<String, String> backends) {
        if (sdk == null) {
            return IngestSpans.NONE;
        }
        return new IngestSpans() {
            @Override
            public <T> T span(String name, Map<String, Object> attributes, Supplier<T> body) {
                return Tracing.this.span(name, s -> {
                    attributes.forEach((k, v) -> {
                        if (v instanceof Number n) {
                            s.setAttribute(k, n.longValue());
                        } else {
                            s.setAttribute(k, String.valueOf(v));
                        }
                    });
                    if (attributes.get("polyrag.modality") instanceof String m && backends.containsKey(m)) {
                        s.setAttribute(BACKEND, backends.get(m));
                    }
                }, r -> s -> { }, body);
            }

            @Override
            public ExecutorService carrying(ExecutorService stage) {
                return Context.taskWrapping(stage);
            }
        };
    }

    /** A job's run: a trace of its own, ended by {@link Job#end}. */
    Job job(String id, String kind, String tenant) {
        if (sdk == null) {
            return Job.NONE;
        }
        Span span = tracer.spanBuilder("job " + kind).setNoParent().setAttribute("polyrag.job", id)
                .setAttribute("polyrag.tenant", tenant).startSpan();
        return new Job(this, span);
    }

    /** A running job's span and the span of the stage it is in. */
    static final class Job {
        static final Job NONE = new Job(null, Span.getInvalid());
        private final Tracing tracing;
        private final Span span;
        private Span stage;

        private Job(Tracing tracing, Span span) {
            this.tracing = tracing;
            this.span = span;
        }

        /** The job entered {@code name}: the last stage's span ends, this one's starts. */
        synchronized void stage(String name) {
            if (tracing == null) {
                return;
            }
            if (stage != null) {
                stage.end();
            }
            stage = tracing.tracer.spanBuilder(name).setParent(Context.root().with(span)).startSpan();
        }

        /** Makes the job's span current on this thread (the work the handler does on it is the job's). */
        Entered enter() {
            return tracing == null ? () -> { } : span.makeCurrent()::close;
        }

        /** The trace's id, or null when not traced. */
        String traceId() {
            return span.getSpanContext().isValid() ? span.getSpanContext().getTraceId() : null;
        }

        synchronized void end(String outcome) {
            if (tracing == null) {
                return;
            }
            if (stage != null) {
                stage.end();
                stage = null;
            }
            span.setAttribute(OUTCOME, outcome);
            if ("failed".equals(outcome)) {
                span.setStatus(StatusCode.ERROR);
            }
            span.end();
        }
    }

    @Override
    public void close() {
        Outbound.unobserve(outbound);
        if (sdk != null) {
            sdk.close();
        }
    }
}
