package io.polyrag.app;

import static io.polyrag.app.quality.Metrics.mean;
import static io.polyrag.app.quality.Metrics.round;

import io.polyrag.app.api.FusionTuning;
import io.polyrag.app.api.KbEvaluation;
import io.polyrag.app.quality.Metrics;
import io.polyrag.app.quality.Significance;
import io.polyrag.core.ConflictException;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.config.Config;
import io.polyrag.core.config.Settings;
import io.polyrag.core.model.DocumentInfo;
import io.polyrag.core.model.FusionMethod;
import io.polyrag.core.model.Ids;
import io.polyrag.core.model.ItemError;
import io.polyrag.core.model.JobProgress;
import io.polyrag.core.model.KnowledgeBase;
import io.polyrag.core.model.Modality;
import io.polyrag.core.model.SearchRequest;
import io.polyrag.core.model.SearchResponse;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.port.Catalog;
import io.polyrag.core.port.JobStore;
import io.polyrag.core.port.JudgmentStore;
import io.polyrag.core.port.JudgmentStore.Judgment;
import io.polyrag.retrieval.HybridSearcher;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntPredicate;
import java.util.stream.Collectors;
import tools.jackson.databind.json.JsonMapper;

/**
 * Fusion learned per knowledge base from its judged queries ({@link KbJudgments}: a query, the
 * documents relevant to it, graded); the {@value #KIND} job tries the configured fusion and a grid of others on them
 * (weighted fusion with the vector leg's share of the two text legs' weight from 0.1 to 0.9, reciprocal rank fusion
 * with k 10 to 100; Bruch et al., "An Analysis of Fusion Functions for Hybrid Retrieval", TOIS 2023, find a tuned
 * convex combination the better of the two; then the configured fusion with each leg's list 50 or 200 deep, and
 * with the full-text leg's blend of passage and whole document at 0, 0.25, 0.75 and 1), and estimates by k-fold
 * cross-validation what choosing among them is worth: each query scored by the choice made on the other folds. The
 * choice made on every query is applied to the knowledge base's searches only when that held-out estimate beats the
 * configured fusion by more than chance explains (paired randomisation test, p under {@value #APPLY_P}); otherwise
 * the defaults stay and the result says why. So a tuning never ships a fusion its own folds measured worse than the
 * defaults, nor one they cannot tell from them.
 *
 * <p>A search of exactly the tuned knowledge base (or of several that share one tuning) uses it, unless the request
 * sets its own fusion, weights, rrf_k, candidates, fulltext_document_weight or vector_document_weight; a search over
 * knowledge bases tuned differently uses the configured fusion and says so in its explanation. The evaluation runs
 * the configured search, the tuned one and each leg alone on the judged queries.
 */
final class KbFusion implements JobHandler {
    static final String KIND = "tune";
    /** Judged queries a tuning needs at least: fewer cannot tell a choice from noise. */
    static final int MIN_JUDGED = 20;
    /**
     * Judged queries a tuning or an evaluation measures at most: beyond it, a fixed sample (the first by a hash of
     * their ids). It bounds how long one request (an evaluation, about 15 s at 1,000) or one job (a tuning, about
     * 40 s on two cores) holds a worker; the estimates barely move past a few hundred queries.
     */
    static final int MAX_MEASURED = 1000;
    /**
     * Chunks a tuning search asks for: below the shallowest depth tried ({@link #DEPTHS}), since a search's legs are as
     * deep as it asks, and enough for ten distinct documents unless documents are cut into many small passages (then
     * a tuning's nDCG@10 runs a little below the evaluation's: 0.7685 against 0.7698 on SciFact in 64-token passages).
     */
    private static final int TUNE_DEPTH = 40;
    /** Chunks an evaluation search asks for (Recall@100 counts the documents among them). */
    private static final int EVALUATION_DEPTH = 100;
    private static final int FOLDS = 5;
    /** Depths of each leg's list tried beside the configured one ({@code search.candidates}). */
    private static final int[] DEPTHS = {50, 200};
    /** Full-text blends of passage and whole document tried beside the configured one. */
    private static final double[] DOCUMENT_WEIGHTS = {0, 0.25, 0.75, 1};
    /** The held-out gain's largest p-value (paired randomisation test, two-sided) that applies a tuning. */
    static final double APPLY_P = 0.10;
    private static final JsonMapper JSON = Json.MAPPER;

