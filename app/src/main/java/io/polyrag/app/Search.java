package io.polyrag.app;

import io.polyrag.core.AnswerUnavailableException;
import io.polyrag.core.config.Config;
import io.polyrag.core.config.Settings;
import io.polyrag.core.model.Answer;
import io.polyrag.core.model.Modality;
import io.polyrag.core.model.SearchRequest;
import io.polyrag.core.model.SearchResponse;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.Tenant;
import io.polyrag.core.port.Catalog;
import io.polyrag.retrieval.AnswerService;
import io.polyrag.retrieval.Condenser;
import io.polyrag.retrieval.FollowUp;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** Search (every enabled retriever in parallel, fused) and answers with numbered, cited sources. */
public final class Search {
    private final Retrieval retrieval;
    private final Catalog catalog;
    private final Indexing indexing;
    private final Usage usage;
    private final Tracing tracing;
    private final Config config;
    private final Tenant tenant;
    private final KbFusion fusion;
    private final CategoryDocuments categories;

    /**
     * @param indexing what is being indexed now, for the warning that results may still change
     * @param fusion the knowledge bases' own fusion tunings
     * @param categories the documents of each category searched lately
     */
    // style: a tenant's search, made per request from the shared parts it searches with
    Search(Retrieval retrieval, Catalog catalog, Indexing indexing, Usage usage, Tracing tracing, Config config,
            Tenant tenant, KbFusion fusion, CategoryDocuments categories) {
        this.categories = categories;
        this.retrieval = retrieval;
        this.catalog = catalog;
        this.indexing = indexing;
        this.usage = usage;
        this.tracing = tracing;
        this.config = config;
        this.tenant = tenant;
        this.fusion = fusion;
    }

    /** Searches the knowledge bases the request names (checked), or all of the tenant's when it names none. */
    public SearchResponse run(SearchRequest request) {
        // A search refused (an empty query, top_k past the limit, an unknown knowledge base) is neither counted nor
        // charged to the per-minute quota: a client's typo used up the tenant's window.
        retrieval.searcher().validate(request);
        SearchScope scope = Scope.of(catalog, tenant, request.knowledgeBases());
        usage.searched(tenant.id(), UsageMeter.SEARCHES);
        // The model tokens a search spends (reranking, expansion, text-to-Cypher) are the tenant's.
        return UsageMeter.countedFor(tenant.id(), () -> traced(request, scope));
    }

    private SearchResponse traced(SearchRequest request, SearchScope scope) {
        return tracing.span("search", s -> {
            s.setAttribute("polyrag.top_k", (long) request.topK());
            s.setAttribute("polyrag.tenant", tenant.name().isEmpty() ? "-" : tenant.name());
        }, r -> s -> {
            s.setAttribute("polyrag.hits", (long) r.hits().size());
            s.setAttribute("polyrag.modalities", String.join(",", r.modalities().stream()
                    .map(Modality::wireName).toList()));
            if (!r.degraded().isEmpty()) {
                s.setAttribute("polyrag.degraded", String.join("; ", r.degraded().stream()
                        .map(d -> d.modality().wireName() + ": " + d.reason()).toList()));
            }
            if (r.fusion() != null) {
                s.setAttribute("polyrag.fusion", r.fusion());
            }
        }, () -> searchNow(request, scope));
    }

    private SearchResponse searchNow(SearchRequest request, SearchScope scope) {
        boolean[] wideCategory = {false};
        SearchRequest scoped = scoped(request, scope, wideCategory);
        KbFusion.Applied tuned = fusion.apply(scoped);
        SearchResponse r = Shown.of(tenant, retrieval.searcher().search(tuned.request()));
        // Naming none, all of the tenant's: those a queued job is about to create too.
        var indexingNow = indexing.warning(tenant, request.knowledgeBases().isEmpty() ? List.of()
                : scoped.knowledgeBases());
        // A large category is filtered after each leg's best candidates: fewer hits than asked said nothing of why.
        boolean thinCategory = wideCategory[0] && r.hits().size() < scoped.topK();
        String unused = unusedTuning(tuned.request().tuning(), String.valueOf(r.fusion()));
        if (indexingNow.isEmpty() && tuned.note().isEmpty() && !thinCategory && unused == null) {
            return r;
        }
        List<String> warnings = new ArrayList<>(r.warnings());
        indexingNow.ifPresent(warnings::add);
        if (unused != null) {
            warnings.add(unused);
        }
        if (thinCategory) {
            warnings.add("category '" + scoped.category() + "' holds more than " + SearchRequest.MAX_DOCUMENT_IDS
                    + " documents, so no store filters by it: its hits are those among each leg's best candidates, "
                    + "and fewer than top_k came back; raise 'candidates', or name its documents in document_ids");
        }
        return new SearchResponse(r.query(), r.tookMs(), r.modalities(), r.degraded(), r.hits(), warnings,
                r.fusion() + tuned.note());
    }

