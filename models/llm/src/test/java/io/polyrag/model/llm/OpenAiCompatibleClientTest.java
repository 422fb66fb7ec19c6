package io.polyrag.model.llm;

import io.polyrag.core.http.Outbound;
import io.polyrag.core.http.OutboundException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.polyrag.core.port.LlmClient;
import io.polyrag.model.llm.LoopbackServer.Reply;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The OpenAI-compatible client against a loopback server speaking the chat-completions wire format. */
class OpenAiCompatibleClientTest {
    private final List<Duration> waits = new ArrayList<>();

    private OpenAiCompatibleClient client(LoopbackServer s, int retries, Duration timeout) {
        return new OpenAiCompatibleClient(s.base() + "/v1/", "sk-test", "gpt-test",
                new Outbound("openai-compatible", Duration.ofSeconds(2), timeout, retries, waits::add));
    }

    private static LlmClient.Request request(boolean json) {
        return new LlmClient.Request("Be brief.", List.of(new LlmClient.Message("user", "Capital of France?")), 64,
                0.1, json);
    }

    private static final String OK = """
            {"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"gpt-test-0613",
             "choices":[{"index":0,"message":{"role":"assistant","content":"Paris [1]."},"finish_reason":"stop"}],
             "usage":{"prompt_tokens":21,"completion_tokens":4,"total_tokens":25}}""";

    @Test
    void complete_sends_the_conversation_and_parses_text_and_usage() throws IOException {
        try (LoopbackServer s = new LoopbackServer(Reply.json(200, OK))) {
            LlmClient.Response r = client(s, 0, Duration.ofSeconds(5)).complete(request(true));
            assertThat(r.text()).isEqualTo("Paris [1].");
            assertThat(r.model()).isEqualTo("gpt-test-0613");
            assertThat(r.inputTokens()).isEqualTo(21);
            assertThat(r.outputTokens()).isEqualTo(4);
            LoopbackServer.Received got = s.received.getFirst();
            assertThat(got.path()).isEqualTo("/v1/chat/completions");
            assertThat(got.header("Authorization")).isEqualTo("Bearer sk-test");
            JsonNode body = OpenAiCompatibleClient.JSON.readTree(got.body());
            assertThat(body.path("model").asString()).isEqualTo("gpt-test");
            assertThat(body.path("messages").get(0).path("role").asString()).isEqualTo("system");
            assertThat(body.path("messages").get(1).path("content").asString()).isEqualTo("Capital of France?");
            assertThat(body.path("max_tokens").asInt()).isEqualTo(64);
            assertThat(body.path("response_format").path("type").asString()).isEqualTo("json_object");
            assertThat(body.has("stream")).isFalse();
        }
    }

