package io.polyrag.app;

import io.polyrag.app.api.TextIngest;
import io.polyrag.app.api.PathIngest;
import io.polyrag.app.api.ReceivedFile;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import io.polyrag.core.model.IngestEstimate;
import io.polyrag.core.model.IngestReport;
import io.polyrag.core.model.JobInfo;
import io.polyrag.core.model.JobStatus;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Extraction by a language model through the real OpenAI-compatible client, against a loopback server that answers
 * like one: the graph it returns, the response cache, the token budget and the job's estimate.
 */
class LlmGraphTest {
    @TempDir
    Path tmp;

    private HttpServer model;
    private final AtomicInteger calls = new AtomicInteger();

    @BeforeEach
    void start() throws IOException {
        model = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        model.createContext("/v1/chat/completions", ex -> {
            String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            calls.incrementAndGet();
            String content = body.contains("Hopper")
                    ? "{\\\"entities\\\": [{\\\"name\\\": \\\"Grace Hopper\\\", \\\"type\\\": \\\"Person\\\"}, "
                            + "{\\\"name\\\": \\\"Harvard University\\\", \\\"type\\\": \\\"Organization\\\"}], "
                            + "\\\"relations\\\": [{\\\"subject\\\": \\\"Grace Hopper\\\", \\\"predicate\\\": "
                            + "\\\"worked at\\\", \\\"object\\\": \\\"Harvard University\\\"}]}"
                    : "{\\\"entities\\\": [], \\\"relations\\\": []}";
            byte[] reply = ("{\"model\":\"fake-1\",\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\""
                    + content + "\"}}],\"usage\":{\"prompt_tokens\":40,\"completion_tokens\":20}}")
                    .getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(200, reply.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(reply);
            }
        });
        model.start();
    }

    @AfterEach
    void stop() {
        model.stop(0);
    }

    private Polyrag open(Map<String, String> more) {
        Map<String, String> m = new java.util.HashMap<>(Map.of("graph.enabled", "true", "rdf.enabled", "true",
                "llm.provider", "openai", "llm.base.url", "http://127.0.0.1:" + model.getAddress().getPort() + "/v1",
                "llm.model", "fake-1", "llm.max.retries", "0"));
        m.putAll(more);
        return Polyrag.open(PolyragTest.config(tmp.resolve("data"), m));
    }

    private static TextIngest text(String uri, String text) {
        return new TextIngest(text, uri, uri, null, null);
    }

    @Test
    void the_model_builds_the_graph_and_unchanged_text_costs_nothing_again() {
        // The same text under a second uri is indexed (not left out as a duplicate) to reach the response cache.
        try (Polyrag p = open(Map.of("ingest.duplicates", "allow"))) {
            IngestReport r = p.ingest().text(text("doc:a", "Grace Hopper worked at Harvard University."));
            assertThat(r.relations()).isEqualTo(1);
            assertThat(r.extractionTokens()).isEqualTo(60);
            assertThat(p.graph().find("hopper", 10)).singleElement()
                    .satisfies(h -> assertThat(h.entity().type()).isEqualTo("Person"));
            // The model's own predicate read in the graph's vocabulary, as the offline extractor writes it.
            assertThat(p.graph().neighbours("grace hopper", 10).neighbours()).singleElement()
                    .satisfies(n -> assertThat(n.predicate()).isEqualTo("works_at"));
            int before = calls.get();
            IngestReport again = p.ingest().text(text("doc:b", "Grace Hopper worked at Harvard University."));
            assertThat(again.relations()).isEqualTo(1);
            assertThat(again.extractionTokens()).isZero();
            assertThat(calls.get()).as("answered from the response cache").isEqualTo(before);
        }
    }

