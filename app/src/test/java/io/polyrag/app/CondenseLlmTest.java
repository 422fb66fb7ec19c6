package io.polyrag.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.polyrag.app.api.TextIngest;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.model.Answer;
import io.polyrag.core.model.SearchRequest;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A conversation's next question condensed by the configured language model, against a loopback OpenAI-compatible
 * server: the model is shown the earlier questions, its query is the one retrieved with (the answer's query); when
 * it fails, the offline rewrite is used and the answer still comes.
 */
class CondenseLlmTest {
    @TempDir
    Path tmp;

    private HttpServer model;
    private final List<String> condensePrompts = new CopyOnWriteArrayList<>();
    private final AtomicInteger condenseStatus = new AtomicInteger(200);

    @BeforeEach
    void start() throws IOException {
        model = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        model.createContext("/v1/chat/completions", ex -> {
            String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            boolean condense = body.contains("Standalone search query");
            int status = 200;
            String content = "The levain ferments at 24 degrees [1].";
            if (condense) {
                condensePrompts.add(body);
                status = condenseStatus.get();
                content = "levain fermentation temperature";
            }
            byte[] reply = (status != 200 ? "{\"error\": {\"message\": \"model overloaded\"}}"
                    : "{\"model\":\"fake-1\",\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\"" + content
                            + "\"}}],\"usage\":{\"prompt_tokens\":40,\"completion_tokens\":8}}")
                    .getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(status, reply.length);
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
        Map<String, String> m = new java.util.HashMap<>(Map.of("llm.provider", "openai", "llm.base.url",
                "http://127.0.0.1:" + model.getAddress().getPort() + "/v1", "llm.model", "fake-1",
                "llm.max.retries", "0"));
        m.putAll(more);
        return Polyrag.open(PolyragTest.config(tmp.resolve("data"), m));
    }

    private static Answer followUp(Polyrag p) {
        return p.search().answer(SearchRequest.of("And at what temperature?", 3), null, false, t -> { },
                List.of("How long does the levain ferment?"));
    }

    @Test
    void the_models_condensed_query_is_the_one_retrieved_with() {
        try (Polyrag p = open(Map.of())) {
            p.ingest().text(new TextIngest("The levain ferments for six hours at 24 degrees.", "Levain",
                    "doc:levain", null, null));
            Answer a = followUp(p);
            assertThat(a.query()).isEqualTo("levain fermentation temperature");
            assertThat(a.sources()).as("retrieved with it").isNotEmpty();
            assertThat(condensePrompts).singleElement().asString().contains("How long does the levain ferment?")
                    .contains("And at what temperature?");
            assertThat(p.search().answer(SearchRequest.of("How long does the levain ferment?", 3), null, false,
                    t -> { }, List.of()).query()).as("a first question: no model call")
                    .isEqualTo("How long does the levain ferment?");
            assertThat(condensePrompts).hasSize(1);
        }
    }

    @Test
    void a_failing_model_leaves_the_offline_rewrite_and_the_offline_setting_never_asks_it() {
        condenseStatus.set(400);
        try (Polyrag p = open(Map.of())) {
            p.ingest().text(new TextIngest("The levain ferments for six hours at 24 degrees.", "Levain",
                    "doc:levain", null, null));
            Answer a = followUp(p);
            assertThat(a.query()).contains("temperature").contains("levain").isNotEqualTo(
                    "levain fermentation temperature");
            assertThat(a.sources()).as("retrieved with it").isNotEmpty();
            assertThat(a.warnings()).as("and said so").anySatisfy(w -> assertThat(w).contains("could not condense"));
        }
        condensePrompts.clear();
        try (Polyrag p = open(Map.of("conversations.condense", "offline"))) {
            assertThat(followUp(p).query()).contains("levain");
            assertThat(followUp(p).warnings()).noneSatisfy(w -> assertThat(w).contains("condense"));
            assertThat(condensePrompts).isEmpty();
        }
    }

    @Test
    void an_empty_or_oversized_question_is_refused_before_the_model_condenses_it() {
        try (Polyrag p = open(Map.of())) {
            p.ingest().text(new TextIngest("The levain ferments for six hours at 24 degrees.", "Levain",
                    null, null, null));
            for (String q : List.of(" ", "x".repeat(5000))) {
                assertThatThrownBy(() -> p.search().answer(SearchRequest.of(q, 3), null, false, t -> { },
                        List.of("How long does the levain ferment?"))).as(q.length() + " characters")
                        .isInstanceOf(InvalidInputException.class);
            }
            // Nor one whose neighbours or knowledge base the answer would refuse after the rewrite.
            assertThatThrownBy(() -> p.search().answer(SearchRequest.of("And at what temperature?", 3), 9, false,
                    t -> { }, List.of("How long does the levain ferment?"))).hasMessageContaining("neighbours");
            assertThatThrownBy(() -> p.search().answer(SearchRequest.builder("And at what temperature?").topK(3)
                    .knowledgeBases(List.of("typo")).build(), null, false, t -> { },
                    List.of("How long does the levain ferment?"))).hasMessageContaining("no knowledge base 'typo'");
            assertThat(condensePrompts).isEmpty();
        }
    }
}
