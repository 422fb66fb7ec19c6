package io.polyrag.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.polyrag.app.Json;
import io.polyrag.app.Polyrag;
import io.polyrag.app.api.TextIngest;
import io.polyrag.core.config.Config;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The intent router on {@code /v1/query} with a language model behind a loopback OpenAI-compatible server: the
 * model's decision routes the question; a model that answers garbage, refuses or times out leaves the rules to
 * decide, and the question is still answered, saying so.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AnswerRouterTest {
    @TempDir
    static Path tmp;

    private HttpServer model;
    private final AtomicReference<String> routing = new AtomicReference<>("");
    private final List<String> systems = new CopyOnWriteArrayList<>();
    private Polyrag polyrag;
    private RestServer server;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    void start() throws Exception {
        model = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        model.setExecutor(Executors.newCachedThreadPool());
        model.createContext("/v1/chat/completions", ex -> {
            JsonNode body = Json.MAPPER.readTree(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            String system = body.path("messages").get(0).path("content").asString();
            systems.add(system);
            byte[] reply;
            if (system.startsWith("You route questions")) {
                String mode = routing.get();
                if (mode.equals("slow")) {
                    try {
                        Thread.sleep(2_500);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                String content = switch (mode) {
                    case "garbage" -> "{\\\"intent\\\": \\\"haiku\\\"}";
                    case "refusal" -> "I cannot classify questions.";
                    default -> mode;
                };
                reply = ("{\"model\":\"fake-1\",\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\""
                        + content + "\"}}],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":5}}")
                        .getBytes(StandardCharsets.UTF_8);
                ex.getResponseHeaders().add("Content-Type", "application/json");
            } else {
                reply = ("data: {\"model\":\"fake-1\",\"choices\":[{\"delta\":{\"content\":\"- Mix the levain [1]\"}}]}"
                        + "\n\ndata: [DONE]\n\n").getBytes(StandardCharsets.UTF_8);
                ex.getResponseHeaders().add("Content-Type", "text/event-stream");
            }
            ex.sendResponseHeaders(200, reply.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(reply);
            } catch (java.io.IOException e) {
                // The client gave up (the slow case).
            }
        });
        model.start();
        polyrag = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("data").toString(),
                "llm.provider", "openai", "llm.base.url", "http://127.0.0.1:" + model.getAddress().getPort() + "/v1",
                "llm.model", "fake-1", "llm.max.retries", "0", "llm.timeout.seconds", "1")));
        polyrag.ingest().text(new TextIngest("Mix the levain the night before. Fold the dough four times. Bake it "
                + "hot.", "Sourdough", null, null, null));
        server = new RestServer(polyrag, "127.0.0.1", 0, 1 << 20);
    }

    @AfterAll
    void stop() {
        server.close();
        polyrag.close();
        model.stop(0);
    }

    private JsonNode query(String json) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
                + "/v1/query")).header("Content-Type", "application/json").timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return Json.MAPPER.readTree(r.body());
    }

    @Test
    void the_models_decision_routes_the_question_and_the_answer_says_so() throws Exception {
        routing.set("{\\\"intent\\\": \\\"list\\\", \\\"reason\\\": \\\"asks for every step\\\"}");
        JsonNode a = query("{\"query\": \"What do I do with the dough?\", \"route\": true}");
        assertThat(a.path("route").path("intent").asString()).isEqualTo("list");
        assertThat(a.path("route").path("by").asString()).isEqualTo("model");
        assertThat(a.path("route").path("reason").asString()).isEqualTo("asks for every step");
        assertThat(a.path("route").path("top_k").asInt()).isEqualTo(20);
        assertThat(a.path("mode").asString()).isEqualTo("generated");
        assertThat(systems.getLast()).as("the answer's prompt asks for a list").contains("one item per line");

        routing.set("{\\\"intent\\\": \\\"chitchat\\\", \\\"reply\\\": \\\"Hi! Ask me about your documents.\\\"}");
        JsonNode hi = query("{\"query\": \"hey you\", \"route\": true}");
        assertThat(hi.path("mode").asString()).isEqualTo("direct");
        assertThat(hi.path("answer").asString()).isEqualTo("Hi! Ask me about your documents.");
        assertThat(hi.path("sources")).isEmpty();

        JsonNode plain = query("{\"query\": \"What do I do with the dough?\"}");
        assertThat(plain.has("route") && !plain.path("route").isNull()).as("off unless asked").isFalse();
    }

    @Test
    void garbage_a_refusal_or_a_timeout_leaves_the_rules_to_route_and_the_question_is_answered() throws Exception {
        for (String mode : List.of("garbage", "refusal", "slow")) {
            routing.set(mode);
            JsonNode a = query("{\"query\": \"Summarize the sourdough notes\", \"route\": true}");
            assertThat(a.path("route").path("intent").asString()).as(mode).isEqualTo("summary");
            assertThat(a.path("route").path("by").asString()).as(mode).isEqualTo("offline");
            assertThat(a.path("route").path("reason").asString()).as(mode)
                    .contains("decided offline: the language model was asked first");
            assertThat(a.path("answer").asString()).as(mode).isNotEmpty();
            assertThat(a.path("sources")).as(mode).hasSize(1);
        }
    }
}
