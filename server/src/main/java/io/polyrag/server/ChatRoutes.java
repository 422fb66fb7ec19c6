package io.polyrag.server;

import static io.polyrag.server.Http.jsonBody;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.javalin.http.Context;
import io.polyrag.app.Json;
import io.polyrag.app.Polyrag;
import io.polyrag.app.Search;
import io.polyrag.app.wire.SearchWire;
import io.polyrag.core.AnswerUnavailableException;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.NotFoundException;
import io.polyrag.core.config.Settings;
import io.polyrag.core.model.Answer;
import io.polyrag.core.model.Ids;
import io.polyrag.core.model.KnowledgeBaseInfo;
import io.polyrag.core.model.SearchRequest;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import tools.jackson.databind.JsonNode;

/**
 * The OpenAI-compatible routes, so any OpenAI-speaking client or agent framework can use a knowledge base as a model:
 * {@code GET /v1/models} lists {@code polyrag} (all your knowledge bases) and {@code polyrag/<kb>} (one), and
 * {@code POST /v1/chat/completions} answers the last user message with polyrag's cited answer — extractive offline,
 * the configured language model otherwise — streamed as {@code chat.completion.chunk}s with {@code stream: true}.
 * The sources come with the response ({@code sources}, on the last chunk when streaming). Fields the OpenAI API has
 * and polyrag does not use (temperature, n, tools, …) are accepted and ignored, as OpenAI-compatible servers do.
 */
final class ChatRoutes {
    static final String MODEL = "polyrag";
    private final Polyrag polyrag;
    /** The longest a streamed answer stays silent: a comment then keeps proxies from cutting it. */
    private final Duration heartbeat;

    /** One model, as OpenAI lists them. */
    record Model(String id, String object, long created, @JsonProperty("owned_by") String ownedBy) {
    }

    /** {@code GET /v1/models}. */
    record ModelList(String object, List<Model> data) {
    }

    /** A chat message. */
    record Message(String role, String content) {
    }

    /** A completion's choice. */
    record Choice(int index, Message message, @JsonProperty("finish_reason") String finishReason) {
    }

    /** Token counts (polyrag does not count them: zeros, as the field is expected). */
    record Usage(@JsonProperty("prompt_tokens") int promptTokens,
            @JsonProperty("completion_tokens") int completionTokens, @JsonProperty("total_tokens") int totalTokens) {
    }

    /**
     * {@code POST /v1/chat/completions} without {@code stream}; beside OpenAI's fields, the sources, the legs that
     * failed and the warnings ("N documents are still being indexed"), as {@code /v1/query} gives them: without
     * them a chat client got "not found" with no hint why.
     */
    record Completion(String id, String object, long created, String model, List<Choice> choices, Usage usage,
            List<SearchWire.Source> sources, List<SearchWire.Degraded> degraded, List<String> warnings) {
    }

    /** What a streamed chunk's choice adds. */
    record Delta(String role, String content) {
    }

    /** A streamed chunk's choice. */
    record ChunkChoice(int index, Delta delta, @JsonProperty("finish_reason") String finishReason) {
    }

    /** One {@code chat.completion.chunk}; the last carries the sources, the failed legs and the warnings. */
    record Chunk(String id, String object, long created, String model, List<ChunkChoice> choices,
            List<SearchWire.Source> sources, List<SearchWire.Degraded> degraded, List<String> warnings) {
        Chunk(String id, String object, long created, String model, List<ChunkChoice> choices,
                List<SearchWire.Source> sources) {
            this(id, object, created, model, choices, sources, null, null);
        }
    }

    /** The fields polyrag reads from a chat request (others are accepted and ignored). */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record ChatBody(String model, List<Dtos.QueryMessage> messages, Boolean stream) {
    }

    ChatRoutes(Polyrag polyrag) {
        this.polyrag = polyrag;
        this.heartbeat = Duration.ofSeconds(polyrag.config().get(Settings.HTTP_SSE_HEARTBEAT_SECONDS));
    }

    void register(Api api) {
        api.get("/v1/models", this::models).summary("openai", "Your knowledge bases as models (OpenAI format)")
                .response(200, "the models", ModelList.class);
        api.post("/v1/chat/completions", this::complete).summary("openai", "Answer the last user message with "
                + "cited sources (OpenAI chat format; stream=true for chat.completion.chunk events)")
                .body(api.schemas(), ChatBody.class, "model", "messages")
                .response(200, "the completion (or, with stream, text/event-stream of chunks)", Completion.class)
                .problem(502, "the model failed; the sources are still there", Dtos.AnswerProblem.class);
    }