    @Test
    void a_token_budget_stops_extraction_cleanly_and_says_so() {
        try (Polyrag p = open(Map.of("graph.token.budget", "100"))) {
            IngestReport r = p.ingest().items(List.of(
                    new io.polyrag.core.model.SourceItem("doc:1", "one.txt", "Grace Hopper one.".getBytes(), null),
                    new io.polyrag.core.model.SourceItem("doc:2", "two.txt", "Grace Hopper two.".getBytes(), null),
                    new io.polyrag.core.model.SourceItem("doc:3", "three.txt", "Grace Hopper 3.".getBytes(), null)),
                    null, io.polyrag.core.port.ProgressListener.NONE);
            assertThat(r.added()).isEqualTo(3);
            assertThat(calls.get()).isEqualTo(2);
            assertThat(r.extractionTokens()).isEqualTo(120);
            assertThat(r.warnings()).singleElement().satisfies(w -> assertThat(w).contains("budget ran out"));
            // Ingested again, the document the budget stopped is not "unchanged": it is extracted now.
            int before = calls.get();
            IngestReport again = p.ingest().items(List.of(new io.polyrag.core.model.SourceItem("doc:3", "three.txt",
                    "Grace Hopper 3.".getBytes(), null)), null, io.polyrag.core.port.ProgressListener.NONE);
            assertThat(again.updated()).as(String.valueOf(again)).isEqualTo(1);
            assertThat(calls.get()).isEqualTo(before + 1);
            IngestReport done = p.ingest().items(List.of(new io.polyrag.core.model.SourceItem("doc:3", "three.txt",
                    "Grace Hopper 3.".getBytes(), null)), null, io.polyrag.core.port.ProgressListener.NONE);
            assertThat(done.unchanged()).as("extracted whole now: unchanged from then on").isEqualTo(1);
        }
    }

    @Test
    void a_tenant_whose_daily_extraction_allowance_is_spent_calls_the_model_no_more() {
        try (Polyrag p = open(Map.of())) {
            p.usage().setQuotas("", new io.polyrag.core.port.UsageStore.Quotas(null, null, 50L, null));
            IngestReport first = p.ingest().text(text("doc:a", "Grace Hopper worked at Harvard University."));
            assertThat(first.extractionTokens()).isEqualTo(60);
            int before = calls.get();
            IngestReport later = p.ingest().text(text("doc:b", "Grace Hopper taught at Vassar College."));
            assertThat(later.added()).isEqualTo(1);
            assertThat(calls.get()).as("the allowance is spent: no call at all").isEqualTo(before);
            assertThat(later.extractionTokens()).isZero();
        }
    }

    @Test
    void an_estimate_calls_no_model_and_a_job_records_it(@TempDir Path files) throws IOException {
        Files.writeString(files.resolve("a.md"), "# A\n\nGrace Hopper worked at Harvard University.");
        Files.writeString(files.resolve("b.md"), "# B\n\nAda Lovelace wrote notes.");
        try (Polyrag p = open(Map.of())) {
            IngestEstimate e = p.ingest().estimate(new PathIngest(List.of(files), null, List.of(), List.of()));
            assertThat(e.documents()).isEqualTo(2);
            assertThat(e.extractionCalls()).isEqualTo(2);
            assertThat(e.extractionInputTokens()).isPositive();
            assertThat(e.extractor()).startsWith("llm:dynamic:openai-compatible:fake-1");
            assertThat(calls.get()).isZero();

            Path staging = p.uploads().newStagingDir();
            Files.copy(files.resolve("a.md"), staging.resolve("0"));
            String id = p.uploads().submit(null, staging, List.of(new ReceivedFile("a.md", staging.resolve("0"))), false);
            JobInfo done = await().atMost(Duration.ofSeconds(60)).until(() -> p.jobs().get(id),
                    j -> j.status() == JobStatus.SUCCEEDED || j.status() == JobStatus.FAILED);
            assertThat(done.status()).isEqualTo(JobStatus.SUCCEEDED);
            assertThat(done.progress().estimatedCalls()).isEqualTo(1);
            assertThat(done.progress().estimatedTokens()).isPositive();
            assertThat(done.progress().relations()).isEqualTo(1);
            assertThat(done.progress().extractionTokens()).isEqualTo(60);
        }
    }
}
