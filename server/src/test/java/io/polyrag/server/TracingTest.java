package io.polyrag.server;

import static org.assertj.core.api.Assertions.assertThat;
import static io.polyrag.testing.OtlpCollector.attribute;
import static io.polyrag.testing.OtlpCollector.hex;
import static io.polyrag.testing.OtlpCollector.only;
import static org.awaitility.Awaitility.await;

import io.opentelemetry.proto.trace.v1.Span;
import io.polyrag.app.Polyrag;
import io.polyrag.core.config.Config;
import io.polyrag.testing.OtlpCollector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Traces as an operator's collector receives them: the SDK exports OTLP over HTTP to a receiver on 127.0.0.1 that
 * decodes each request with the protocol's own message classes. Configured by the standard variables (here their
 * system-property form, which the SDK reads the same way).
 */
class TracingTest {
    @TempDir
    Path tmp;

    private final HttpClient http = HttpClient.newHttpClient();
    private OtlpCollector collector;
    private List<Span> received;

    @BeforeEach
    void collector() throws Exception {
        collector = new OtlpCollector().configure("polyrag-test");
        received = collector.spans();
    }

    @AfterEach
    void stop() {
        collector.close();
    }

    @Test
    void a_search_is_one_trace_from_the_callers_traceparent_through_every_leg_and_a_job_has_a_span_per_stage()
            throws Exception {
        String traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
        String callerSpan = "00f067aa0ba902b7";
        try (Polyrag polyrag = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("data")
                .toString())))) {
            assertThat(polyrag.tracing().on()).isTrue();
            RestServer server = new RestServer(polyrag, "127.0.0.1", 0, 1024 * 1024);
            try {
                String base = "http://127.0.0.1:" + server.port();
                String boundary = "----t" + System.nanoTime();
                String body = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"files\"; filename=\"a.md\""
                        + "\r\nContent-Type: text/markdown\r\n\r\n# Owls\n\nOwls hunt at night.\r\n--" + boundary
                        + "--\r\n";
                HttpResponse<String> job = send(HttpRequest.newBuilder(URI.create(base + "/v1/ingest/files"))
                        .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                        .POST(HttpRequest.BodyPublishers.ofString(body)));
                assertThat(job.statusCode()).isEqualTo(202);
                await().atMost(Duration.ofSeconds(60)).until(() -> received.stream()
                        .anyMatch(s -> s.getName().equals("job ingest-upload")));

                HttpResponse<String> search = send(HttpRequest.newBuilder(URI.create(base + "/v1/search?q=owls"))
                        .header("traceparent", "00-" + traceId + "-" + callerSpan + "-01"));
                assertThat(search.statusCode()).isEqualTo(200);
                HttpResponse<String> bad = send(HttpRequest.newBuilder(URI.create(base + "/v1/search?q=owls&top_k=-3"))
                        .header("traceparent", "00-" + traceId + "-" + callerSpan + "-01"));
                assertThat(bad.statusCode()).isEqualTo(400);
                assertThat(bad.body()).as("the error names its trace").contains("\"trace_id\":\"" + traceId + "\"");

                // No route answered (a 404): the span is named by its method alone, never by the raw path.
                String lostTrace = "5bf92f3577b34da6a3ce929d0e0e4736";
                assertThat(send(HttpRequest.newBuilder(URI.create(base + "/v1/documents/abc123/nowhere"))
                        .header("traceparent", "00-" + lostTrace + "-" + callerSpan + "-01")).statusCode())
                        .isEqualTo(404);
                await().atMost(Duration.ofSeconds(20)).until(() -> !inTrace(lostTrace).isEmpty());
                Span lost = inTrace(lostTrace).getFirst();
                assertThat(lost.getName()).isEqualTo("GET");
                assertThat(attribute(lost, "http.route")).isEmpty();
                await().atMost(Duration.ofSeconds(20)).until(() -> inTrace(traceId).stream()
                        .anyMatch(s -> s.getName().equals("retrieve fulltext")) && inTrace(traceId).stream()
                        .filter(s -> s.getKind() == Span.SpanKind.SPAN_KIND_SERVER).count() == 2);
            } finally {
                server.close();
            }
        }
        assertThat(collector.requests()).allMatch(p -> p.equals("/v1/traces application/x-protobuf"));
        List<Span> trace = inTrace(traceId);
        Span request = trace.stream().filter(s -> s.getKind() == Span.SpanKind.SPAN_KIND_SERVER
                && attribute(s, "http.response.status_code").equals("200")).findFirst().orElseThrow();
        assertThat(request.getName()).isEqualTo("GET /v1/search");
        assertThat(hex(request.getParentSpanId())).as("the caller's span is the parent").isEqualTo(callerSpan);
        assertThat(attribute(request, "http.route")).isEqualTo("/v1/search");
        Span searchSpan = only(trace, "search", request);
        assertThat(attribute(searchSpan, "polyrag.hits")).isEqualTo("1");
        Span vector = only(trace, "retrieve vector", searchSpan);
        Span fullText = only(trace, "retrieve fulltext", searchSpan);
        assertThat(attribute(vector, "polyrag.backend")).isEqualTo("lucene");
        assertThat(attribute(fullText, "polyrag.hits")).isEqualTo("1");
        assertThat(attribute(vector, "polyrag.outcome")).isEqualTo("ok");
        assertThat(attribute(fullText, "polyrag.outcome")).as("the leg's note, as explain has it")
                .startsWith("each passage's BM25 blended with its document's");
        only(trace, "embed query", vector);
        // The phases after the legs, as the searcher timed them: inside the search's span, after the legs began.
        Span fuse = only(trace, "fuse", searchSpan);
        Span join = only(trace, "join and dedup", searchSpan);
        assertThat(fuse.getStartTimeUnixNano()).isGreaterThanOrEqualTo(vector.getStartTimeUnixNano());
        assertThat(join.getStartTimeUnixNano()).isGreaterThanOrEqualTo(fuse.getEndTimeUnixNano());
        assertThat(join.getEndTimeUnixNano()).isLessThanOrEqualTo(searchSpan.getEndTimeUnixNano());
        Span failed = trace.stream().filter(s -> s.getKind() == Span.SpanKind.SPAN_KIND_SERVER && s != request)
                .findFirst().orElseThrow();
        assertThat(attribute(failed, "http.response.status_code")).isEqualTo("400");

        // The upload's job: a trace of its own (it runs after its request answered), one span per stage.
        Span jobSpan = received.stream().filter(s -> s.getName().equals("job ingest-upload")).findFirst()
                .orElseThrow();
        assertThat(attribute(jobSpan, "polyrag.outcome")).isEqualTo("succeeded");
        List<String> stages = received.stream().filter(s -> s.getParentSpanId().equals(jobSpan.getSpanId()))
                .map(Span::getName).toList();
        assertThat(stages).contains("parsing", "embedding");
        // Each step of the batch, in the job's trace (the embedding and writing threads carry it), each store's write
        // naming its backend.
        List<Span> job = received.stream().filter(s -> s.getTraceId().equals(jobSpan.getTraceId())).toList();
        Span parse = only(job, "parse", jobSpan);
        assertThat(attribute(parse, "polyrag.file")).isEqualTo("a.md");
        only(job, "chunk", jobSpan);
        assertThat(attribute(only(job, "embed", jobSpan), "polyrag.chunks")).isEqualTo("1");
        only(job, "stage", jobSpan);
        Span writeFullText = only(job, "write fulltext", jobSpan);
        assertThat(attribute(writeFullText, "polyrag.backend")).isEqualTo("lucene");
        assertThat(attribute(writeFullText, "polyrag.records")).isEqualTo("1");
        only(job, "write vector", jobSpan);
        only(job, "publish", jobSpan);
        assertThat(received).as("the ingest's own embeddings make no spans outside a trace")
                .noneMatch(s -> s.getName().equals("embed query") && !hex(s.getTraceId()).equals(traceId));
    }

    @Test
    void a_call_to_the_language_model_is_a_client_span_whose_context_the_model_receives() throws Exception {
        String traceId = "5b8efff798038103d269b633813fc60c";
        List<String> sent = new java.util.concurrent.CopyOnWriteArrayList<>();
        com.sun.net.httpserver.HttpServer model = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        model.createContext("/v1/chat/completions", ex -> {
            sent.add(String.valueOf(ex.getRequestHeaders().getFirst("traceparent")));
            boolean stream = new String(ex.getRequestBody().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
                    .contains("\"stream\":true");
            String reply = stream ? "data: {\"model\":\"fake-1\",\"choices\":[{\"delta\":{\"content\":"
                    + "\"Owls hunt at night [1].\"}}]}\n\ndata: [DONE]\n\n"
                    : "{\"model\":\"fake-1\",\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":"
                    + "\"Owls hunt at night [1].\"}}],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":5}}";
            byte[] bytes = reply.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", stream ? "text/event-stream" : "application/json");
            ex.sendResponseHeaders(200, bytes.length);
            try (var out = ex.getResponseBody()) {
                out.write(bytes);
            }
        });
        model.start();
        try (Polyrag polyrag = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("llm").toString(),
                "llm.provider", "openai", "llm.base.url", "http://127.0.0.1:" + model.getAddress().getPort() + "/v1",
                "llm.model", "fake-1", "llm.max.retries", "0")))) {
            polyrag.ingest().text(new io.polyrag.app.api.TextIngest("Owls hunt at night.", "Owls", null, null, null));
            RestServer server = new RestServer(polyrag, "127.0.0.1", 0, 1024 * 1024);
            try {
                HttpResponse<String> answer = send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                        + server.port() + "/v1/query")).header("Content-Type", "application/json")
                        .header("traceparent", "00-" + traceId + "-00f067aa0ba902b7-01")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"query\": \"When do owls hunt?\"}")));
                assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
            } finally {
                server.close();
            }
        } finally {
            model.stop(0);
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> inTrace(traceId).stream()
                .anyMatch(s -> s.getKind() == Span.SpanKind.SPAN_KIND_CLIENT));
        List<Span> trace = inTrace(traceId);
        Span llm = trace.stream().filter(s -> s.getName().startsWith("llm ")).findFirst().orElseThrow();
        Span call = only(trace, "POST", llm);
        assertThat(call.getKind()).isEqualTo(Span.SpanKind.SPAN_KIND_CLIENT);
        assertThat(attribute(call, "polyrag.target")).isEqualTo("openai-compatible");
        assertThat(attribute(call, "url.full")).endsWith("/v1/chat/completions");
        assertThat(attribute(call, "http.response.status_code")).isEqualTo("200");
        assertThat(sent).as("the model's server receives the client span's context")
                .contains("00-" + traceId + "-" + hex(call.getSpanId()) + "-01");
    }

    @Test
    void off_unless_the_variables_name_an_exporter() {
        assertThat(io.polyrag.app.Tracing.off().on()).isFalse();
        System.clearProperty("otel.exporter.otlp.endpoint");
        try (Polyrag polyrag = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("off")
                .toString())))) {
            assertThat(polyrag.tracing().on()).isFalse();
        }
    }

    private List<Span> inTrace(String traceId) {
        return collector.trace(traceId);
    }

    private HttpResponse<String> send(HttpRequest.Builder b) throws Exception {
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