    record Payload(String knowledgeBase) {
    }

    /**
     * One fusion tried: the request's fusion ({@code null}: the configured method) and its constants, depth and
     * full-text blend ({@link SearchRequest.Tuning#CONFIGURED} for the defaults).
     */
    record Candidate(String name, FusionMethod method, SearchRequest.Tuning tuning) {
        boolean configured() {
            return method == null && tuning.equals(SearchRequest.Tuning.CONFIGURED);
        }
    }

    private final Catalog catalog;
    private final JudgmentStore judgments;
    private final HybridSearcher searcher;
    private final Config config;
    /** Each tenant's searches a minute: an evaluation or a tuning counts one search for each judged query. */
    private final Usage usage;
    /** Each knowledge base's tuning, trusted for 30 s before the catalog is read again (another replica's change). */
    private final TtlCache<FusionTuning> cache = new TtlCache<>(30_000_000_000L, 100_000);

    /** @param judgments the knowledge bases' judged queries, tunings and evaluations */
    KbFusion(Catalog catalog, JudgmentStore judgments, HybridSearcher searcher, Config config, Usage usage) {
        this.catalog = catalog;
        this.judgments = judgments;
        this.searcher = searcher;
        this.config = config;
        this.usage = usage;
    }

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public Optional<String> knowledgeBase(String payload) {
        return Optional.of(JSON.readValue(payload, Payload.class).knowledgeBase());
    }

    // ---- the tuning a search uses

    /** The knowledge base's tuning, applied or not; empty when never tuned (or dropped). */
    Optional<FusionTuning> tuning(String storedKb) {
        return cache.get(storedKb, kb -> judgments.tuning(kb).flatMap(j -> Json.stored(j, FusionTuning.class, kb)));
    }

    void drop(String storedKb) {
        judgments.putTuning(storedKb, null);
        forget(storedKb);
    }

    /** Forgets this process's copy of the knowledge base's tuning (dropped, or the knowledge base deleted). */
    void forget(String storedKb) {
        cache.changed(storedKb);
    }

    /** A search request with the fusion its knowledge bases were tuned to, and what {@code explain} says of it. */
    record Applied(SearchRequest request, String note) {
    }

    /** {@code request} (its knowledge bases resolved to stored names) with its knowledge bases' tuned fusion. */
    Applied apply(SearchRequest request) {
        SearchRequest.Tuning own = request.tuning();
        if (request.fusion() != null || own.rrfK() != null || !own.weights().isEmpty() || own.candidates() != null
                || own.documentWeight() != null || own.vectorDocumentWeight() != null) {
            return new Applied(request, "");
        }
        Map<String, Optional<FusionTuning>> tunings = new LinkedHashMap<>();
        for (String kb : request.knowledgeBases()) {
            tunings.put(kb, tuning(kb).filter(FusionTuning::applied));
        }
        Set<String> distinct = new HashSet<>();
        tunings.values().forEach(t -> distinct.add(t.map(KbFusion::describe).orElse("")));
        if (distinct.size() > 1) {
            return new Applied(request, "; the knowledge bases searched are tuned differently ("
                    + String.join(", ", tunings.entrySet().stream().map(e -> KnowledgeBase.ofStored(e.getKey()).name()
                            + ": " + e.getValue().map(KbFusion::describe).orElse("configured")).toList())
                    + "): the configured fusion");
        }
        Optional<FusionTuning> t = tunings.values().stream().findFirst().flatMap(x -> x);
        if (t.isEmpty()) {
            return new Applied(request, "");
        }
        FusionTuning f = t.get();
        Map<Modality, Double> weights = new EnumMap<>(Modality.class);
        f.weights().forEach((m, w) -> weights.put(Modality.parse(m), w));
        SearchRequest tuned = request.toBuilder().fusion(method(f)).tuning(new SearchRequest.Tuning(f.rrfK(), weights,
                own.rerank(), f.candidateDepth(), f.fulltextDocumentWeight(), f.vectorDocumentWeight())).build();
        return new Applied(tuned, "; the fusion its knowledge base was tuned to (" + describe(f) + ", from "
                + f.queries() + " judged queries: nDCG@10 " + f.ndcg10Configured() + " configured, " + f.ndcg10Tuned()
                + " tuned on held-out folds)");
    }

