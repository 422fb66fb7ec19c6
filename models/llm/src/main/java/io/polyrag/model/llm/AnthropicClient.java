package io.polyrag.model.llm;

import io.polyrag.core.http.Outbound;
import io.polyrag.core.http.OutboundException;
import io.polyrag.core.port.LlmClient;
import java.net.URI;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Anthropic Messages ({@code POST <base>/v1/messages}): the system prompt as a top-level field, typed content blocks
 * in the answer, and a stream of typed events ({@code message_start}, {@code content_block_delta},
 * {@code message_delta}, {@code error}, …). JSON output is asked for in the system prompt, since the API has no
 * switch for it.
 */
public final class AnthropicClient implements LlmClient {
    /** Stop reasons of a reply cut short by a limit: its max_tokens, or the model's context window. */
    private static final Set<String> CUT = Set.of("max_tokens", "model_context_window_exceeded");

    static final String API_VERSION = "2023-06-01";

    private final URI endpoint;
    private final String apiKey;
    private final String model;
    private final Outbound http;

    AnthropicClient(String baseUrl, String apiKey, String model, Outbound http) {
        this.endpoint = URI.create(baseUrl.replaceAll("/+$", "") + "/v1/messages");
        this.apiKey = apiKey;
        this.model = model;
        this.http = http;
    }

    @Override
    public String id() {
        return "anthropic:" + model;
    }

    @Override
    public Response complete(Request request) {
        String body = http.postJson(endpoint, headers(), body(request, false), OpenAiCompatibleClient::error);
        JsonNode r = OpenAiCompatibleClient.parse(id(), body);
        StringBuilder text = new StringBuilder();
        for (JsonNode block : r.path("content")) {
            if ("text".equals(block.path("type").asString(""))) {
                text.append(block.path("text").asString(""));
            }
        }
        return new Response(text.toString(), r.path("model").asString(model),
                r.path("usage").path("input_tokens").asInt(0), r.path("usage").path("output_tokens").asInt(0),
                CUT.contains(r.path("stop_reason").asString("")),
                Response.stoppedBy(r.path("stop_reason").asString("")));
    }

    @Override
    public Response stream(Request request, Consumer<String> onToken) {
        StringBuilder text = new StringBuilder();
        int[] usage = {0, 0};
        boolean[] ended = {false};
        boolean[] cut = {false};
        String[] stopped = {null};
        http.postStream(endpoint, headers(), body(request, true), OpenAiCompatibleClient::error, line -> {
            if (!line.startsWith("data:")) {
                return;
            }
            JsonNode event = OpenAiCompatibleClient.parse(id(), line.substring(5).strip());
            switch (event.path("type").asString("")) {
                case "message_start" -> usage[0] = event.path("message").path("usage").path("input_tokens").asInt(0);
                case "content_block_delta" -> {
                    String piece = event.path("delta").path("text").asString("");
                    if (!piece.isEmpty()) {
                        text.append(piece);
                        onToken.accept(piece);
                    }
                }
                case "message_delta" -> {
                    usage[1] = event.path("usage").path("output_tokens").asInt(usage[1]);
                    cut[0] |= CUT.contains(event.path("delta").path("stop_reason").asString(""));
                    stopped[0] = Response.stoppedBy(event.path("delta").path("stop_reason").asString(""));
                }
                case "message_stop" -> ended[0] = true;
                case "error" -> {
                    String message = event.path("error").path("message").asString("error in stream");
                    String type = event.path("error").path("type").asString("");
                    // Overloaded (a 529 sent in the stream) before any text: tried again, nothing reached the caller.
                    if (text.isEmpty() && (type.equals("overloaded_error") || type.equals("api_error")
                            || type.equals("rate_limit_error"))) {
                        usage[0] = 0;
                        throw new OutboundException.Transient(id(), 200, message + " (" + type + ")", null);
                    }
                    throw new OutboundException(id(), 200, message, null);
                }
                default -> {
                }
            }
        });
        if (!ended[0]) {
            throw new OutboundException(id(), 200, "the stream ended before the model finished (no message_stop"
                    + (text.isEmpty() ? "; nothing streamed: is the base URL Anthropic's Messages API?" : "") + ")",
                    null);
        }
        return new Response(text.toString(), model, usage[0], usage[1], cut[0], stopped[0]);
    }

    private Map<String, String> headers() {
        return Map.of("x-api-key", apiKey == null ? "" : apiKey, "anthropic-version", API_VERSION);
    }

    private String body(Request request, boolean stream) {
        ObjectNode b = OpenAiCompatibleClient.JSON.createObjectNode();
        b.put("model", model);
        b.put("max_tokens", request.maxTokens());
        String system = request.system() == null ? "" : request.system();
        if (request.json()) {
            system = (system + "\n\nAnswer with a single JSON object and nothing else.").strip();
        }
        if (!system.isBlank()) {
            b.put("system", system);
        }
        ArrayNode messages = b.putArray("messages");
        request.messages().forEach(m -> messages.addObject().put("role", m.role()).put("content", m.content()));
        b.put("temperature", request.temperature());
        if (stream) {
            b.put("stream", true);
        }
        return OpenAiCompatibleClient.JSON.writeValueAsString(b);
    }

    @Override
    public void close() {
    }
}
