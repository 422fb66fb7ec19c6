package io.polyrag.model.llm;

import io.polyrag.core.http.Outbound;
import io.polyrag.core.http.OutboundException;
import io.polyrag.core.model.Ids;
import io.polyrag.core.port.LlmClient;
import java.net.URI;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * OpenAI-compatible chat completions ({@code POST <base>/chat/completions}): OpenAI, OpenRouter, Ollama, vLLM,
 * LM Studio. The base URL includes the version path (e.g. {@code http://localhost:11434/v1}). Streaming reads the
 * server-sent {@code data:} chunks up to {@code [DONE]}, asking for usage in the last chunk.
 */
public final class OpenAiCompatibleClient implements LlmClient {
    static final JsonMapper JSON = JsonMapper.builder().build();

    private final URI endpoint;
    private final String apiKey;
    private final String model;
    private final Outbound http;

    OpenAiCompatibleClient(String baseUrl, String apiKey, String model, Outbound http) {
        this.endpoint = URI.create(baseUrl.replaceAll("/+$", "") + "/chat/completions");
        this.apiKey = apiKey;
        this.model = model;
        this.http = http;
    }

    /** {@code response_format: json_object} makes the server return JSON, unless the server refused it. */
    @Override
    public boolean strictJson() {
        return !noResponseFormat;
    }

    @Override
    public String id() {
        return "openai-compatible:" + model;
    }

    /** Send {@code max_completion_tokens}, not {@code max_tokens}: OpenAI's reasoning models refuse the older one. */
    private volatile boolean completionTokens;
    /** Send no temperature: reasoning models accept only their default. */
    private volatile boolean defaultTemperature;
    /** Send no response_format: LM Studio accepts only json_schema or text ("'response_format.type' must be …"). */
    private volatile boolean noResponseFormat;
    /** Send no stream_options: Mistral's API refuses it (422 extra_forbidden); usage is then estimated. */
    private volatile boolean noStreamOptions;

    /**
     * Whether a refusal names a parameter this model does not take (OpenAI's reasoning models: {@code max_tokens},
     * a temperature other than their default), now left out or renamed for this and every later call.
     */
    private boolean adapted(OutboundException e, int sent) {
        String m = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
        if (e.status() != 400 && e.status() != 422) {
            return false;
        }
        // Judged by what this request was built with, not by the flags now: the first calls of a fresh server are
        // often several at once, and all but the one that set a flag failed with the refusal it had fixed.
        if ((sent & NO_RESPONSE_FORMAT) == 0 && m.contains("response_format")) {
            noResponseFormat = true;
            return true;
        }
        if ((sent & NO_STREAM_OPTIONS) == 0 && m.contains("stream_options")) {
            noStreamOptions = true;
            return true;
        }
        // Only a refusal of the parameter itself: vLLM's "'max_tokens' or 'max_completion_tokens' is too large" (a
        // context overflow) was resent, failed alike, and the flag stayed on.
        if ((sent & COMPLETION_TOKENS) == 0 && m.contains("max_tokens") && m.contains("max_completion_tokens")
                && (m.contains("unsupported") || m.contains("not supported") || m.contains("instead"))) {
            completionTokens = true;
            return true;
        }
        if ((sent & DEFAULT_TEMPERATURE) == 0 && m.contains("temperature") && (m.contains("unsupported")
                || m.contains("not supported") || m.contains("does not support") || m.contains("only the default"))) {
            defaultTemperature = true;
            return true;
        }
        return false;
    }

    /** Finish reasons of a reply cut short by a limit: OpenAI's "length", Mistral's "model_length" (context full). */
    private static final Set<String> CUT = Set.of("length", "model_length");

    private static final int NO_RESPONSE_FORMAT = 1;
    private static final int NO_STREAM_OPTIONS = 2;
    private static final int COMPLETION_TOKENS = 4;
    private static final int DEFAULT_TEMPERATURE = 8;

    /** The adaptations a request built now carries. */
    private int flags() {
        return (noResponseFormat ? NO_RESPONSE_FORMAT : 0) | (noStreamOptions ? NO_STREAM_OPTIONS : 0)
                | (completionTokens ? COMPLETION_TOKENS : 0) | (defaultTemperature ? DEFAULT_TEMPERATURE : 0);
    }

    @Override
    public Response complete(Request request) {
        String body;
        int sent = flags();
        try {
            body = http.postJson(endpoint, headers(), body(request, false), OpenAiCompatibleClient::error);
        } catch (OutboundException e) {
            if (!adapted(e, sent)) {
                throw e;
            }
            return complete(request);
        }
        JsonNode r = parse(id(), body);
        JsonNode choice = r.path("choices").path(0);
        if (choice.isMissingNode()) {
            throw new OutboundException(id(), 200, "the response has no choices: " + abbreviate(body), null);
        }
        return new Response(text(choice.path("message").path("content")), r.path("model").asString(model),
                r.path("usage").path("prompt_tokens").asInt(0), r.path("usage").path("completion_tokens").asInt(0),
                CUT.contains(choice.path("finish_reason").asString("")),
                Response.stoppedBy(choice.path("finish_reason").asString("")));
    }

    /**
     * A stream that ended with no end: a server that ignored "stream" and answered one completion, read as such, or
     * a failure (cut off by a closed connection, or not a stream at all, a proxy's page): not a whole answer.
     */
    private Response unended(StringBuilder text, StringBuilder plain, Consumer<String> onToken) {
        if (text.isEmpty() && !plain.isEmpty()) {
            Response whole = completion(plain.toString().strip());
            if (whole != null) {
                if (!whole.text().isEmpty()) {
                    onToken.accept(whole.text());
                }
                return whole;
            }
        }
        throw new OutboundException(id(), 200, "the stream ended before the model finished (no finish_reason and no "
                + "[DONE]" + (text.isEmpty() ? "; nothing streamed: is the base URL an OpenAI-compatible API?" : "")
                + ")", null);
    }

    /** The most of a non-stream reply to a stream request kept, to read it as one completion. */
    private static final int MAX_PLAIN_REPLY = 4 << 20;

    /** A whole chat completion's JSON as a response; null when it is not one. */
    private Response completion(String body) {
        JsonNode r;
        try {
            r = JSON.readTree(body);
        } catch (RuntimeException e) {
            return null;
        }
        JsonNode message = r == null ? null : r.path("choices").path(0).path("message");
        if (message == null || !message.path("content").isString() && !message.path("content").isArray()) {
            return null;
        }
        return new Response(text(message.path("content")), r.path("model").asString(model),
                r.path("usage").path("prompt_tokens").asInt(0), r.path("usage").path("completion_tokens").asInt(0),
                CUT.contains(r.path("choices").path(0).path("finish_reason").asString("")),
                Response.stoppedBy(r.path("choices").path(0).path("finish_reason").asString("")));
    }

    @Override
    public Response stream(Request request, Consumer<String> onToken) {
        StringBuilder text = new StringBuilder();
        int[] usage = {0, 0};
        String[] answeredBy = {model};
        boolean[] ended = {false};
        boolean[] cut = {false};
        String[] stopped = {null};
        StringBuilder plain = new StringBuilder();
        Consumer<String> read = line -> {
            if (!line.startsWith("data:")) {
                if (plain.length() < MAX_PLAIN_REPLY) {
                    plain.append(line).append('\n'); // a server that ignored "stream": one JSON completion
                }
                return;
            }
            String data = line.substring(5).strip();
            if (data.equals("[DONE]")) {
                ended[0] = true;
                return;
            }
            if (data.isEmpty()) {
                return;
            }
            JsonNode chunk = parse(id(), data);
            if (chunk.has("error")) {
                throw streamError(chunk.path("error"), text.isEmpty());
            }
            answeredBy[0] = chunk.path("model").asString(answeredBy[0]);
            ended[0] |= chunk.path("choices").path(0).path("finish_reason").isString();
            cut[0] |= CUT.contains(chunk.path("choices").path(0).path("finish_reason").asString(""));
            stopped[0] = stopped[0] != null ? stopped[0] : Response.stoppedBy(chunk.path("choices").path(0)
                    .path("finish_reason").asString(""));
            String piece = text(chunk.path("choices").path(0).path("delta").path("content"));
            if (!piece.isEmpty()) {
                text.append(piece);
                onToken.accept(piece);
            }
            if (chunk.path("usage").isObject()) {
                usage[0] = chunk.path("usage").path("prompt_tokens").asInt(0);
                usage[1] = chunk.path("usage").path("completion_tokens").asInt(0);
            }
        };
        int sent = flags();
        try {
            http.postStream(endpoint, headers(), body(request, true), OpenAiCompatibleClient::error, read);
        } catch (OutboundException e) {
            if (!text.isEmpty() || !adapted(e, sent)) {
                throw e;
            }
            return stream(request, onToken);
        }
        if (!ended[0]) {
            return unended(text, plain, onToken);
        }
        return new Response(text.toString(), answeredBy[0], usage[0], usage[1], cut[0], stopped[0]);
    }

    /** An error sent inside a stream: an upstream failing behind a router (429, 5xx) before any text is tried again. */
    private OutboundException streamError(JsonNode error, boolean nothingYet) {
        String message = error.path("message").asString("error in stream");
        int code = error.path("code").asInt(0);
        if (nothingYet && (code == 429 || code >= 500 || "server_error".equals(error.path("type").asString("")))) {
            return new OutboundException.Transient(id(), 200, message, null);
        }
        return new OutboundException(id(), 200, message, null);
    }

    private Map<String, String> headers() {
        return apiKey == null || apiKey.isBlank() ? Map.of() : Map.of("Authorization", "Bearer " + apiKey);
    }

    private String body(Request request, boolean stream) {
        ObjectNode b = JSON.createObjectNode();
        b.put("model", model);
        ArrayNode messages = b.putArray("messages");
        if (request.system() != null && !request.system().isBlank()) {
            messages.addObject().put("role", "system").put("content", request.system());
        }
        request.messages().forEach(m -> messages.addObject().put("role", m.role()).put("content", m.content()));
        b.put(completionTokens ? "max_completion_tokens" : "max_tokens", request.maxTokens());
        if (!defaultTemperature) {
            b.put("temperature", request.temperature());
        }
        if (request.json() && !noResponseFormat) {
            b.putObject("response_format").put("type", "json_object");
        }
        if (stream) {
            b.put("stream", true);
            if (!noStreamOptions) {
                b.putObject("stream_options").put("include_usage", true);
            }
        }
        return JSON.writeValueAsString(b);
    }

    /**
     * The model's answer or stream chunk as JSON; text that is not JSON is the provider's failure (the answer is a
     * 502 naming it), not an internal error that cut an answer's stream off.
     */
    static JsonNode parse(String provider, String text) {
        try {
            return JSON.readTree(text);
        } catch (RuntimeException e) {
            throw new OutboundException(provider, 200, "the model answered with something that is not JSON: "
                    + Ids.abbreviate(text, 80), e);
        }
    }

    /**
     * A message's content: a string, or (Mistral's Magistral models) an array of parts whose text parts are joined;
     * read as a string only, such a reply was empty.
     */
    static String text(JsonNode content) {
        if (content.isArray()) {
            StringBuilder sb = new StringBuilder();
            for (JsonNode part : content) {
                if (part.isString()) {
                    sb.append(part.asString());
                } else if ("text".equals(part.path("type").asString("")) || part.path("text").isString()) {
                    sb.append(part.path("text").asString(""));
                }
            }
            return sb.toString();
        }
        return content.asString("");
    }

    /** The provider's own message from an error body ({@code {"error": {"message": …}}}), else the body. */
    static String error(String body) {
        try {
            JsonNode n = JSON.readTree(body);
            JsonNode e = n.path("error");
            String m = e.isObject() ? e.path("message").asString("") : e.asString("");
            return m.isBlank() ? abbreviate(body) : m;
        } catch (RuntimeException e) {
            return abbreviate(body);
        }
    }

    static String abbreviate(String s) {
        String flat = s == null ? "" : s.replaceAll("\\s+", " ").strip();
        return flat.length() <= 300 ? flat : flat.substring(0, 300) + "…";
    }

    @Override
    public void close() {
    }
}