    /** The tuning's fusion method; null for the configured one (a tuning of depth or blend alone). */
    private static FusionMethod method(FusionTuning f) {
        return f.fusion() == null || f.fusion().equals("configured") ? null : FusionMethod.parse(f.fusion());
    }

    private static String describe(FusionTuning f) {
        String fusion = method(f) == null ? "configured fusion" : f.fusion().equals("rrf") ? "rrf k=" + f.rrfK()
                : "weighted " + f.weights().entrySet().stream().sorted(Map.Entry.comparingByKey())
                        .map(e -> e.getKey() + "=" + e.getValue()).reduce((a, b) -> a + " " + b).orElse("");
        return fusion + (f.candidateDepth() == null ? "" : " " + Settings.SEARCH_CANDIDATES.key() + "="
                + f.candidateDepth()) + (f.fulltextDocumentWeight() == null ? "" : " "
                        + Settings.FULLTEXT_DOCUMENT_WEIGHT.key() + "=" + f.fulltextDocumentWeight())
                + (f.vectorDocumentWeight() == null ? "" : " " + Settings.VECTOR_DOCUMENT_WEIGHT.key() + "="
                        + f.vectorDocumentWeight());
    }

    // ---- the job

    String payload(KnowledgeBase kb) {
        int judged = judgments.judgments(kb.storageName()).size();
        if (judged < MIN_JUDGED) {
            throw new InvalidInputException("knowledge base '" + kb.name() + "' has " + judged + " judged quer"
                    + (judged == 1 ? "y" : "ies") + ": tuning needs at least " + MIN_JUDGED + " (POST "
                    + "/v1/knowledge-bases/" + kb.name() + "/judgments)");
        }
        usage.searchedAtOnce(kb.tenant().id(), Math.min(judged, MAX_MEASURED), "a tuning");
        return JSON.writeValueAsString(new Payload(kb.storageName()));
    }

    /** The fusions a tuning tries: the configured one first (ties keep it), then the grid. */
    List<Candidate> candidates() {
        List<Candidate> out = new ArrayList<>();
        out.add(new Candidate("configured", null, SearchRequest.Tuning.CONFIGURED));
        double text = config.get(Settings.FUSION_WEIGHT_VECTOR)
                + config.get(Settings.FUSION_WEIGHT_FULLTEXT);
        double sum = text > 0 ? text : 1.0;
        for (int i = 1; i <= 9; i++) {
            double v = Math.round(sum * i * 10) / 100.0;
            double f = Math.round(sum * (10 - i) * 10) / 100.0;
            Map<Modality, Double> w = new EnumMap<>(Modality.class);
            w.put(Modality.VECTOR, v);
            w.put(Modality.FULLTEXT, f);
            out.add(new Candidate(String.format(Locale.ROOT, "weighted fulltext=%s vector=%s", f, v),
                    FusionMethod.WEIGHTED, new SearchRequest.Tuning(null, w, null)));
        }
        for (int k : new int[] {10, 30, 60, 100}) {
            out.add(new Candidate("rrf k=" + k, FusionMethod.RRF, new SearchRequest.Tuning(k, Map.of(), null)));
        }
        // The configured fusion at other depths, and with the full-text leg's other blends of passage and document.
        for (int depth : DEPTHS) {
            if (depth != config.get(Settings.SEARCH_CANDIDATES)) {
                out.add(new Candidate(Settings.SEARCH_CANDIDATES.key() + "=" + depth, null, new SearchRequest.Tuning(
                        null, Map.of(), null, depth, null)));
            }
        }
        if (searcher.modalities().contains(Modality.FULLTEXT)) {
            for (double w : DOCUMENT_WEIGHTS) {
                if (Math.abs(w - config.get(Settings.FULLTEXT_DOCUMENT_WEIGHT)) > 1e-9) {
                    out.add(new Candidate(Settings.FULLTEXT_DOCUMENT_WEIGHT.key() + "=" + w, null,
                            new SearchRequest.Tuning(null, Map.of(), null, null, w)));
                }
            }
        }
        // The vector leg's other blends, where documents were embedded whole at ingest (the configured weight > 0).
        if (searcher.modalities().contains(Modality.VECTOR) && config.get(Settings.VECTOR_DOCUMENT_WEIGHT) > 0) {
            for (double w : DOCUMENT_WEIGHTS) {
                if (Math.abs(w - config.get(Settings.VECTOR_DOCUMENT_WEIGHT)) > 1e-9) {
                    out.add(new Candidate(Settings.VECTOR_DOCUMENT_WEIGHT.key() + "=" + w, null,
                            new SearchRequest.Tuning(null, Map.of(), null, null, null, w)));
                }
            }
        }
        return out;
    }

