package io.polyrag.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.polyrag.app.api.TextIngest;
import io.polyrag.core.model.IngestReport;
import io.polyrag.core.model.JobInfo;
import io.polyrag.core.model.JobStatus;
import io.polyrag.core.model.Modality;
import io.polyrag.core.model.SearchHit;
import io.polyrag.core.model.SearchRequest;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Contextual retrieval through the real OpenAI-compatible client against a loopback server that answers like one:
 * each chunk is indexed with the context the model wrote (found by words only the context has), never shown; a
 * failing model or a spent budget leaves chunks without one and says so; a reindex back-fills chunks ingested before
 * it was on, and the second store's reindex takes the contexts from the cache.
 */
class ContextualRetrievalTest {
    private static final String CONTEXT = "From the Borealis Instruments field manual, on servicing the Kestrel-9 "
            + "seismometer.";

    @TempDir
    Path tmp;

    private HttpServer model;
    private final AtomicInteger calls = new AtomicInteger();
    private final AtomicInteger status = new AtomicInteger(200);
    private final java.util.concurrent.atomic.AtomicReference<String> reply = new java.util.concurrent.atomic
            .AtomicReference<>(CONTEXT);
    private final AtomicInteger delayMs = new AtomicInteger();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger mostInFlight = new AtomicInteger();

    @BeforeEach
    void start() throws IOException {
        model = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        model.createContext("/v1/chat/completions", ex -> {
            String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            if (body.contains("situate a chunk")) {
                calls.incrementAndGet();
                mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                try {
                    Thread.sleep(delayMs.get());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    inFlight.decrementAndGet();
                }
            }
            byte[] bytes = (status.get() != 200 ? "{\"error\": {\"message\": \"model overloaded\"}}"
                    : "{\"model\":\"fake-1\",\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\""
                            + reply.get() + "\"}}],\"usage\":{\"prompt_tokens\":300,\"completion_tokens\":20}}")
                    .getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(status.get(), bytes.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(bytes);
            } catch (IOException e) {
                // The client gave up waiting (the timeout case).
            }
        });
        model.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        model.start();
    }

    @AfterEach
    void stop() {
        model.stop(0);
    }

    private Polyrag open(Map<String, String> more) {
        Map<String, String> m = new java.util.HashMap<>(Map.of("llm.provider", "openai", "llm.base.url",
                "http://127.0.0.1:" + model.getAddress().getPort() + "/v1", "llm.model", "fake-1",
                "llm.max.retries", "0", "contextual.enabled", "true"));
        m.putAll(more);
        return Polyrag.open(PolyragTest.config(tmp.resolve("data"), m));
    }

    private static IngestReport ingest(Polyrag p, String text, String title) {
        return p.ingest().text(new TextIngest(text, title, "doc:" + title.replace(' ', '-') + ".txt", null, null));
    }

    private static List<SearchHit> fullText(Polyrag p, String q) {
        return p.search().run(new SearchRequest(q, 5, List.of(), Set.of(Modality.FULLTEXT), null)).hits();
    }

    @Test
    void a_chunk_is_found_by_its_context_which_no_citation_shows() {
        try (Polyrag p = open(Map.of())) {
            IngestReport first = ingest(p, "Unscrew the base plate and replace the damping fluid every two years.",
                    "Maintenance");
            assertThat(calls).hasValue(1);
            assertThat(first.contextTokens()).isEqualTo(320);
            List<SearchHit> hits = fullText(p, "Kestrel seismometer");
            assertThat(hits).as("found by words only its context has").hasSize(1);
            assertThat(hits.getFirst().text()).isEqualTo("Unscrew the base plate and replace the damping fluid every "
                    + "two years.").doesNotContain("Kestrel");
            assertThat(p.search().run(SearchRequest.of("Kestrel-9 seismometer servicing", 5)).hits()).isNotEmpty();

            // The same chunk in a document indexed again (its title changed): the context comes from the cache.
            ingest(p, "Unscrew the base plate and replace the damping fluid every two years.", "Maintenance");
            assertThat(calls).as("nothing changed: not indexed again").hasValue(1);
            p.close(); // the usage counts reach the catalog at close at the latest
        }
        try (Polyrag p = open(Map.of())) {
            java.time.LocalDate today = java.time.LocalDate.now(java.time.ZoneOffset.UTC);
            assertThat(p.usage().report(io.polyrag.core.model.Tenant.LOCAL, today, today).counts())
                    .as("the tenant's usage counts the context tokens by model")
                    .anySatisfy(c -> {
                        assertThat(c.metric()).isEqualTo("context_tokens");
                        assertThat(c.amount()).isEqualTo(320);
                    });
        }
    }

