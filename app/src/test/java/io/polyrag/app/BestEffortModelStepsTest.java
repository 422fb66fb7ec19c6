package io.polyrag.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.polyrag.app.api.TextIngest;
import io.polyrag.core.model.SearchRequest;
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

    @BeforeEach
    void start() throws IOException {
        model = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        model.createContext("/v1/chat/completions", ex -> {
            ex.getRequestBody().readAllBytes();
            calls.incrementAndGet();
            byte[] reply = "{\"error\":{\"message\":\"overloaded\"}}".getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Retry-After", "2");
            ex.sendResponseHeaders(503, reply.length);
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
