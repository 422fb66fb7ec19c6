package io.polyrag.server;

import static io.polyrag.server.Http.intParam;
import static io.polyrag.server.Http.jsonBody;

import io.javalin.http.Context;
import io.polyrag.app.Conversations;
import io.polyrag.app.Json;
import io.polyrag.app.Polyrag;
import io.polyrag.app.wire.SearchWire;
import io.polyrag.core.AnswerUnavailableException;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.NotFoundException;
import io.polyrag.core.config.Settings;
import io.polyrag.core.model.Answer;
import io.polyrag.core.model.SearchRequest;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/** {@code /v1/search} (GET and POST) and {@code /v1/query} (an answer, or server-sent events). */
final class SearchRoutes {
    private static final System.Logger LOG = System.getLogger(SearchRoutes.class.getName());
    /** Messages one request may send; the latest turns are what a follow-up leans on. */
    static final int MAX_MESSAGES = 200;

    private final Polyrag polyrag;
    /** The longest a streamed answer stays silent: a comment then keeps proxies from cutting it. */
    private final Duration heartbeat;

    SearchRoutes(Polyrag polyrag) {
        this.polyrag = polyrag;
        this.heartbeat = Duration.ofSeconds(polyrag.config().get(Settings.HTTP_SSE_HEARTBEAT_SECONDS));
    }

    /** The facets acting for the tenant the request authenticated as. */
    private Polyrag.TenantFacets tenant(Context ctx) {
        return polyrag.as(Auth.tenant(ctx));
    }

    void register(Api api) {
        // No HEAD: it would run and count a search only to send nothing.
        api.stream("/v1/search", this::searchGet).summary("search", "Search every enabled retriever, fused")
                .required("q", "string", "the text to search for").query("top_k", "integer", "hits wanted")
                .queryList("kb", "knowledge bases, comma-separated or repeated; default: all of yours")
                .query("modalities", "string", "vector,fulltext,graph,rdf; default: all enabled")
                .query("fusion", "string", "rrf or weighted")
                .query("explain", "boolean", "add per-modality contributions and the fusion arithmetic")
                .query("category", "string", "only hits of documents with this category")
                .queryList("document_id", "only hits of these documents, comma-separated or repeated")
                .query("rrf_k", "integer", "this search's RRF k, 1-10000")
                .query("candidates", "integer", "each leg's depth for this search, 1-1000 (search.candidates)")
                .query("fulltext_document_weight", "number", "the full-text leg's blend of each passage with its "
                        + "whole document for this search, 0-1 (fulltext.document.weight)")
                .query("vector_document_weight", "number", "the vector leg's blend of each passage with its "
                        + "document's whole vector, where it has one, for this search, 0-1 (vector.document.weight)")
                .query("rerank", "boolean", "false skips the configured reranker")
                .response(200, "the fused hits", SearchWire.Results.class);
        api.post("/v1/search", this::searchPost).summary("search", "Search every enabled retriever, fused")
                .body(api.schemas(), Dtos.SearchBody.class, "query")
                .response(200, "the fused hits", SearchWire.Results.class);
        api.post("/v1/query", this::query).summary("search", "Search, then answer citing numbered sources; "
                + "stream=true answers as server-sent events (token, answer, error); the question is query, or the "
                + "last user message of messages")
                // Neither field alone is required: a request gives query, messages, or both.
                .body(api.schemas(), Dtos.QueryBody.class)
                .response(200, "the answer with its sources (or, with stream, text/event-stream)",
                        SearchWire.AnswerBody.class)
                .problem(502, "the model failed; the sources are still there", Dtos.AnswerProblem.class);
    }

    private void searchGet(Context ctx) {
        // 'q' only: an undeclared ?query= is refused by the parameter check, naming 'q'.
        String query = Http.query(ctx, "q");
        if (query == null) {
            throw new InvalidInputException("query parameter 'q' is missing: /v1/search?q=your+question");
        }
        Integer topK = intParam(ctx, "top_k");
        List<String> kbs = Http.queries(ctx, "kb").stream().flatMap(k -> Arrays.stream(k.split(","))).toList();
        List<String> modalities = Http.query(ctx, "modalities") == null ? List.of()
                : List.of(Http.query(ctx, "modalities").split(","));
        List<String> ids = Http.queries(ctx, "document_id").stream().flatMap(k -> Arrays.stream(k.split(","))).toList();
        SearchRequest request = polyrag.search().request(query).topK(topK).knowledgeBases(kbs)
                .modalityNames(modalities).fusion(Http.query(ctx, "fusion")).documentIds(ids)
                .category(Http.query(ctx, "category")).rrfK(intParam(ctx, "rrf_k"))
                .candidates(intParam(ctx, "candidates"))
                .fulltextDocumentWeight(Http.doubleParam(ctx, "fulltext_document_weight"))
                .vectorDocumentWeight(Http.doubleParam(ctx, "vector_document_weight"))
                .rerank(Http.query(ctx, "rerank") == null ? null : Http.booleanParam(ctx, "rerank")).build();
        // Read before the search runs: a bad value was refused after the search had run and been counted.
        boolean explain = Http.booleanParam(ctx, "explain");
        ctx.json(SearchWire.of(tenant(ctx).search().run(request), explain));
    }