    @Test
    void a_documents_chunks_are_situated_a_few_calls_at_a_time() {
        try (Polyrag p = open(Map.of("contextual.concurrency", "3", "chunk.max.tokens", "40", "chunk.overlap.tokens",
                "0"))) {
            delayMs.set(300);
            StringBuilder text = new StringBuilder();
            for (int i = 1; i <= 8; i++) {
                text.append("Step ").append(i).append(": turn the dial ").append(i).append(" notches clockwise, ")
                        .append("wait for the green lamp to light, note the reading on the gauge in the logbook, and ")
                        .append("check that the needle settles within the marked band before going on.\n\n");
            }
            IngestReport r = ingest(p, text.toString(), "Calibration steps");
            assertThat(r.added()).isEqualTo(1);
            assertThat(r.warnings()).isEmpty();
            assertThat(calls.get()).as("one call per chunk").isGreaterThan(3);
            assertThat(mostInFlight.get()).as("several at once, never more than configured").isBetween(2, 3);
            assertThat(fullText(p, "Kestrel")).isNotEmpty();
        }
    }

    @Test
    void a_failing_model_or_a_spent_budget_leaves_chunks_without_a_context_and_says_so() {
        try (Polyrag p = open(Map.of("contextual.token.budget", "100", "llm.timeout.seconds", "1"))) {
            reply.set("I'm sorry, but I can't help with that.");
            IngestReport refused = ingest(p, "The mast folds in two places.", "Mast");
            assertThat(refused.warnings()).anyMatch(w -> w.contains("the model declined"));
            assertThat(fullText(p, "sorry")).as("an apology is not indexed").isEmpty();
            reply.set(CONTEXT);
            delayMs.set(2_500);
            IngestReport slow = ingest(p, "The anchor bolts take a 13 mm spanner.", "Anchors");
            assertThat(slow.added()).isEqualTo(1);
            assertThat(slow.warnings()).anyMatch(w -> w.startsWith("contextual retrieval: 1 chunks got no context"));
            delayMs.set(0);
            status.set(500);
            IngestReport failed = ingest(p, "The tripod legs lock with a quarter turn.", "Tripod");
            assertThat(failed.added()).isEqualTo(1);
            assertThat(failed.warnings()).anyMatch(w -> w.startsWith("contextual retrieval: 1 chunks got no context"));
            assertThat(fullText(p, "tripod")).hasSize(1);
            assertThat(fullText(p, "Kestrel")).isEmpty();

            status.set(200);
            IngestReport one = ingest(p, "Calibrate the sensor after every move.", "Calibration");
            assertThat(one.warnings()).noneMatch(w -> w.contains("budget"));
            // The first call spent 320 tokens of the 100: no call starts after it within this ingest.
            IngestReport spent = p.ingest().items(List.of(
                    new io.polyrag.core.model.SourceItem("file:///a.txt", "a.txt", "Level the housing first."
                            .getBytes(StandardCharsets.UTF_8), "text/plain"),
                    new io.polyrag.core.model.SourceItem("file:///b.txt", "b.txt", "Seal the cable gland tightly."
                            .getBytes(StandardCharsets.UTF_8), "text/plain")), null,
                    io.polyrag.core.port.ProgressListener.NONE);
            assertThat(spent.added()).isEqualTo(2);
            assertThat(spent.warnings()).anyMatch(w -> w.contains("token budget"));
        }
    }

