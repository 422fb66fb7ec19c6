package io.polyrag.retrieval;

import io.polyrag.core.InvalidInputException;
import io.polyrag.core.http.OutboundException;
import io.polyrag.core.model.ChunkView;
import io.polyrag.core.model.DegradedLeg;
import io.polyrag.core.model.FusionMethod;
import io.polyrag.core.model.KnowledgeBase;
import io.polyrag.core.model.Modality;
import io.polyrag.core.model.SearchHit;
import io.polyrag.core.model.SearchRequest;
import io.polyrag.core.model.SearchResponse;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.StoreHit;
import io.polyrag.core.port.Catalog;
import io.polyrag.core.port.Reranker;
import java.lang.System.Logger.Level;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * Runs every requested retriever in parallel, each on its own virtual thread and within the leg timeout, then joins
 * their hits through the catalog (scope and visibility), fuses, deduplicates and cuts to top-k.
 *
 * <p>A leg that throws or runs out of time contributes nothing and is listed in the response as degraded; the
 * search itself succeeds. Safe for concurrent use.
 */
public final class HybridSearcher implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(HybridSearcher.class.getName());

    /**
     * @param candidates how many hits each leg returns (at least top-k), and the depth of each list that fusion
     *     scores; a top-k above it makes the legs top-k deep, and their tops can differ a little (a wider walk of
     *     the vector index, the full-text blend over more passages), so evaluations search at this depth, as users'
     *     searches of top-k up to it do (dedup merges near-duplicates only among the hits it walks to reach top-k)
     * @param legTimeoutMs how long each leg may take
     * @param fusion the default fusion method
     * @param rrfK the k of reciprocal rank fusion
     * @param weights per-modality weights of weighted fusion
     * @param normalization how weighted fusion scales each list
     * @param dedupThreshold Jaccard overlap at which hits merge
     * @param maxQueryChars longest query accepted
     * @param maxTopK largest top-k accepted
     * @param rerankCandidates fused hits handed to the reranker, when there is one
     */
    public record Options(int candidates, long legTimeoutMs, FusionMethod fusion, int rrfK,
            Map<Modality, Double> weights, Fusion.Normalization normalization, double dedupThreshold,
            int maxQueryChars, int maxTopK, int rerankCandidates) {
        public Options {
            weights = Map.copyOf(weights);
        }
    }

    /** Hits resolved beyond top-k, to stand in for figure hits folded into hits already listed. */
    private static final int FIGURE_SPARE = 3;
    private final Map<Modality, Retriever> retrievers = new EnumMap<>(Modality.class);
    /** Modalities whose retrievers' scores fusion takes as they are. */
    private final Set<Modality> calibrated = EnumSet.noneOf(Modality.class);
    private final Catalog catalog;
    private final Options options;
    private final Dedup dedup;
    private final Reranker reranker;
    private final QueryExpander expander;
    private volatile ExecutorService legs = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("polyrag-search-", 0).factory());

    public HybridSearcher(List<Retriever> retrievers, Catalog catalog, Options options) {
        this(retrievers, catalog, options, null, null);
    }

    /**
     * @param reranker re-scores the best {@code rerankCandidates} fused hits before the cut to top-k; null for none
     * @param expander writes variants of each query, searched and fused with it; null for none
     */
    public HybridSearcher(List<Retriever> retrievers, Catalog catalog, Options options,
            Reranker reranker, QueryExpander expander) {
        if (retrievers.isEmpty()) {
            throw new IllegalArgumentException("at least one retriever is needed");
        }
        retrievers.forEach(r -> this.retrievers.put(r.modality(), r));
        retrievers.stream().filter(Retriever::calibrated).forEach(r -> calibrated.add(r.modality()));
        this.catalog = catalog;
        this.options = options;
        this.dedup = new Dedup(options.dedupThreshold());
        this.reranker = reranker;
        this.expander = expander;
        this.figures = new FigureAttacher(catalog);
    }

    private volatile Map<Modality, String> incomplete = Map.of();
    private volatile int figuresMax = 3;
    private final FigureAttacher figures;
    private volatile Map<Modality, Interim> interim = Map.of();

    /**
     * A retriever standing in for an incomplete leg: the previous embedding model over its own, fuller index, while
     * the new model's is back-filled. Searches use it and say so ({@code note}, in their warnings).
     */
    public record Interim(Retriever retriever, String note) {
    }

    /** Sets (or, with null, clears) the stand-in of {@code modality}'s leg. */
    public void interim(Modality modality, Interim standIn) {
        Map<Modality, Interim> next = new EnumMap<>(Modality.class);
        next.putAll(interim);
        if (standIn == null) {
            next.remove(modality);
        } else {
            next.put(modality, standIn);
        }
        interim = Map.copyOf(next);
    }

    /** The legs served by a stand-in now. */
    public Map<Modality, Interim> interim() {
        return interim;
    }

    /** Most figures attached to one response (figures.max); 0 attaches none. */
    public void figures(int max) {
        this.figuresMax = max;
    }

    /** One part of a search's time: from {@code startNanos} to {@code endNanos} after the search began. */
    public record Phase(String name, long startNanos, long endNanos) {
        public long nanos() {
            return endNanos - startNanos;
        }
    }

    /** Told of every search once it is answered: where its time went (each leg of the query, fusion, join, rerank). */
    public interface Observer {
        void searched(SearchRequest request, SearchResponse response, Instant startedAt, List<Phase> phases);
    }

    private volatile Observer observer;

    /** Tells {@code o} of every search from now on (the slow-search log, traces). */
    public void observe(Observer o) {
        this.observer = o;
    }

    /**
     * Runs the legs through {@code wrap} of the executor they run on (tracing carries the searching thread's context
     * into each leg this way). Called once, before the first search.
     */
    public void legsThrough(UnaryOperator<ExecutorService> wrap) {
        legs = wrap.apply(legs);
    }

    /**
     * Legs whose store holds only part of the collection, each with why and what back-fills it: they are not
     * searched (their hits would stand in for the whole) and every response lists them as degraded. Replaces the
     * previous set; empty when every store is whole.
     */
    public void incomplete(Map<Modality, String> legs) {
        this.incomplete = Map.copyOf(legs);
    }

    /** The legs {@link #incomplete(Map)} named. */
    public Map<Modality, String> incomplete() {
        return incomplete;
    }

    /** Whether queries are expanded by a language model. */
    public boolean expands() {
        return expander != null;
    }

    public List<Modality> modalities() {
        return List.copyOf(retrievers.keySet());
    }

    // style: a search's stages in order (legs, deadline, fusion, dedup, join, explain), read top to bottom
    public SearchResponse search(SearchRequest request) {
        long start = System.nanoTime();
        Instant startedAt = observer == null ? null : Instant.now();
        Map<Modality, long[]> legTimes = new ConcurrentHashMap<>();
        long fusing = 0;
        validate(request);
        List<Modality> modalities = request.modalities().isEmpty() ? modalities()
                : request.modalities().stream().sorted().toList();
        SearchScope scope = scope(request);
        int limit = Math.max(request.topK(), candidates(request));
        List<DegradedLeg> degraded = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        interim.forEach((m, standIn) -> {
            if (modalities.contains(m)) {
                warnings.add(standIn.note());
            }
        });
        List<String> variants = variants(request.query(), warnings);
        List<FusedHit> fused = List.of();
        Set<Modality> confident = EnumSet.noneOf(Modality.class);
        Map<Modality, String> notes = new EnumMap<>(Modality.class);
        for (int i = 0; i < variants.size(); i++) {
            // Only the query's own legs count as degraded; a variant's failing leg just adds nothing. A leg that
            // failed for the query is not asked again for its variants: each variant waited out the timeout of a
            // hung store anew (a search took four timeouts with three paraphrases), and a leg listed as degraded
            // still ranked hits through them.
            List<DegradedLeg> legs = i == 0 ? degraded : new ArrayList<>();
            // Nor is a leg that waits for a language model (text-to-Cypher): one model call for the query, not one
            // more per variant, one after the other (a 3 s model made a search of three paraphrases take 12 s).
            List<Modality> asked = i == 0 ? modalities : modalities.stream().filter(m -> degraded.stream()
                    .noneMatch(d -> d.modality() == m) && !retrievers.get(m).patient()).toList();
            if (asked.isEmpty()) {
                break;
            }
            Map<Modality, Retriever.Leg> ran = runLegs(variants.get(i), request.tuning(), asked, scope, limit,
                    legs, i == 0 ? legTimes : null);
            long fuseStart = System.nanoTime();
            Map<Modality, List<StoreHit>> rankings = new EnumMap<>(Modality.class);
            Set<Modality> sure = EnumSet.noneOf(Modality.class);
            ran.forEach((m, leg) -> {
                rankings.put(m, leg.hits());
                if (leg.sure() && calibrated.contains(m)) {
                    sure.add(m);
                }
            });
            if (i == 0) {
                ran.forEach((m, leg) -> notes.put(m, leg.note()));
            }
            confident.addAll(sure);
            List<FusedHit> one = fusion(request, sure).fuse(rankings);
            fused = i == 0 ? one : FusedHit.combine(fused, one);
            fusing += System.nanoTime() - fuseStart;
        }
        long joinStart = System.nanoTime();
        Reranker reranking = reranker(request.tuning(), warnings);
        // A few more than top-k: a figure hit folded into a text hit already listed leaves a place to fill.
        int wanted = request.topK() + FIGURE_SPARE;
        int depth = reranking == null ? wanted : Math.max(wanted, options.rerankCandidates());
        List<Dedup.Candidate> joined = joinAndDedup(fused, scope, depth);
        long rerankStart = System.nanoTime();
        int warned = warnings.size();
        List<Dedup.Candidate> unique = Reranking.apply(reranking, request.query(), joined, warnings);
        // A reranker that failed (its warning says so) left the fused order: explain must not say "then reranked".
        boolean reranked = reranking != null && warnings.size() == warned;
        long rerankEnd = System.nanoTime();
        List<SearchHit> hits = figures.attach(unique, wanted, request.topK(), figuresMax);
        // Each figure hit folded into a text hit already listed frees a place: past FIGURE_SPARE of them, read on.
        for (int more = wanted; hits.size() < request.topK() && unique.size() >= more && more < wanted + 100; ) {
            more = request.topK() + (more - request.topK()) * 4;
            if (unique.size() < more) {
                unique = Reranking.readOn(unique, joinAndDedup(fused, scope, more), reranking != null);
            }
            hits = figures.attach(unique, more, request.topK(), figuresMax);
        }
        SearchResponse response = new SearchResponse(request.query(), (System.nanoTime() - start) / 1_000_000,
                modalities, degraded, hits, warnings, describe(request, answered(modalities, degraded),
                        variants.size(), reranked, confident, notes));
        Observer o = observer;
        if (o != null && startedAt != null) {
            List<Phase> phases = new ArrayList<>();
            legTimes.forEach((m, t) -> phases.add(new Phase(m.wireName(), t[0] - start, t[1] - start)));
            phases.sort(Comparator.comparingLong(Phase::startNanos));
            phases.add(new Phase("fuse", joinStart - fusing - start, joinStart - start));
            phases.add(new Phase("join and dedup", joinStart - start, rerankStart - start));
            if (reranking != null) {
                phases.add(new Phase("rerank", rerankStart - start, rerankEnd - start));
            }
            try {
                o.searched(request, response, startedAt, phases);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "a search observer failed", e);
            }
        }
        return response;
    }

    /** The reranker this search uses: the configured one unless the request turns it off; null for none. */
    private Reranker reranker(SearchRequest.Tuning tuning, List<String> warnings) {
        if (Boolean.FALSE.equals(tuning.rerank())) {
            return null;
        }
        if (Boolean.TRUE.equals(tuning.rerank()) && reranker == null) {
            warnings.add("rerank was asked for but no reranker is configured (POLYRAG_RERANK_PROVIDER): fused order kept");
        }
        return reranker;
    }

    /**
     * The weights of weighted fusion for this request: the configured ones, a sure graph leg's raised to the
     * confident weight, and each overridden where the request names one.
     */
    private Map<Modality, Double> weights(SearchRequest.Tuning tuning, Set<Modality> confident) {
        if (tuning.weights().isEmpty() && confident.isEmpty()) {
            return options.weights();
        }
        Map<Modality, Double> w = new EnumMap<>(Modality.class);
        w.putAll(options.weights());
        confident.forEach(m -> w.merge(m, sureWeight, Math::max));
        w.putAll(tuning.weights());
        return w;
    }

    /** How deep each leg's list is: the request's own depth (a knowledge base's tuning), else the configured one. */
    private int candidates(SearchRequest request) {
        return request.tuning().candidates() == null ? options.candidates() : request.tuning().candidates();
    }

    private int rrfK(SearchRequest.Tuning tuning) {
        return tuning.rrfK() == null ? options.rrfK() : tuning.rrfK();
    }

    /** How long after the slower text leg a graph leg may still finish and count; negative: no such limit. */
    private volatile long graphLagMs = 50;

    /** Sets how long after the text legs the graph legs may finish ({@code search.graph.lag.ms}). */
    public void graphLag(long millis) {
        this.graphLagMs = millis;
    }

    /**
     * The weight in weighted fusion of a calibrated leg that is sure of a search ({@link Retriever.Leg#sure}): its
     * evidence, a relation away from what the query names, may then outrank the text legs', which rank the named
     * entity's own documents first.
     */
    private volatile double sureWeight = 1.5;

    /** Sets the weight of a sure graph leg (at least its configured one either way). */
    public void sureWeight(double weight) {
        this.sureWeight = weight;
    }

    /** The legs that answered: a leg dropped (late, failed) counted for nothing, and explain says so of none. */
    private static List<Modality> answered(List<Modality> modalities, List<DegradedLeg> degraded) {
        if (degraded.isEmpty()) {
            return modalities;
        }
        Set<Modality> dropped = degraded.stream().map(DegradedLeg::modality).collect(Collectors.toSet());
        return modalities.stream().filter(m -> !dropped.contains(m)).toList();
    }

    /** The fusion arithmetic, in words, for {@code explain}. */
    private String describe(SearchRequest request, List<Modality> used, int variants, boolean reranked,
            Set<Modality> confident, Map<Modality, String> notes) {
        FusionMethod method = request.fusion() == null ? options.fusion() : request.fusion();
        boolean calibratedUsed = used.stream().anyMatch(calibrated::contains);
        String how;
        if (method == FusionMethod.WEIGHTED) {
            // As Fusion.weighted computes it: the weights in effect (a sure leg's raised, a request's or tuning's
            // own), the graph legs' scores as they are, scaled to the text legs' best.
            String graph = !calibratedUsed ? "" : "; a graph leg's scores as they are (they mean the same from "
                    + "query to query), times the text lists' best normalised score" + (!confident.isEmpty() ? "; "
                    + confident.stream().map(Modality::wireName).collect(Collectors.joining(", ")) + " sure this time "
                    + "(it found what the query asks of the entity it names, a relation beyond it): its scores read "
                    + "relative to its best hit, and its weight raised" : "; the graph legs not sure "
                    + "(nothing named, or no relation the query asks about): their usual weight");
            how = "weighted: each text list's scores normalised (" + options.normalization().name().toLowerCase(
                    Locale.ROOT) + ")" + graph + "; times its modality's weight " + weights(request.tuning(), confident)
                    .entrySet().stream().filter(e -> used.contains(e.getKey())).sorted(Map.Entry.comparingByKey())
                    .map(e -> e.getKey().wireName() + "=" + e.getValue()).collect(Collectors.joining(", "))
                    + ", summed over modalities";
        } else {
            how = "rrf: the sum over modalities of 1 / (" + rrfK(request.tuning()) + " + rank)" + (calibratedUsed
                    ? ", a graph leg's times its list's best score (how sure it is, 0-1)" : "");
        }
        StringBuilder legs = new StringBuilder();
        notes.forEach((m, note) -> {
            if (!note.isEmpty()) {
                legs.append(". ").append(m.wireName()).append(": ").append(note);
            }
        });
        String depth = (request.tuning().candidates() == null ? "" : "; each leg's list " + candidates(request)
                + " deep (this search's, not search.candidates)") + (request.topK() <= candidates(request) ? ""
                : "; an entry past a leg's first " + candidates(request) + " scores 0, ordered by its best rank");
        return how + depth + "; per modality a hit keeps its merged duplicates' best contribution"
                + (variants > 1 ? "; " + variants + " query variants combined" : "")
                + (reranked ? "; then reranked" : "") + legs;
    }

    /**
     * Resolves the fused ranking through the catalog page by page, starting with twice top-k, and deduplicates
     * until top-k distinct visible hits are found or the ranking is exhausted. The result is the same as resolving
     * everything (dedup never looks past the top-k-th distinct hit), at a fraction of the catalog reads.
     */
    private List<Dedup.Candidate> joinAndDedup(List<FusedHit> fused, SearchScope scope, int topK) {
        Map<String, ChunkView> views = new HashMap<>();
        int resolved = 0;
        int upto = Math.min(fused.size(), Math.max(2 * topK, 20));
        while (true) {
            views.putAll(catalog.resolve(fused.subList(resolved, upto).stream().map(FusedHit::chunkId).toList(),
                    scope));
            resolved = upto;
            List<Dedup.Candidate> candidates = fused.subList(0, upto).stream()
                    .filter(h -> views.containsKey(h.chunkId()))
                    .map(h -> new Dedup.Candidate(h, views.get(h.chunkId()))).toList();
            List<Dedup.Candidate> unique = dedup.apply(candidates, topK);
            if (unique.size() >= topK || upto == fused.size()) {
                return unique;
            }
            upto = Math.min(fused.size(), upto * 2);
        }
    }

    /** The query, then its variants when an expander is configured; an expander that fails adds a warning. */
    private List<String> variants(String query, List<String> warnings) {
        if (expander == null) {
            return List.of(query);
        }
        List<String> out = new ArrayList<>(List.of(query));
        try {
            out.addAll(expander.expand(query));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "query expansion " + expander.id() + " failed; searching the query alone", e);
            warnings.add("query expansion " + expander.id() + " failed, searched alone: " + OutboundException.shown(e));
        }
        return out;
    }

    /** The largest top-k a request may ask for ({@code search.max.top.k}). */
    public int maxTopK() {
        return options.maxTopK();
    }

    /** Rejects a request this searcher would refuse (empty or oversized query, bad top-k, …), before any work. */
    public void validate(SearchRequest r) {
        if (r.query() == null || r.query().isBlank()) {
            throw new InvalidInputException("query is empty: give the text to search for");
        }
        if (r.query().length() > options.maxQueryChars()) {
            throw new InvalidInputException("query is " + r.query().length() + " characters long; the limit is "
                    + options.maxQueryChars() + " (POLYRAG_SEARCH_MAX_QUERY_CHARS): shorten it");
        }
        if (r.topK() < 1 || r.topK() > options.maxTopK()) {
            throw new InvalidInputException("top_k must be between 1 and " + options.maxTopK() + ", was " + r.topK());
        }
        for (Modality m : r.modalities()) {
            if (!retrievers.containsKey(m)) {
                throw new InvalidInputException("modality '" + m.wireName() + "' is not enabled on this server; "
                        + "enabled: " + modalities().stream().map(Modality::wireName).collect(Collectors
                                .joining(", ")));
            }
        }
    }

    /** The request's knowledge bases, each checked (a stored name: {@code name} or {@code tenant/name}). */
    private static SearchScope scope(SearchRequest r) {
        r.knowledgeBases().forEach(KnowledgeBase::ofStored);
        return r.scope();
    }

    private Map<Modality, Retriever.Leg> runLegs(String query, SearchRequest.Tuning tuning, List<Modality> modalities,
            SearchScope scope, int limit, List<DegradedLeg> degraded, Map<Modality, long[]> times) {
        Map<Modality, Future<Retriever.Leg>> futures = new LinkedHashMap<>();
        Map<Modality, String> skipped = incomplete;
        Map<Modality, Interim> standIns = interim;
        for (Modality m : modalities) {
            Interim standIn = standIns.get(m);
            if (standIn != null) {
                futures.put(m, legs.submit(() -> timed(m, times, () -> standIn.retriever().run(query, scope, limit, tuning))));
                continue;
            }
            String why = skipped.get(m);
            if (why != null) {
                // A store that holds part of the collection would rank the part it has as if it were all of it.
                degraded.add(new DegradedLeg(m, why));
                continue;
            }
            futures.put(m, legs.submit(() -> timed(m, times, () -> retrievers.get(m).run(query, scope, limit, tuning))));
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(options.legTimeoutMs());
        Map<Modality, Retriever.Leg> rankings = new EnumMap<>(Modality.class);
        // The text legs first; the graph legs then get until the slower of them finished plus graphLagMs, so a slow
        // graph store cannot hold a search back by more than that (a leg that reads its copy in memory takes a
        // millisecond) — when a text leg answered: with none, the graph legs were all there was, cut to 50 ms.
        long lag = graphLagMs;
        long[] textDone = {Long.MAX_VALUE};
        List<Modality> order = new ArrayList<>(futures.keySet());
        order.sort(Comparator.comparing(calibrated::contains));
        for (Modality m : order) {
            Future<Retriever.Leg> f = futures.get(m);
            boolean graphLeg = calibrated.contains(m);
            if (graphLeg && textDone[0] == Long.MAX_VALUE) {
                textDone[0] = System.nanoTime();
            }
            boolean lagged = graphLeg && lag >= 0 && !retrievers.get(m).patient()
                    && rankings.keySet().stream().anyMatch(x -> !calibrated.contains(x));
            long until = lagged ? Math.min(deadline, textDone[0]
                    + TimeUnit.MILLISECONDS.toNanos(lag)) : deadline;
            try {
                rankings.put(m, f.get(Math.max(0, until - System.nanoTime()), TimeUnit.NANOSECONDS));
            } catch (TimeoutException e) {
                // A graph or RDF leg is never interrupted, late by search.graph.lag.ms or past the leg timeout: an
                // interrupt inside an embedded store's read closes the file channel it maps its index through (TDB2),
                // failing its reads until a restart; it finishes and its result is dropped (the networked graph stores
                // bound their own calls). A text leg past the leg timeout (seconds: hung) is interrupted.
                f.cancel(until >= deadline && !graphLeg);
                degraded.add(new DegradedLeg(m, until < deadline ? "not finished " + lag + " ms after the text "
                        + "legs (search.graph.lag.ms): left out of this search" : "timed out after "
                        + options.legTimeoutMs() + " ms"));
            } catch (ExecutionException e) {
                LOG.log(Level.WARNING, "retriever " + m.wireName() + " failed", e.getCause());
                degraded.add(new DegradedLeg(m, e.getCause().getClass().getSimpleName() + ": "
                        + e.getCause().getMessage()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                f.cancel(!graphLeg); // a graph or RDF leg never, as above
                degraded.add(new DegradedLeg(m, "interrupted"));
            }
        }
        return rankings;
    }

    /** Runs one leg, noting in {@code times} (when given) when it started and ended. */
    private static Retriever.Leg timed(Modality m, Map<Modality, long[]> times,
            Supplier<Retriever.Leg> leg) {
        long t0 = System.nanoTime();
        try {
            return leg.get();
        } finally {
            if (times != null) {
                times.put(m, new long[] {t0, System.nanoTime()});
            }
        }
    }

    private Fusion fusion(SearchRequest request, Set<Modality> confident) {
        FusionMethod method = request.fusion() == null ? options.fusion() : request.fusion();
        return method == FusionMethod.WEIGHTED
                ? Fusion.weighted(weights(request.tuning(), confident), candidates(request), options.normalization(),
                        calibrated, confident)
                : Fusion.rrf(rrfK(request.tuning()), candidates(request), calibrated);
    }

    @Override
    public void close() {
        legs.shutdownNow();
    }
}