    @Override
    public JobProgress run(JobStore.Claimed job, Context context) {
        String kb = JSON.readValue(job.payload(), Payload.class).knowledgeBase();
        List<Judgment> judged = KbRanking.sample(judgments.judgments(kb), MAX_MEASURED);
        if (judged.size() < MIN_JUDGED) {
            return JobProgress.at("failed").total(1).processed(1).failed(1).errors(List.of(new ItemError(
                    KnowledgeBase.ofStored(kb).name(), "the knowledge base has " + judged.size() + " judged queries; "
                    + "tuning needs at least " + MIN_JUDGED))).build();
        }
        Map<String, Long> versions = visibleVersions(kb);
        Set<String> documents = versions.keySet();
        List<Candidate> candidates = candidates();
        // Legs a back-fill keeps out of every search: measured without them is not the search tuned once back.
        Map<Modality, String> missing = new EnumMap<>(Modality.class);
        missing.putAll(searcher.incomplete());
        int total = candidates.size() * judged.size();
        double[][] ndcg = new double[candidates.size()][judged.size()];
        int done = 0;
        // Query by query, every candidate of a query back to back: an ingest running meanwhile reaches all of a
        // query's candidates alike (candidate by candidate, the first was scored on the old texts, the rest on new).
        for (int q = 0; q < judged.size(); q++) {
            for (int c = 0; c < candidates.size(); c++) {
                if (context.canceled()) {
                    return progress("canceled", total, done, List.of());
                }
                // A leg one search lost (a timeout, the graph leg late) is missing too, not the candidate's doing.
                ndcg[c][q] = Metrics.ndcg(search(kb, judged.get(q).query(), candidates.get(c), documents,
                        depth(TUNE_DEPTH), missing), judged.get(q).relevant(), 10);
                done++;
                // One stage name (its count is in processed and total): a name per query made a metrics series
                // and a trace span per query, and bypassed the progress writes' throttle.
                context.progress(progress("searching", total, done, List.of()));
            }
        }
        FusionTuning result = choose(candidates, ndcg, judged, documents.size());
        List<String> changed = KbRanking.changed(judged, versions, visibleVersions(kb));
        missing.putAll(searcher.incomplete());
        if (result.applied() && !changed.isEmpty()) {
            result = result.withheld(changed.size() + " judged document(s) changed while the tuning ran (" + String
                    .join(", ", changed.stream().limit(3).toList()) + (changed.size() > 3 ? ", …" : "") + "): its "
                    + "figures mix two versions, so nothing was applied; tune again once the ingest is done");
        } else if (result.applied() && !missing.isEmpty()) {
            result = result.withheld("the " + missing.keySet().stream().map(Modality::wireName).sorted().collect(
                    Collectors.joining(", ")) + " leg was not searched (" + missing.values().iterator().next()
                    + ") in some of its searches: nothing was applied; tune again once every leg is searched");
        }
        judgments.putTuning(kb, JSON.writeValueAsString(result));
        forget(kb);
        return progress("done", total, total, List.of(result.reason()));
    }