    /** A reindex whose model fails writes the chunks without a context and says so in its job, as an ingest does. */
    @Test
    void a_reindex_whose_model_fails_says_which_chunks_got_no_context() {
        try (Polyrag p = open(Map.of("contextual.enabled", "false"))) {
            ingest(p, "Unscrew the base plate and replace the damping fluid every two years.", "Maintenance");
        }
        status.set(500);
        try (Polyrag p = open(Map.of())) {
            JobInfo job = awaitJob(p, p.admin().reindex("fulltext", true));
            assertThat(job.status()).isEqualTo(JobStatus.SUCCEEDED);
            assertThat(job.progress().warnings()).as(job.toString()).anyMatch(w -> w.startsWith(
                    "contextual retrieval: 1 chunks re-indexed into the fulltext store got no context"));
            assertThat(fullText(p, "damping")).as("indexed without one").hasSize(1);
        }
    }

    @Test
    void reindex_all_writes_the_contexts_of_chunks_ingested_before_it_was_on_and_the_estimate_counts_them()
            throws Exception {
        try (Polyrag p = open(Map.of("contextual.enabled", "false"))) {
            ingest(p, "Unscrew the base plate and replace the damping fluid every two years.", "Maintenance");
            assertThat(fullText(p, "Kestrel")).isEmpty();
        }
        assertThat(calls).hasValue(0);
        try (Polyrag p = open(Map.of())) {
            assertThat(awaitJob(p, p.admin().reindex("fulltext", true)).status()).isEqualTo(JobStatus.SUCCEEDED);
            assertThat(fullText(p, "Kestrel")).as("back-filled").hasSize(1);
            assertThat(calls).hasValue(1);
            assertThat(awaitJob(p, p.admin().reindex("vector", true)).status()).isEqualTo(JobStatus.SUCCEEDED);
            assertThat(calls).as("the vector store's texts take the cached context").hasValue(1);
            assertThat(p.admin().check(false).consistent()).isTrue();

            java.nio.file.Files.createDirectories(tmp.resolve("in"));
            java.nio.file.Files.writeString(tmp.resolve("in/new.txt"), "Check the battery seals each spring.");
            java.nio.file.Files.writeString(tmp.resolve("in/known.txt"), "Unscrew the base plate and replace the "
                    + "damping fluid every two years.");
            io.polyrag.core.model.IngestEstimate e = p.ingest().estimate(new io.polyrag.app.api.PathIngest(List.of(
                    tmp.resolve("in")), null, List.of(), List.of()));
            assertThat(e.contextCalls()).as("a paragraph already situated in another document is situated again in "
                    + "this one").isEqualTo(2);
            assertThat(e.contextInputTokens()).isPositive();
            assertThat(e.contextOutputTokens()).isEqualTo(120);
            p.ingest().paths(new io.polyrag.app.api.PathIngest(List.of(tmp.resolve("in")), null, List.of(),
                    List.of()), io.polyrag.core.port.ProgressListener.NONE);
            assertThat(calls).hasValue(3);
            java.nio.file.Files.writeString(tmp.resolve("in/new.txt"), "Check the battery seals each spring.\n\n"
                    + "Replace them every third year.");
            assertThat(p.ingest().estimate(new io.polyrag.app.api.PathIngest(List.of(tmp.resolve("in")), null,
                    List.of(), List.of())).contextCalls()).as("only the changed document's new text is not cached")
                    .isEqualTo(1);
            assertThat(calls).as("an estimate calls no model").hasValue(3);
        }
        assertThatThrownBy(() -> open(Map.of("llm.provider", "none"))).hasMessageContaining(
                "POLYRAG_CONTEXTUAL_ENABLED=true needs a language model");
    }

    private static io.polyrag.core.model.JobInfo awaitJob(Polyrag p, String id) {
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> p.admin().job(id).status()
                .finished());
        return p.admin().job(id);
    }
}