    /**
     * What a request asked of the fusion method it was not fused by: an {@code rrf_k} under weighted fusion (the
     * default) or {@code weights} under RRF changed nothing, said nothing, and still set a tuned knowledge base's
     * fusion aside.
     */
    static String unusedTuning(SearchRequest.Tuning asked, String fusion) {
        if (asked.rrfK() != null && fusion.startsWith("weighted")) {
            return "rrf_k is used by fusion=rrf only: this search was fused by weighted scores, so it changed nothing "
                    + "(send fusion=rrf with it)";
        }
        if (!asked.weights().isEmpty() && fusion.startsWith("rrf")) {
            return "weights are used by fusion=weighted only: this search was fused by rrf, so they changed nothing "
                    + "(send fusion=weighted with them)";
        }
        return null;
    }

    /**
     * The request over the knowledge bases it names, checked and in the tenant's namespace (all of the tenant's when
     * it names none).
     */
    private SearchRequest scoped(SearchRequest request, SearchScope scope, boolean[] wideCategory) {
        SearchRequest scoped = request.over(scope.knowledgeBases());
        if (scoped.category() == null || !scoped.documentIds().isEmpty()) {
            return scoped;
        }
        // No store filters by category: the catalog drops the legs' hits of other categories afterwards, so a small
        // category's documents, rarely in any leg's best hundred, came back thin or not at all. A category of at
        // most MAX_DOCUMENT_IDS documents is searched as those documents, which every store filters by.
        List<String> inCategory = categories.ids(scoped.scope(), SearchRequest.MAX_DOCUMENT_IDS);
        wideCategory[0] = inCategory == null;
        if (inCategory == null || inCategory.isEmpty()) {
            return scoped;
        }
        return scoped.toBuilder().documentIds(inCategory).build();
    }

    /**
     * Searches, then answers with numbered sources (one number per document, neighbouring chunks woven in).
     *
     * @param neighbours chunks added on each side of a hit; null for the configured default
     */
    public Answer answer(SearchRequest request, Integer neighbours) {
        return answer(request, neighbours, false, t -> { });
    }

    /**
     * Like {@link #answer(SearchRequest, Integer)}, with an optional grounding report (which sources support each
     * sentence), passing the answer's text to {@code onToken} as it is written.
     */
    public Answer answer(SearchRequest request, Integer neighbours, boolean grounding, Consumer<String> onToken) {
        return answer(request, neighbours, grounding, onToken, (Boolean) null);
    }

    /**
     * Like {@link #answer(SearchRequest, Integer, boolean, Consumer)}, with the intent router on or off for this
     * question ({@code route}; null for {@code answer.router}): it decides first what the question asks for, and
     * the answer says what it decided ({@link Answer#route()}).
     */
    public Answer answer(SearchRequest request, Integer neighbours, boolean grounding, Consumer<String> onToken,
            Boolean route) {
        return answer(request, neighbours, grounding, onToken, List.of(), route);
    }

    private Answer answerNow(SearchRequest request, SearchScope scope, Integer neighbours, boolean grounding,
            Consumer<String> onToken, boolean route) {
        try {
            boolean[] wideCategory = {false};
            SearchRequest scoped = fusion.apply(scoped(request, scope, wideCategory)).request();
            Answer a = Shown.of(tenant, retrieval.answers().answer(scoped, neighbours == null
                    ? config.get(Settings.ANSWER_NEIGHBOURS) : neighbours, grounding, onToken, route));
            // As a search's: an ingest still running, a category too large for the stores to filter by.
            List<String> more = new ArrayList<>();
            indexing.warning(tenant, request.knowledgeBases().isEmpty() ? List.of() : scoped.knowledgeBases())
                    .ifPresent(more::add);
            if (wideCategory[0]) {
                more.add("category '" + scoped.category() + "' holds more than " + SearchRequest.MAX_DOCUMENT_IDS
                        + " documents, so no store filters by it: the sources are those among each leg's best "
                        + "candidates");
            }
            return a.warned(more);
        } catch (AnswerUnavailableException e) {
            throw Shown.of(tenant, e);
        }
    }

