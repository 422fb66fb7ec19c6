package io.polyrag.model.llm;

import io.polyrag.core.http.Outbound;
import io.polyrag.core.http.OutboundException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.polyrag.core.port.LlmClient;
import io.polyrag.model.llm.LoopbackServer.Reply;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The Anthropic client against a loopback server speaking the Messages wire format. */
class AnthropicClientTest {
    private final List<Duration> waits = new ArrayList<>();

    private AnthropicClient client(LoopbackServer s) {
        return new AnthropicClient(s.base().toString(), "ant-key", "claude-test",
                new Outbound("anthropic", Duration.ofSeconds(2), Duration.ofSeconds(5), 2, waits::add));
    }

    private static LlmClient.Request request(boolean json) {
        return new LlmClient.Request("Cite sources.", List.of(new LlmClient.Message("user", "Why is the sky blue?")),
                128, 0.0, json);
    }

    @Test
    void complete_puts_the_system_prompt_at_the_top_and_joins_the_text_blocks() throws IOException {
        try (LoopbackServer s = new LoopbackServer(Reply.json(200, """
                {"id":"msg_1","type":"message","role":"assistant","model":"claude-test-2025",
                 "content":[{"type":"text","text":"Rayleigh scattering [1]"},{"type":"text","text":" of sunlight."}],
                 "stop_reason":"end_turn","usage":{"input_tokens":30,"output_tokens":9}}"""))) {
            LlmClient.Response r = client(s).complete(request(true));
            assertThat(r.text()).isEqualTo("Rayleigh scattering [1] of sunlight.");
            assertThat(r.model()).isEqualTo("claude-test-2025");
            assertThat(r.inputTokens()).isEqualTo(30);
            assertThat(r.outputTokens()).isEqualTo(9);
            LoopbackServer.Received got = s.received.getFirst();
            assertThat(got.path()).isEqualTo("/v1/messages");
            assertThat(got.header("x-api-key")).isEqualTo("ant-key");
            assertThat(got.header("anthropic-version")).isEqualTo("2023-06-01");
            JsonNode body = OpenAiCompatibleClient.JSON.readTree(got.body());
            assertThat(body.path("system").asString()).startsWith("Cite sources.").contains("single JSON object");
            assertThat(body.path("messages")).hasSize(1);
            assertThat(body.path("messages").get(0).path("role").asString()).isEqualTo("user");
            assertThat(body.path("max_tokens").asInt()).isEqualTo(128);
        }
    }

    @Test
    void stream_reads_typed_events_and_usage() throws IOException {
        try (LoopbackServer s = new LoopbackServer(Reply.sse(
                "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"usage\":{\"input_tokens\":25,\"output_tokens\":1}}}\n\n",
                "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n",
                "event: ping\ndata: {\"type\": \"ping\"}\n\n",
                "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Rayleigh\"}}\n\n",
                "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\" scattering\"}}\n\n",
                "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n",
                "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":12}}\n\n",
                "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"))) {
            List<String> tokens = new ArrayList<>();
            LlmClient.Response r = client(s).stream(request(false), tokens::add);
            assertThat(tokens).containsExactly("Rayleigh", " scattering");
            assertThat(r.text()).isEqualTo("Rayleigh scattering");
            assertThat(r.inputTokens()).isEqualTo(25);
            assertThat(r.outputTokens()).isEqualTo(12);
        }
    }

    @Test
    void overloaded_is_retried_and_a_bad_request_is_reported_with_the_api_message() throws IOException {
        try (LoopbackServer s = new LoopbackServer(Reply.json(529,
                "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}"),
                Reply.json(400, "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\","
                        + "\"message\":\"messages: roles must alternate\"}}"))) {
            assertThatThrownBy(() -> client(s).complete(request(false))).isInstanceOf(OutboundException.class)
                    .hasMessage("anthropic answered HTTP 400: messages: roles must alternate");
            assertThat(s.received).hasSize(2);
            assertThat(waits).hasSize(1);
        }
    }

    /**
     * An overload sent inside the stream before any text (Anthropic's 529 in a 200's body) is tried again, as the 529
     * is: nothing reached the caller. Another error event fails the call.
     */
    @Test
    void an_error_event_inside_a_stream_is_retried_before_text_and_otherwise_fails_the_call() throws IOException {
        try (LoopbackServer s = new LoopbackServer(Reply.sse(
                "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n"),
                Reply.sse("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":"
                        + "{\"type\":\"text_delta\",\"text\":\"Rayleigh\"}}\n\n",
                        "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"))) {
            List<String> tokens = new java.util.ArrayList<>();
            assertThat(client(s).stream(request(false), tokens::add).text()).isEqualTo("Rayleigh");
            assertThat(tokens).containsExactly("Rayleigh");
            assertThat(s.received).hasSize(2);
        }
        try (LoopbackServer s = new LoopbackServer(Reply.sse(
                "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"Bad\"}}\n\n"))) {
            assertThatThrownBy(() -> client(s).stream(request(false), t -> { })).isInstanceOf(OutboundException.class)
                    .hasMessageContaining("Bad");
            assertThat(s.received).hasSize(1);
        }
    }

    @Test
    void a_stream_cut_before_message_stop_fails() throws IOException {
        try (LoopbackServer s = new LoopbackServer(Reply.sse(
                "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":"
                        + "\"text_delta\",\"text\":\"Rayleigh\"}}\n\n"))) {
            assertThatThrownBy(() -> client(s).stream(request(false), t -> { })).isInstanceOf(OutboundException.class)
                    .hasMessageContaining("before the model finished");
        }
    }
}
