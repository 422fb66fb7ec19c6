package io.polyrag.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.polyrag.app.api.TextIngest;
import io.polyrag.core.model.SearchRequest;
import io.polyrag.core.model.SearchResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A search's best-effort model steps call the model once and fall back: the answer's retries (and their waits) held
 * a search for minutes while the provider answered 503.
 */
class BestEffortModelStepsTest {
    @TempDir
    Path tmp;

    private HttpServer model;
    private final AtomicInteger calls = new AtomicInteger();
    private final AtomicInteger routerCalls = new AtomicInteger();
    private final AtomicInteger rerankCalls = new AtomicInteger();
    private final java.util.List<String> authorizations = new java.util.concurrent.CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws IOException {
        model = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        model.createContext("/v1/chat/completions", ex -> {
            String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            calls.incrementAndGet();
            if (body.contains("You route questions")) {
                routerCalls.incrementAndGet();
            }
            authorizations.add(String.valueOf(ex.getRequestHeaders().getFirst("Authorization")));
            byte[] reply = "{\"error\":{\"message\":\"overloaded\"}}".getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Retry-After", "2");
            ex.sendResponseHeaders(503, reply.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(reply);
            }
        });
        model.createContext("/stall", ex -> {
            ex.getRequestBody().readAllBytes();
            try {
                Thread.sleep(16_000); // takes the call and answers nothing for longer than the bound below
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ex.close();
        });
        model.createContext("/rerank", ex -> {
            ex.getRequestBody().readAllBytes();
            rerankCalls.incrementAndGet();
            ex.getResponseHeaders().add("Retry-After", "2");
            ex.sendResponseHeaders(503, -1);
            ex.close();
        });
        // The stalled call's handler sleeps on its own thread: stopping the server does not wait for it.
        model.setExecutor(java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
        model.start();
    }

    private String url() {
        return "http://127.0.0.1:" + model.getAddress().getPort();
    }

    /** The HTTP rerank API is asked once too: its 503s with Retry-After held every search for the retries' waits. */
    @Test
    void a_rerank_api_in_trouble_costs_one_call() {
        Timed t = searchOwls(Map.of("llm.max.retries", "3", "rerank.url", url() + "/rerank"));
        assertThat(t.result().hits()).isNotEmpty();
        assertThat(rerankCalls).as("once, not 1 + 3 retries").hasValue(1);
        assertThat(t.nanos()).as("no Retry-After waits").isLessThan(1_900_000_000L);
    }

    private record Timed(SearchResponse result, long nanos) {
    }

    /** One search of an index of one note about owls, reranked by the HTTP rerank API with {@code settings}. */
    private Timed searchOwls(Map<String, String> settings) {
        Map<String, String> all = new java.util.HashMap<>(settings);
        all.put("vector.enabled", "false");
        all.put("rerank.provider", "http");
        try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("data"), all))) {
            p.ingest().text(new TextIngest("Owls hunt at night.", "Owls", null, null, null));
            long start = System.nanoTime();
            var r = p.search().run(SearchRequest.of("owls", 3));
            return new Timed(r, System.nanoTime() - start);
        }
    }

    /**
     * A rerank API that takes the call and stalls is given no longer than a retriever (POLYRAG_SEARCH_TIMEOUT_MS),
     * not the answer's 60 s: the search falls back to the fused order and says so.
     */
    @Test
    void a_stalled_rerank_api_is_given_no_longer_than_a_retriever() {
        Timed t = searchOwls(Map.of("search.timeout.ms", "1000", "rerank.url", url() + "/stall"));
        assertThat(t.result().hits()).isNotEmpty();
        assertThat(t.result().warnings()).anySatisfy(w -> assertThat(w).containsIgnoringCase("rerank"));
        assertThat(t.nanos()).as("about the search timeout, not a minute").isLessThan(15_000_000_000L);
    }

    /** The intent router asks the model once before it falls back offline; the answer keeps its own retries. */
    @Test
    void the_router_asks_a_failing_model_once() {
        try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("data"), Map.of("vector.enabled", "false",
                "llm.provider", "openai", "llm.base.url", url() + "/v1", "llm.model", "fake-1", "llm.max.retries",
                "1")))) {
            p.ingest().text(new TextIngest("Owls hunt at night.", "Owls", null, null, null));
            try {
                p.search().answer(SearchRequest.of("when do owls hunt?", 3), null, false, t -> { }, true);
            } catch (RuntimeException expected) {
                // the answer's model is down too
            }
            assertThat(routerCalls).hasValue(1);
        }
    }

    /**
     * A key read from a file with its line end (a secret made --from-file, a CRLF env file) is sent without it: the
     * HTTP client refused the header with a message quoting the whole key, which reached search warnings. A key with
     * a line break inside is refused at start, naming the setting and not the key.
     */
    @Test
    void an_api_key_with_a_line_end_is_sent_stripped_and_never_shown() {
        try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("data"), Map.of("vector.enabled", "false",
                "llm.provider", "openai", "llm.base.url", url() + "/v1", "llm.model", "fake-1", "llm.api.key",
                "sk-secret-1\r\n", "rerank.provider", "llm")))) {
            p.ingest().text(new TextIngest("Owls hunt at night.", "Owls", null, null, null));
            var r = p.search().run(SearchRequest.of("owls", 3));
            assertThat(authorizations).containsExactly("Bearer sk-secret-1");
            assertThat(r.warnings()).noneSatisfy(w -> assertThat(w).contains("sk-secret"));
        }
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Polyrag.open(PolyragTest.config(tmp.resolve("d2"),
                Map.of("vector.enabled", "false", "llm.provider", "openai", "llm.base.url", url() + "/v1",
                        "llm.model", "fake-1", "llm.api.key", "sk-secret-2\nmore")))).hasMessageContaining(
                                "POLYRAG_LLM_API_KEY").hasMessageNotContaining("sk-secret");
    }

    @AfterEach
    void stop() {
        model.stop(0);
    }

    @Test
    void a_rerank_by_a_failing_model_costs_one_call_and_the_search_goes_on() {
        try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("data"), Map.of("vector.enabled", "false",
                "llm.provider", "openai", "llm.base.url", "http://127.0.0.1:" + model.getAddress().getPort() + "/v1",
                "llm.model", "fake-1", "llm.max.retries", "3", "rerank.provider", "llm")))) {
            p.ingest().text(new TextIngest("Owls hunt at night.", "Owls", null, null, null));
            long start = System.nanoTime();
            var r = p.search().run(SearchRequest.of("owls", 3));
            assertThat(r.hits()).isNotEmpty();
            assertThat(r.warnings()).anySatisfy(w -> assertThat(w).containsIgnoringCase("rerank"));
            assertThat(calls).as("once, not 1 + 3 retries").hasValue(1);
            assertThat(System.nanoTime() - start).as("no Retry-After waits").isLessThan(1_900_000_000L);
        }
    }
}