    /**
     * Like {@link #answer(SearchRequest, Integer, boolean, Consumer)}, as the next turn of a conversation: a
     * follow-up that leans on what the user asked before ({@code history}, the earlier user turns, oldest first) is
     * retrieved and answered with what those turns named: condensed into one standalone query by the configured
     * language model, or rewritten offline ({@link io.polyrag.retrieval.Condenser}); the answer's {@code query} is
     * the query used.
     */
    public Answer answer(SearchRequest request, Integer neighbours, boolean grounding, Consumer<String> onToken,
            List<String> history) {
        return answer(request, neighbours, grounding, onToken, history, null);
    }

    /** Like {@link #answer(SearchRequest, Integer, boolean, Consumer, java.util.List)}, with the router's switch. */
    public Answer answer(SearchRequest request, Integer neighbours, boolean grounding, Consumer<String> onToken,
            List<String> history, Boolean route) {
        // The user's own question is checked before a rewrite: an empty one (an accidental send) became the earlier
        // turn's words and was answered, and billed, again; an oversized one was shown to the condensing model.
        // With what the rewrite does not change: the neighbours' range, the knowledge bases named (a typo was a 404
        // after the condensing call). None of it counted: a refused request is not an answer.
        retrieval.searcher().validate(request);
        AnswerService.checkNeighbours(neighbours == null ? config.get(Settings.ANSWER_NEIGHBOURS) : neighbours);
        SearchScope scope = Scope.of(catalog, tenant, request.knowledgeBases());
        // Then the quota: a refused follow-up must not cost a condensing call; that call's tokens are the tenant's.
        usage.searched(tenant.id(), UsageMeter.ANSWERS);
        return UsageMeter.countedFor(tenant.id(), () -> {
            Condenser.Rewrite rw = history == null || history.isEmpty() ? null
                    : retrieval.condenser().rewrite(history, request.query());
            String rewritten = rw == null ? request.query() : rw.query();
            // A rewrite that carries earlier turns' words past the query limit is not the user's fault: their own
            // question is searched instead.
            boolean asWritten = rewritten.length() > config.get(Settings.SEARCH_MAX_QUERY_CHARS);
            SearchRequest r = rewritten.equals(request.query()) || asWritten ? request
                    : request.toBuilder().query(rewritten).build();
            Answer a = tracing.span("answer", () -> answerNow(r, scope, neighbours, grounding, onToken,
                    route == null ? config.get(Settings.ANSWER_ROUTER) : route));
            // The model's failure to condense was said only in the server's log: every follow-up quietly fell back.
            // Its own message stays there (a provider's words are not the tenant's to read).
            return rw == null || rw.problem() == null ? a : a.warned(List.of("the language model could not condense "
                    + "this follow-up into a standalone question: it was searched " + (asWritten ? "as written (the "
                    + "offline rewrite was longer than the query limit)" : "with the offline rewrite, '" + rw.query()
                    + "'") + " (the server's log says why)"));
        });
    }

    /** The query a follow-up is retrieved with after {@code history} (the earlier user turns, oldest first). */
    public String followUp(List<String> history, String question) {
        return FollowUp.rewrite(history, question);
    }

    /**
     * A search request for {@code query} with this server's default top-k, for a front door to fill in from what
     * its caller sent ({@link SearchRequest#builder(String)}: every field checked as it is set).
     */
    public SearchRequest.Builder request(String query) {
        return SearchRequest.builder(query).topK(defaultTopK());
    }

    /** Like {@link #request(String)}, with the default top-k of an answer's sources. */
    public SearchRequest.Builder answerRequest(String query) {
        return SearchRequest.builder(query).topK(defaultAnswerTopK());
    }

    /** Hits an answer draws from when a request does not say. */
    public int defaultAnswerTopK() {
        return config.get(Settings.ANSWER_TOP_K);
    }

    /** Top-k used when a request does not say. */
    public int defaultTopK() {
        return config.get(Settings.SEARCH_TOP_K);
    }
}