    private void models(Context ctx) {
        long now = System.currentTimeMillis() / 1000;
        List<Model> out = new ArrayList<>();
        out.add(new Model(MODEL, "model", now, MODEL));
        for (KnowledgeBaseInfo kb : polyrag.as(Auth.tenant(ctx)).knowledgeBases().list()) {
            out.add(new Model(MODEL + "/" + kb.name(), "model", kb.createdAt().getEpochSecond(), MODEL));
        }
        ctx.json(new ModelList("list", out));
    }

    private void complete(Context ctx) throws IOException {
        JsonNode body = Json.read(jsonBody(ctx), JsonNode.class);
        if (body == null || !body.isObject()) {
            throw new InvalidInputException("the body must be a JSON object: {\"model\": \"polyrag\", \"messages\": "
                    + "[{\"role\": \"user\", \"content\": \"your question\"}]}");
        }
        String model = text(body.get("model"), "model");
        List<String> kbs = knowledgeBases(ctx, model);
        List<String> turns = userMessages(body.get("messages"));
        String question = turns.getLast();
        List<String> history = turns.subList(0, turns.size() - 1);
        JsonNode stream = body.get("stream");
        if (stream != null && !stream.isBoolean() && !stream.isNull()) {
            throw new InvalidInputException("field 'stream' must be true or false");
        }
        var search = polyrag.as(Auth.tenant(ctx)).search();
        SearchRequest request = search.answerRequest(question).knowledgeBases(kbs).build();
        String id = "chatcmpl-" + UUID.randomUUID().toString().replace("-", "");
        long created = System.currentTimeMillis() / 1000;
        if (stream != null && stream.asBoolean()) {
            streamCompletion(ctx, search, request, history, new Chunk(id, "chat.completion.chunk", created, model,
                    List.of(), null));
            return;
        }
        Answer a = whole(ctx, search, request, history);
        ctx.json(new Completion(id, "chat.completion", created, model, List.of(new Choice(0, new Message("assistant",
                content(a)), a.cut() ? "length" : a.filtered() ? "content_filter" : "stop")), new Usage(0, 0, 0),
                SearchWire.sources(a.sources()), SearchWire.degraded(a.degraded()), a.warnings()));
    }

    /** A streamed completion; {@code head} gives each chunk's id, creation time and model. */
    private void streamCompletion(Context ctx, Search search, SearchRequest request, List<String> history, Chunk head) {
        String id = head.id();
        long created = head.created();
        String model = head.model();
        // Opened by the first chunk, so a refusal before it (429 with Retry-After, 400, a model down before its
        // first token) is an ordinary error response, which the OpenAI clients retry or raise as such.
        EventStream out = new EventStream(ctx, heartbeat);
        Chunk role = new Chunk(id, "chat.completion.chunk", created, model, List.of(new ChunkChoice(0,
                new Delta("assistant", ""), null)), null);
        boolean[] streamed = {false};
        Answer a;
        try {
            a = search.answer(request, null, false, token -> {
                if (token.isEmpty()) {
                    return;
                }
                if (!streamed[0]) {
                    send(out, role);
                }
                streamed[0] = true;
                send(out, new Chunk(id, "chat.completion.chunk", created, model, List.of(new ChunkChoice(0,
                        new Delta(null, token), null)), null));
            }, history);
        } catch (RuntimeException e) {
            out.stop();
            if (!out.opened()) {
                throw e;
            }
            streamError(ctx, out, e);
            return;
        } catch (Error e) {
            out.stop(); // no heartbeat after the handler has returned
            throw e;
        }
        out.stop();
        if (!streamed[0]) {
            send(out, role);
        }
        if (!streamed[0] || a.answer().isBlank() && !content(a).isBlank()) {
            // Nothing streamed, or only blanks (a model that wrote "\n\n"): the reply is what a request without
            // stream gets, the note saying why there is no answer.
            send(out, new Chunk(id, "chat.completion.chunk", created, model, List.of(new ChunkChoice(0,
                    new Delta(null, content(a)), null)), null));
        }
        send(out, new Chunk(id, "chat.completion.chunk", created, model, List.of(new ChunkChoice(0,
                new Delta(null, null), a.cut() ? "length" : a.filtered() ? "content_filter" : "stop")),
                SearchWire.sources(a.sources()), SearchWire.degraded(a.degraded()), a.warnings()));
        out.write("data: [DONE]\n\n");
    }

    /** An answer written whole, stopped when its client hangs up before it is. */
    private static Answer whole(Context ctx, Search search, SearchRequest request, List<String> history) {
        try (ClientProbe gone = ClientProbe.of(ctx)) {
            return search.answer(request, null, false, EventStream.stopWhen(gone), history);
        }
    }