    private static JobProgress progress(String stage, int total, int done, List<String> warnings) {
        return JobProgress.at(stage).total(total).processed(done).warnings(warnings).build();
    }

    /**
     * Cross-validates the choice among {@code candidates} ({@code ndcg[candidate][query]}): each fold's queries are
     * scored by the candidate best on the other folds (the configured one on ties). Applies the candidate best on
     * every query only when that held-out mean beats the configured fusion's.
     */
    static FusionTuning choose(List<Candidate> candidates, double[][] ndcg, List<Judgment> judged, int documents) {
        int n = judged.size();
        int folds = Math.min(FOLDS, n);
        int[] fold = new int[n];
        // Folds by a hash of the query id: the same judgments always make the same folds.
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.comparing(i -> Ids.sha256Hex(judged.get(i).queryId().getBytes(
                StandardCharsets.UTF_8))));
        for (int r = 0; r < n; r++) {
            fold[order[r]] = r % folds;
        }
        Map<String, Double> configured = new LinkedHashMap<>();
        Map<String, Double> heldOut = new LinkedHashMap<>();
        for (int f = 0; f < folds; f++) {
            final int ff = f;
            int best = best(ndcg, i -> fold[i] != ff);
            for (int q = 0; q < n; q++) {
                if (fold[q] == f) {
                    heldOut.put(judged.get(q).queryId(), ndcg[best][q]);
                }
            }
        }
        for (int q = 0; q < n; q++) {
            configured.put(judged.get(q).queryId(), ndcg[0][q]);
        }
        double base = mean(configured.values());
        double tuned = mean(heldOut.values());
        Significance.Comparison cmp = Significance.compare(heldOut, "configured", configured);
        int chosen = best(ndcg, i -> true);
        // Applied only when the held-out gain is positive and unlikely to be chance (two-sided p < 0.10, one-sided
        // 0.05): with 20 SciFact judgments a choice that gained +0.018 on held-out folds (p 0.69) lost 0.039 on the
        // test split; without this rule it would have shipped.
        boolean applied = tuned > base + 1e-9 && cmp.p() < APPLY_P && chosen != 0;
        Candidate c = applied ? candidates.get(chosen) : candidates.get(0);
        String reason = applied
                ? String.format(Locale.ROOT, "applied %s: nDCG@10 %.4f on held-out folds against %.4f configured "
                        + "(%+.4f, p=%.4f, %d judged queries)", c.name(), tuned, base, tuned - base, cmp.p(), n)
                : chosen == 0
                        ? String.format(Locale.ROOT, "kept the configured fusion: it is the best of the %d tried on "
                                + "the %d judged queries (nDCG@10 %.4f)", candidates.size(), n, base)
                        : tuned <= base + 1e-9
                                ? String.format(Locale.ROOT, "kept the configured fusion: choosing among the %d tried "
                                        + "scored %.4f on held-out folds against %.4f configured, no gain (%d judged "
                                        + "queries)", candidates.size(), tuned, base, n)
                                : String.format(Locale.ROOT, "kept the configured fusion: choosing among the %d tried "
                                        + "scored %.4f on held-out folds against %.4f configured (%+.4f, p=%.4f), a "
                                        + "gain chance explains as well (p must be under %.2f; %d judged queries: more "
                                        + "judgments tell a smaller gain from chance)", candidates.size(), tuned, base,
                                        tuned - base, cmp.p(), APPLY_P, n);
        Map<String, Double> weights = new TreeMap<>();
        c.tuning().weights().forEach((m, w) -> weights.put(m.wireName(), w));
        boolean own = applied && c.method() != null;
        List<FusionTuning.Candidate> tried = new ArrayList<>();
        for (int i = 0; i < candidates.size(); i++) {
            tried.add(new FusionTuning.Candidate(candidates.get(i).name(), round(mean(ndcg[i]))));
        }
        return new FusionTuning(applied, own ? c.method().wireName() : "configured", weights,
                applied ? c.tuning().rrfK() : null, n, folds, round(base), round(tuned), round(tuned - base), cmp.p(),
                reason, documents, Instant.now(), tried, applied ? c.tuning().candidates() : null,
                applied ? c.tuning().documentWeight() : null, applied ? c.tuning().vectorDocumentWeight() : null);
    }

    private static int best(double[][] ndcg, IntPredicate use) {
        int best = 0;
        double bestMean = -1;
        for (int c = 0; c < ndcg.length; c++) {
            double s = 0;
            int k = 0;
            for (int q = 0; q < ndcg[c].length; q++) {
                if (use.test(q)) {
                    s += ndcg[c][q];
                    k++;
                }
            }
            double m = k == 0 ? 0 : s / k;
            if (m > bestMean + 1e-12) {
                best = c;
                bestMean = m;
            }
        }
        return best;
    }

    // ---- evaluation

    /** Runs the configured search, the tuned one (when applied) and each leg alone on the judged queries. */
    KbEvaluation evaluate(KnowledgeBase kb) {
        String stored = kb.storageName();
        if (!evaluating.add(stored)) {
            throw new ConflictException("an evaluation of knowledge base '" + kb.name() + "' is "
                    + "running: wait for it, or read the last one (GET /v1/knowledge-bases/" + kb.name()
                    + "/evaluation?last=true)", true);
        }
        try {
            return evaluateNow(kb, stored);
        } finally {
            evaluating.remove(stored);
        }
    }

    /** Knowledge bases (stored names) being evaluated now: one evaluation each at a time. */
    private final Set<String> evaluating = ConcurrentHashMap.newKeySet();

    private KbEvaluation evaluateNow(KnowledgeBase kb, String stored) {
        List<Judgment> judged = judgments.judgments(stored);
        if (judged.isEmpty()) {
            throw new InvalidInputException("knowledge base '" + kb.name() + "' has no judged queries: POST "
                    + "/v1/knowledge-bases/" + kb.name() + "/judgments first");
        }
        refuseWhileIncomplete();
        judged = KbRanking.sample(judged, MAX_MEASURED);
        usage.searchedAtOnce(kb.tenant().id(), judged.size(), "an evaluation");
        Set<String> documents = visibleVersions(stored).keySet();
        List<Candidate> runs = new ArrayList<>();
        runs.add(candidates().getFirst());
        tuning(stored).filter(FusionTuning::applied).ifPresent(t -> {
            Map<Modality, Double> w = new EnumMap<>(Modality.class);
            t.weights().forEach((m, x) -> w.put(Modality.parse(m), x));
            runs.add(new Candidate("tuned", method(t), new SearchRequest.Tuning(t.rrfK(), w, null,
                    t.candidateDepth(), t.fulltextDocumentWeight(), t.vectorDocumentWeight())));
        });
        List<KbEvaluation.Run> out = new ArrayList<>();
        Map<String, Double> configured = null;
        List<Modality> legs = searcher.modalities();
        List<Object[]> specs = new ArrayList<>();
        runs.forEach(r -> specs.add(new Object[] {r, null}));
        if (legs.size() > 1) {
            legs.forEach(m -> specs.add(new Object[] {null, m}));
        }
        for (Object[] spec : specs) {
            Candidate c = (Candidate) spec[0];
            Modality leg = (Modality) spec[1];
            String name = c != null ? (c.configured() ? "configured" : c.name()) : leg.wireName();
            Map<String, Double> perQuery = new LinkedHashMap<>();
            double recall = 0;
            double mrr = 0;
            for (Judgment j : judged) {
                // The top ten as users get them (top_k 100 made every leg 100 deep); Recall@100 from a deeper search.
                List<String> top = ranking(stored, j.query(), c, leg, documents, depth(TUNE_DEPTH));
                List<String> deep = depth(EVALUATION_DEPTH) == depth(TUNE_DEPTH) ? top
                        : ranking(stored, j.query(), c, leg, documents, depth(EVALUATION_DEPTH));
                perQuery.put(j.queryId(), Metrics.ndcg(top, j.relevant(), 10));
                recall += Metrics.recall(deep, j.relevant(), 100);
                mrr += Metrics.mrr(top, j.relevant(), 10);
            }
            // The tuned run, scored on the queries it was chosen on, says so with its tuning's held-out figures.
            String description = c != null ? (c.configured() ? "the configured fusion of every enabled leg"
                    : "this knowledge base's tuned fusion: " + tuning(stored).map(t -> describe(t) + String.format(
                            Locale.ROOT, "; in-sample (scored on the judged queries it was tuned on): held out, "
                            + "it measured %.4f against %.4f configured (p %.3f)", t.ndcg10Tuned(),
                            t.ndcg10Configured(), t.p())).orElse("")) : leg.wireName() + " alone";
            Significance.Comparison vs = configured == null ? null : Significance.compare(perQuery, "configured",
                    configured);
            if (configured == null) {
                configured = perQuery;
            }
            out.add(new KbEvaluation.Run(name, description, round(mean(perQuery.values())), round(recall
                    / judged.size()), round(mrr / judged.size()), Significance.ci95(perQuery.values()), vs, perQuery));
        }
        KbEvaluation e = new KbEvaluation(kb.name(), judged.size(), documents.size(), Instant.now(), out);
        judgments.putEvaluation(stored, JSON.writeValueAsString(e));
        return e;
    }

    /** An evaluation scores the search users get: not while a leg is incomplete (back-filled, served by a stand-in). */
    private void refuseWhileIncomplete() {
        searcher.incomplete().entrySet().stream().findFirst().ifPresent(e -> {
            throw new ConflictException("the " + e.getKey().wireName() + " leg is incomplete (" + e.getValue()
                    + "): evaluate again once it is whole", true);
        });
    }

    /** The last evaluation kept for the knowledge base. */
    Optional<KbEvaluation> lastEvaluation(String storedKb) {
        return judgments.evaluation(storedKb).flatMap(j -> Json.stored(j, KbEvaluation.class, storedKb));
    }

    // ---- shared

    /** The knowledge base's visible documents and the version of each that is visible. */
    private Map<String, Long> visibleVersions(String kb) {
        Map<String, Long> out = new HashMap<>();
        SearchScope scope = new SearchScope(Set.of(kb));
        for (int offset = 0; ; offset += 1000) {
            List<DocumentInfo> page = catalog.documents(scope, offset, 1000);
            page.forEach(d -> out.put(d.id(), d.visibleVersion()));
            if (page.size() < 1000) {
                return out;
            }
        }
    }

    /** A run's ranking of documents for a query: a fusion candidate's, or one leg's alone (as it ranks, unreranked). */
    private List<String> ranking(String kb, String query, Candidate c, Modality leg, Set<String> documents, int depth) {
        return leg == null ? search(kb, query, c, documents, depth, null) : KbRanking.ranking(searched(kb,
                SearchRequest.builder(query).topK(depth).knowledgeBases(List.of(kb)).modalities(Set.of(leg))
                        .rerank(false).build()).hits(), documents);
    }

    /** A tuning's or evaluation's search: its model tokens (reranking, expansion) are the knowledge base's tenant's. */
    private SearchResponse searched(String kb, SearchRequest request) {
        return UsageMeter.countedFor(KnowledgeBase.ofStored(kb).tenant().id(), () -> searcher.search(request));
    }

    /** {@code wanted} chunks, or fewer when the server's search.max.top.k is lower (it refused the search). */
    private int depth(int wanted) {
        return Math.min(wanted, searcher.maxTopK());
    }

    /** A candidate's ranking; the legs its search lost are added to {@code lost} (when given). */
    private List<String> search(String kb, String query, Candidate c, Set<String> documents, int depth,
            Map<Modality, String> lost) {
        SearchResponse r = searched(kb, new SearchRequest(query, depth, List.of(kb), Set.of(), c.method(), Set.of(),
                null, c.tuning()));
        // A graph leg left out for lag is the search users get (it happens to them too), not a leg lost.
        r.degraded().stream().filter(d -> lost != null && !d.reason().contains("search.graph.lag.ms"))
                .forEach(d -> lost.putIfAbsent(d.modality(), d.reason()));
        return KbRanking.ranking(r.hits(), documents);
    }
}