    @Test
    void stream_delivers_each_delta_in_order_and_reads_usage_from_the_last_chunk() throws IOException {
        try (LoopbackServer s = new LoopbackServer(Reply.sse(
                "data: {\"id\":\"c\",\"model\":\"gpt-test\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\n\n",
                "data: {\"id\":\"c\",\"model\":\"gpt-test\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Par\"}}]}\n\n",
                "data: {\"id\":\"c\",\"model\":\"gpt-test\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"is\"},\"finish_reason\":null}]}\n\n",
                ": keep-alive comment\n\n",
                "data: {\"id\":\"c\",\"model\":\"gpt-test\",\"choices\":[],\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":2}}\n\n",
                "data: [DONE]\n\n"))) {
            List<String> tokens = new ArrayList<>();
            LlmClient.Response r = client(s, 0, Duration.ofSeconds(5)).stream(request(false), tokens::add);
            assertThat(tokens).containsExactly("Par", "is");
            assertThat(r.text()).isEqualTo("Paris");
            assertThat(r.inputTokens()).isEqualTo(9);
            assertThat(r.outputTokens()).isEqualTo(2);
            JsonNode body = OpenAiCompatibleClient.JSON.readTree(s.received.getFirst().body());
            assertThat(body.path("stream").asBoolean()).isTrue();
            assertThat(body.path("stream_options").path("include_usage").asBoolean()).isTrue();
        }
    }

    @Test
    void a_429_is_retried_after_the_time_it_names() throws IOException {
        try (LoopbackServer s = new LoopbackServer(
                Reply.json(429, "{\"error\":{\"message\":\"Rate limit reached\",\"type\":\"requests\"}}")
                        .with("Retry-After", "2"), Reply.json(200, OK))) {
            assertThat(client(s, 3, Duration.ofSeconds(5)).complete(request(false)).text()).isEqualTo("Paris [1].");
            assertThat(waits).containsExactly(Duration.ofSeconds(2));
            assertThat(s.received).hasSize(2);
        }
    }

    /**
     * A 429 for an account out of credit is not retried (each retry waited to fail the same); one asking to wait
     * longer than a call waits fails at once, saying how long; a Retry-After given as a date is honoured.
     */
    @Test
    void an_account_out_of_credit_or_a_long_wait_is_not_retried_and_a_dated_retry_after_is_read() throws IOException {
        try (LoopbackServer s = new LoopbackServer(Reply.json(429, "{\"error\":{\"message\":\"You exceeded your "
                + "current quota\",\"type\":\"insufficient_quota\",\"code\":\"insufficient_quota\"}}"))) {
            assertThatThrownBy(() -> client(s, 3, Duration.ofSeconds(5)).complete(request(false)))
                    .isInstanceOf(OutboundException.class).isNotInstanceOf(OutboundException.Transient.class)
                    .hasMessageContaining("exceeded your current quota");
            assertThat(s.received).hasSize(1);
        }
        try (LoopbackServer s = new LoopbackServer(Reply.json(429, "{\"error\":{\"message\":\"Slow down\"}}")
                .with("Retry-After", "600"), Reply.json(200, OK))) {
            assertThatThrownBy(() -> client(s, 3, Duration.ofSeconds(5)).complete(request(false)))
                    .isInstanceOf(OutboundException.Transient.class).hasMessageContaining("retry after 600 s");
            assertThat(s.received).hasSize(1);
        }
        String inThreeSeconds = java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME.format(
                java.time.ZonedDateTime.now(java.time.ZoneOffset.UTC).plusSeconds(3));
        waits.clear();
        try (LoopbackServer s = new LoopbackServer(Reply.json(503, "{\"error\":{\"message\":\"busy\"}}")
                .with("Retry-After", inThreeSeconds), Reply.json(200, OK))) {
            assertThat(client(s, 3, Duration.ofSeconds(5)).complete(request(false)).text()).isEqualTo("Paris [1].");
            assertThat(waits).singleElement().satisfies(w -> assertThat(w).isBetween(Duration.ofSeconds(1),
                    Duration.ofSeconds(3)));
        }
    }

    @Test
    void server_errors_are_retried_with_growing_jittered_backoff() throws IOException {
        try (LoopbackServer s = new LoopbackServer(Reply.json(500, "{\"error\":{\"message\":\"boom\"}}"),
                Reply.json(502, "<html>bad gateway</html>"), Reply.json(200, OK))) {
            assertThat(client(s, 3, Duration.ofSeconds(5)).complete(request(false)).text()).isEqualTo("Paris [1].");
            assertThat(waits).hasSize(2);
            assertThat(waits.get(0)).isBetween(Duration.ofMillis(250), Duration.ofMillis(500));
            assertThat(waits.get(1)).isBetween(Duration.ofMillis(500), Duration.ofMillis(1000));
        }
    }

    @Test
    void a_400_is_never_retried_and_names_the_provider_the_status_and_its_message() throws IOException {
        try (LoopbackServer s = new LoopbackServer(Reply.json(400,
                "{\"error\":{\"message\":\"Invalid 'max_tokens': too large\",\"type\":\"invalid_request_error\"}}"))) {
            assertThatThrownBy(() -> client(s, 3, Duration.ofSeconds(5)).complete(request(false)))
                    .isInstanceOf(OutboundException.class).isNotInstanceOf(OutboundException.Transient.class)
                    .hasMessage("openai-compatible answered HTTP 400: Invalid 'max_tokens': too large");
            assertThat(s.received).hasSize(1);
            assertThat(waits).isEmpty();
        }
    }

    @Test
    void retries_are_bounded_and_the_last_failure_is_raised_as_transient() throws IOException {
        try (LoopbackServer s = new LoopbackServer(Reply.json(503, "{\"error\":{\"message\":\"overloaded\"}}"),
                Reply.json(503, "{\"error\":{\"message\":\"overloaded\"}}"),
                Reply.json(503, "{\"error\":{\"message\":\"still overloaded\"}}"))) {
            assertThatThrownBy(() -> client(s, 2, Duration.ofSeconds(5)).complete(request(false)))
                    .isInstanceOf(OutboundException.Transient.class).hasMessageContaining("HTTP 503: still overloaded");
            assertThat(s.received).hasSize(3);
        }
    }

    @Test
    void a_refused_connection_and_a_timeout_are_transient() throws IOException {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        OpenAiCompatibleClient refused = new OpenAiCompatibleClient("http://127.0.0.1:" + port + "/v1", "k", "m",
                new Outbound("openai-compatible", Duration.ofSeconds(2), Duration.ofSeconds(2), 1, waits::add));
        assertThatThrownBy(() -> refused.complete(request(false))).isInstanceOf(OutboundException.Transient.class)
                .hasMessageContaining("could not be reached");
        assertThat(waits).hasSize(1);
        try (LoopbackServer s = new LoopbackServer(Reply.hanging())) {
            assertThatThrownBy(() -> client(s, 0, Duration.ofMillis(300)).complete(request(false)))
                    .isInstanceOf(OutboundException.Transient.class).hasMessageContaining("timed out");
        }
    }

    /** A reply the provider's filter stopped says so: it read as a whole answer, finish "stop". */
    @Test
    void a_reply_stopped_by_the_providers_filter_says_so() throws IOException {
        try (LoopbackServer s = new LoopbackServer(Reply.sse(
                "data: {\"choices\":[{\"delta\":{\"content\":\"The dose is\"}}]}\n\n",
                "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"content_filter\"}]}\n\n", "data: [DONE]\n\n"),
                Reply.json(200, OK.replace("\"stop\"", "\"content_filter\"")))) {
            LlmClient.Response streamed = client(s, 0, Duration.ofSeconds(5)).stream(request(false), t -> { });
            assertThat(streamed.stoppedBy()).isEqualTo("content_filter");
            assertThat(streamed.cut()).isFalse();
            assertThat(client(s, 0, Duration.ofSeconds(5)).complete(request(false)).stoppedBy())
                    .isEqualTo("content_filter");
        }
    }

    @Test
    void a_stream_that_fails_before_any_text_is_retried() throws IOException {
        try (LoopbackServer s = new LoopbackServer(Reply.json(500, "{\"error\":{\"message\":\"boom\"}}"),
                Reply.sse("data: {\"choices\":[{\"delta\":{\"content\":\"ok\"}}]}\n\n", "data: [DONE]\n\n"))) {
            List<String> tokens = new ArrayList<>();
            client(s, 2, Duration.ofSeconds(5)).stream(request(false), tokens::add);
            assertThat(tokens).containsExactly("ok");
        }
    }

    /** A 200 that is no stream, or a stream cut before its end, is not a whole answer: it fails and says so. */
    @Test
    void a_stream_without_its_end_fails_instead_of_passing_for_an_answer() throws IOException {
        try (LoopbackServer s = new LoopbackServer(Reply.json(200, "{}"))) {
            assertThatThrownBy(() -> client(s, 0, Duration.ofSeconds(5)).stream(request(false), t -> { }))
                    .isInstanceOf(OutboundException.class).hasMessageContaining("before the model finished")
                    .hasMessageContaining("OpenAI-compatible");
        }
        try (LoopbackServer s = new LoopbackServer(Reply.sse("data: {\"choices\":[{\"delta\":{\"content\":\"The \"}}]}"
                + "\n\n"))) {
            assertThatThrownBy(() -> client(s, 0, Duration.ofSeconds(5)).stream(request(false), t -> { }))
                    .isInstanceOf(OutboundException.class).hasMessageContaining("before the model finished");
        }
        try (LoopbackServer s = new LoopbackServer(Reply.sse("data: {\"choices\":[{\"delta\":{\"content\":\"ok\"},"
                + "\"finish_reason\":\"stop\"}]}\n\n"))) {
            assertThat(client(s, 0, Duration.ofSeconds(5)).stream(request(false), t -> { }).text())
                    .as("a finish_reason ends it too (servers that send no [DONE])").isEqualTo("ok");
        }
        try (LoopbackServer s = new LoopbackServer(Reply.json(200, "{\"model\":\"m\",\"choices\":[{\"message\":"
                + "{\"role\":\"assistant\",\"content\":\"whole\"}}]}"))) {
            List<String> tokens = new ArrayList<>();
            assertThat(client(s, 0, Duration.ofSeconds(5)).stream(request(false), tokens::add).text())
                    .as("a server that ignores stream and answers one completion").isEqualTo("whole");
            assertThat(tokens).containsExactly("whole");
        }
    }

    /** A reasoning model refuses max_tokens and a temperature: renamed and left out, and the call goes on. */
    @Test
    void a_model_that_refuses_max_tokens_or_a_temperature_is_asked_again_without_them() throws IOException {
        try (LoopbackServer s = new LoopbackServer(
                Reply.json(400, "{\"error\":{\"message\":\"Unsupported parameter: 'max_tokens' is not supported with "
                        + "this model. Use 'max_completion_tokens' instead.\"}}"),
                Reply.json(400, "{\"error\":{\"message\":\"Unsupported value: 'temperature' does not support 0.2 with "
                        + "this model. Only the default (1) value is supported.\"}}"),
                Reply.json(200, "{\"model\":\"o\",\"choices\":[{\"message\":{\"content\":\"fine\"}}]}"),
                Reply.json(200, "{\"model\":\"o\",\"choices\":[{\"message\":{\"content\":\"again\"}}]}"))) {
            var client = client(s, 0, Duration.ofSeconds(5));
            assertThat(client.complete(request(false)).text()).isEqualTo("fine");
            assertThat(client.complete(request(false)).text()).as("remembered: one call").isEqualTo("again");
            assertThat(s.received).hasSize(4);
            JsonNode last = OpenAiCompatibleClient.JSON.readTree(s.received.getLast().body());
            assertThat(last.has("max_tokens")).isFalse();
            assertThat(last.has("max_completion_tokens")).isTrue();
            assertThat(last.has("temperature")).isFalse();
        }
    }

    /** vLLM's context overflow names both parameters: it is the failure it is, asked once, nothing adapted. */
    @Test
    void a_context_overflow_naming_both_parameters_is_not_taken_for_a_refused_parameter() throws IOException {
        try (LoopbackServer s = new LoopbackServer(
                Reply.json(400, "{\"error\":{\"message\":\"'max_tokens' or 'max_completion_tokens' is too large: "
                        + "2048. This model's maximum context length is 4096 tokens\"}}"),
                Reply.json(200, "{\"model\":\"o\",\"choices\":[{\"message\":{\"content\":\"fine\"}}]}"))) {
            var client = client(s, 0, Duration.ofSeconds(5));
            assertThatThrownBy(() -> client.complete(request(false))).hasMessageContaining("maximum context length");
            assertThat(s.received).hasSize(1);
            assertThat(client.complete(request(false)).text()).isEqualTo("fine");
            assertThat(OpenAiCompatibleClient.JSON.readTree(s.received.getLast().body()).has("max_tokens")).isTrue();
        }
    }

    /**
     * A server that refuses response_format (LM Studio) or stream_options (Mistral, with a 422) is asked again
     * without it, and remembered; content given as an array of parts (Magistral) is read as its text.
     */
    @Test
    void a_server_refusing_response_format_or_stream_options_is_asked_without_them() throws IOException {
        try (LoopbackServer s = new LoopbackServer(
                Reply.json(400, "{\"error\":\"'response_format.type' must be 'json_schema' or 'text'\"}"),
                Reply.json(200, "{\"model\":\"m\",\"choices\":[{\"message\":{\"content\":[{\"type\":\"thinking\","
                        + "\"thinking\":\"hm\"},{\"type\":\"text\",\"text\":\"{\\\"a\\\": 1}\"}]}}]}"),
                Reply.json(422, "{\"detail\":[{\"type\":\"extra_forbidden\",\"loc\":[\"body\",\"stream_options\"],"
                        + "\"msg\":\"Extra inputs are not permitted\"}]}"),
                Reply.sse("data: {\"model\":\"m\",\"choices\":[{\"delta\":{\"content\":\"Paris\"}}]}\n\n",
                        "data: {\"model\":\"m\",\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n",
                        "data: [DONE]\n\n"))) {
            var client = client(s, 0, Duration.ofSeconds(5));
            assertThat(client.complete(request(true)).text()).isEqualTo("{\"a\": 1}");
            assertThat(client.strictJson()).isFalse();
            assertThat(OpenAiCompatibleClient.JSON.readTree(s.received.get(1).body()).has("response_format")).isFalse();
            assertThat(client.stream(request(false), x -> { }).text()).isEqualTo("Paris");
            assertThat(OpenAiCompatibleClient.JSON.readTree(s.received.getLast().body()).has("stream_options"))
                    .isFalse();
        }
    }

    /**
     * Four first calls at once to a model that refuses max_tokens: each is sent again without it. Only the one that
     * set the flag was; the others failed with the refusal it had already fixed.
     */
    @Test
    void concurrent_first_calls_each_adapt_to_a_refused_parameter() throws Exception {
        java.util.concurrent.CountDownLatch arrived = new java.util.concurrent.CountDownLatch(4);
        com.sun.net.httpserver.HttpServer server = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", ex -> {
            String body = new String(ex.getRequestBody().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            boolean old = body.contains("\"max_tokens\"");
            if (old) {
                arrived.countDown();
                try {
                    arrived.await(10, java.util.concurrent.TimeUnit.SECONDS); // all four in flight before any answer
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            byte[] out = (old ? "{\"error\":{\"message\":\"Unsupported parameter: 'max_tokens' is not supported "
                    + "with this model. Use 'max_completion_tokens' instead.\"}}" : OK).getBytes(
                    java.nio.charset.StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(old ? 400 : 200, out.length);
            ex.getResponseBody().write(out);
            ex.close();
        });
        server.setExecutor(java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
        server.start();
        try {
            OpenAiCompatibleClient c = new OpenAiCompatibleClient("http://127.0.0.1:" + server.getAddress().getPort()
                    + "/v1/", "sk-test", "gpt-test", new Outbound("openai-compatible", Duration.ofSeconds(2),
                    Duration.ofSeconds(20), 0, waits::add));
            var pool = java.util.concurrent.Executors.newFixedThreadPool(4);
            List<java.util.concurrent.Future<LlmClient.Response>> calls = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                calls.add(pool.submit(() -> c.complete(request(false))));
            }
            for (var f : calls) {
                assertThat(f.get(30, java.util.concurrent.TimeUnit.SECONDS).text()).isEqualTo("Paris [1].");
            }
            pool.shutdown();
        } finally {
            server.stop(0);
        }
    }
}