    /**
     * The reply's text: the answer, or when it is empty (nothing found, no sentence of the sources shares a word with
     * the question) the note saying so. An empty content was an empty bubble in every chat client, a broken server to
     * the user.
     */
    private static String content(Answer a) {
        return a.answer().isBlank() && a.note() != null ? a.note() : a.answer();
    }

    /** {@code polyrag}: every knowledge base of yours; {@code polyrag/<kb>}: that one, which must exist. */
    private List<String> knowledgeBases(Context ctx, String model) {
        if (model.equals(MODEL)) {
            return List.of();
        }
        if (!model.startsWith(MODEL + "/")) {
            throw new NotFoundException("no model '" + Ids.abbreviate(model, 80) + "': use "
                    + "'polyrag' (all your knowledge bases) or 'polyrag/<knowledge base>' (GET /v1/models lists them)");
        }
        String kb = model.substring(MODEL.length() + 1);
        // Its names only: a chat request paid a count of the knowledge base's documents to learn it exists.
        polyrag.as(Auth.tenant(ctx)).knowledgeBases().require(kb);
        return List.of(kb);
    }

    /**
     * The user messages' texts, oldest first (the last is the question; the others the conversation it follows); each
     * content a string or a list of text parts.
     */
    static List<String> userMessages(JsonNode messages) {
        if (messages == null || !messages.isArray() || messages.isEmpty()) {
            throw new InvalidInputException("field 'messages' must be a non-empty list of {\"role\", \"content\"}");
        }
        if (messages.size() > SearchRoutes.MAX_MESSAGES) {
            // As /v1/query: half a million one-letter turns were all kept for the answer's whole run.
            throw new InvalidInputException("'messages' holds " + messages.size() + " messages: send at most "
                    + SearchRoutes.MAX_MESSAGES + " (the latest; earlier turns do not help a follow-up)");
        }
        int last = -1;
        for (int i = 0; i < messages.size(); i++) {
            JsonNode m = messages.get(i);
            if (m.isObject() && "user".equals(m.path("role").asString(""))) {
                last = i;
            }
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < messages.size(); i++) {
            JsonNode m = messages.get(i);
            if (m.isObject() && "user".equals(m.path("role").asString(""))) {
                if (i == last) {
                    out.add(userText(m, i)); // the question must be text
                } else {
                    try {
                        out.add(userText(m, i));
                    } catch (InvalidInputException notText) {
                        // An earlier turn with only an image: nothing a follow-up could lean on.
                    }
                }
            }
        }
        if (out.isEmpty()) {
            throw new InvalidInputException("no message with role 'user' in 'messages': the last one is the question");
        }
        return out;
    }

    private static String userText(JsonNode m, int i) {
        JsonNode c = m.get("content");
        if (c != null && c.isString()) {
            return c.asString();
        }
        if (c != null && c.isArray()) {
            StringBuilder sb = new StringBuilder();
            for (JsonNode part : c) {
                if ("text".equals(part.path("type").asString("")) && part.path("text").isString()) {
                    sb.append(sb.isEmpty() ? "" : "\n").append(part.get("text").asString());
                }
            }
            if (!sb.isEmpty()) {
                return sb.toString();
            }
        }
        throw new InvalidInputException("messages[" + i + "].content must be text (a string, or a list of "
                + "{\"type\": \"text\", \"text\": …} parts)");
    }

    private static String text(JsonNode n, String field) {
        if (n == null || !n.isString() || n.asString().isBlank()) {
            throw new InvalidInputException("field '" + field + "' must be a string: 'polyrag' or 'polyrag/<knowledge "
                    + "base>'");
        }
        return n.asString();
    }

    /** Headers are sent: the error travels as OpenAI streams it, then the stream ends. */
    private static void streamError(Context ctx, EventStream out, RuntimeException e) {
        Problem p = e instanceof AnswerUnavailableException ? Problem.of(502, "Bad Gateway", e.getMessage())
                : ProblemMapper.inStream(e, ctx);
        if (p == null) {
            return; // the client went away
        }
        out.write("data: " + Json.MAPPER.writeValueAsString(Map.of("error", Map.of("message", String.valueOf(
                p.detail()), "type", p.status() == 502 ? "model_error" : p.status() >= 500 ? "server_error"
                        : "invalid_request_error", "code", p.status()))) + "\n\n");
        out.write("data: [DONE]\n\n");
    }

    private static void send(EventStream out, Chunk chunk) {
        out.write("data: " + Json.MAPPER.writeValueAsString(chunk) + "\n\n");
    }
}