    private void searchPost(Context ctx) {
        Dtos.SearchBody b = Json.read(jsonBody(ctx), Dtos.SearchBody.class);
        if (b.query() == null) {
            throw new InvalidInputException("field 'query' is missing: send {\"query\": \"your question\"}");
        }
        SearchRequest request = polyrag.search().request(b.query()).topK(b.topK()).knowledgeBases(b.knowledgeBases())
                .modalityNames(b.modalities()).fusion(b.fusion()).documentIds(b.documentIds()).category(b.category())
                .rrfK(b.rrfK()).weights(b.weights()).candidates(b.candidates())
                .fulltextDocumentWeight(b.fulltextDocumentWeight()).vectorDocumentWeight(b.vectorDocumentWeight())
                .rerank(b.rerank()).build();
        ctx.json(SearchWire.of(tenant(ctx).search().run(request), Boolean.TRUE.equals(b.explain())));
    }

    // style: the one JSON body of POST /v1/query checked field by field, each naming itself
    private void query(Context ctx) throws IOException {
        Dtos.QueryBody b = Json.read(jsonBody(ctx), Dtos.QueryBody.class);
        // A conversation: the user turns of 'messages' (the OpenAI shape); the last is the question unless 'query'
        // gives it, the others what a follow-up may lean on.
        if (b.messages() != null && b.messages().size() > MAX_MESSAGES) {
            throw new InvalidInputException("'messages' holds " + b.messages().size() + " messages: send at most "
                    + MAX_MESSAGES + " (the latest; earlier turns do not help a follow-up)");
        }
        List<String> turns = new ArrayList<>();
        if (b.messages() != null) {
            for (int i = 0; i < b.messages().size(); i++) {
                Dtos.QueryMessage m = b.messages().get(i);
                if (m == null || m.role() == null) {
                    throw new InvalidInputException("messages[" + i + "] needs 'role' and 'content': send "
                            + "{\"role\": \"user\", \"content\": \"…\"}");
                }
                if (m.role().equals("user")) {
                    if (m.content() == null || !m.content().isString() && !m.content().isArray()) {
                        throw new InvalidInputException("messages[" + i + "].content must be text (a string, or a "
                                + "list of {\"type\": \"text\", \"text\": …} parts)");
                    }
                    turns.add(m.text());
                }
            }
        }
        String question = b.query() != null ? b.query() : turns.isEmpty() ? null : turns.removeLast();
        if (b.query() == null && question != null && question.isBlank()) {
            // Parts with no text (an image alone) were searched as "": "query is empty" named a field never sent.
            int last = b.messages().size() - 1;
            while (!"user".equals(b.messages().get(last).role())) {
                last--;
            }
            throw new InvalidInputException("messages[" + last + "].content holds no text: the last user message "
                    + "is the question, so give it text (a string, or {\"type\": \"text\", \"text\": …} parts)");
        }
        if (question == null) {
            throw new InvalidInputException("field 'query' is missing: send {\"query\": \"your question\"} (or "
                    + "'messages' whose last user message is the question)");
        }
        // A conversation kept on the server is its own history: a client that resends the whole transcript (as
        // OpenAI clients do) with it had every earlier turn stored again each time, and searched with twice. The
        // request's messages start a conversation the server does not hold yet.
        Conversations kept = b.conversationId() == null ? null : tenant(ctx).conversations();
        // A question sent without a scope is asked in the one the conversation's last scoped question had: "And at
        // what temperature?" stays in the kitchen's knowledge base instead of searching all of them.
        // The conversation is read once for both (its scope and its turns).
        List<Conversations.Message> history = kept == null ? List.of() : kept.messages(b.conversationId());
        Conversations.Scope asked = Conversations.Scope.of(b.knowledgeBases(), b.category(), b.documentIds());
        Conversations.Scope scope = asked != null || kept == null ? asked : inherited(ctx, b.conversationId(),
                Conversations.scope(history));
        boolean resumed = false;
        if (kept != null) {
            List<String> stored = new ArrayList<>();
            history.stream().filter(m -> "user".equals(m.role())).forEach(m -> stored.add(m.content()));
            if (!stored.isEmpty()) {
                turns = stored;
                resumed = true;
            }
        }
        boolean keepSent = !resumed;
        SearchRequest request = polyrag.search().answerRequest(question).topK(b.topK())
                .knowledgeBases(scope == null ? null : scope.knowledgeBases()).modalityNames(b.modalities())
                .fusion(b.fusion()).documentIds(scope == null ? null : scope.documentIds())
                .category(scope == null ? null : scope.category()).rrfK(b.rrfK()).weights(b.weights())
                .candidates(b.candidates()).fulltextDocumentWeight(b.fulltextDocumentWeight())
                .vectorDocumentWeight(b.vectorDocumentWeight()).rerank(b.rerank()).build();
        boolean grounding = Boolean.TRUE.equals(b.grounding());
        // Kept once the answer is written (a stream's tokens sent, its last event not yet), and a failure to keep it
        // (the catalog unreachable, a full disk) is logged, not the request's: it lost an answer already paid for, or
        // a stream its sources. The reply then names no conversation.
        Predicate<Answer> keep = a -> {
            if (kept == null) {
                return true;
            }
            try {
                List<Conversations.Message> added = new ArrayList<>();
                if (b.messages() != null && keepSent) {
                    b.messages().stream().filter(m -> m.role().equals("user") || m.role().equals("assistant"))
                            .forEach(m -> added.add(new Conversations.Message(m.role(), m.text())));
                    if (b.query() == null) {
                        // The question itself (the last user message, whatever follows it), added below.
                        for (int i = added.size() - 1; i >= 0; i--) {
                            if ("user".equals(added.get(i).role())) {
                                added.remove(i);
                                break;
                            }
                        }
                    }
                }
                added.add(new Conversations.Message("user", question, scope));
                added.add(new Conversations.Message("assistant", a.answer()));
                // Deleted while this answer was written: not made again (the reply then names no conversation).
                return kept.append(b.conversationId(), added, !keepSent);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "the answer was sent but not kept in conversation "
                        + b.conversationId() + ": " + e.getMessage());
                return false;
            }
        };
        if (Boolean.TRUE.equals(b.stream())) {
            streamAnswer(ctx, request, b.neighbours(), grounding, turns, b.route(), new Asked(question,
                    b.conversationId(), keep));
        } else {
            Answer a;
            try (ClientProbe gone = ClientProbe.of(ctx)) {
                a = tenant(ctx).search().answer(request, b.neighbours(), grounding, EventStream.stopWhen(gone),
                        turns, b.route());
            }
            // Not kept: the reply names no conversation, so a client does not lean on a turn the server lacks.
            ctx.json(SearchWire.of(a, question, keep.test(a) ? b.conversationId() : null));
        }
    }

    /** The question as asked, the conversation it belongs to (or null), and what keeps the answer in it. */
    private record Asked(String question, String conversationId, Predicate<Answer> keep) {
    }

    /**
     * Server-sent events: {@code token} ({@code {"text": …}}) as the answer is written, then {@code answer} (the
     * whole answer with its sources), or {@code error} (a problem, with the sources when retrieval worked). A
     * failure before the first event is an ordinary problem response ({@link EventStream}).
     */
    /**
     * The scope a conversation's question inherits, without the knowledge bases deleted since it was asked: each
     * later question of the conversation was a 404 naming one the request never named.
     */
    private Conversations.Scope inherited(Context ctx, String conversation, Conversations.Scope scope) {
        if (scope == null || scope.knowledgeBases().isEmpty()) {
            return scope;
        }
        var kbs = tenant(ctx).knowledgeBases();
        List<String> left = scope.knowledgeBases().stream().filter(kbs::exists).toList();
        if (left.isEmpty()) {
            // An empty list would widen it to all of them: the user says where to ask instead.
            throw new NotFoundException("conversation '" + conversation + "' was asked in knowledge base "
                    + String.join(", ", scope.knowledgeBases()) + ", deleted since: send \"kb\" with the question "
                    + "(\"kb\": [] asks all of yours)");
        }
        return left.size() == scope.knowledgeBases().size() ? scope : new Conversations.Scope(left, scope.category(),
                scope.documentIds());
    }

    private void streamAnswer(Context ctx, SearchRequest request, Integer neighbours, boolean grounding,
            List<String> history, Boolean route, Asked asked) {
        EventStream out = new EventStream(ctx, heartbeat);
        try {
            Answer a = tenant(ctx).search().answer(request, neighbours, grounding,
                    token -> event(out, "token", Map.of("text", token)), history, route);
            // Kept first: the answer names the conversation only when its turn is there to lean on, as unstreamed.
            boolean kept = asked.keep().test(a);
            out.stop();
            event(out, "answer", SearchWire.of(a, asked.question(), kept ? asked.conversationId() : null));
        } catch (AnswerUnavailableException e) {
            out.stop();
            if (!out.opened()) {
                throw e;
            }
            event(out, "error", new Dtos.AnswerProblem("about:blank", "Bad Gateway", 502, e.getMessage(),
                    SearchWire.sources(e.sources())));
        } catch (RuntimeException e) {
            out.stop();
            if (!out.opened()) {
                throw e;
            }
            Problem p = ProblemMapper.inStream(e, ctx);
            if (p != null) {
                event(out, "error", p);
            }
        } finally {
            out.stop(); // an Error too: no heartbeat after the handler has returned
        }
    }

    private static void event(EventStream out, String name, Object data) {
        out.write("event: " + name + "\ndata: " + Json.MAPPER.writeValueAsString(data) + "\n\n");
    }
}
