package io.polyrag.retrieval;

import io.polyrag.core.http.OutboundException;
import io.polyrag.core.model.SourceScore;
import io.polyrag.core.port.Reranker;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;

/** A search's candidates put in the reranker's order, each keeping its reranked position among its sources. */
final class Reranking {
    private static final System.Logger LOG = System.getLogger(Reranking.class.getName());

    private Reranking() {
    }

    /**
     * Orders candidates by the reranker's scores (ties keep the fused order) and records each one's reranked
     * position under the source {@code rerank}. A failing reranker leaves the fused order and a warning.
     */
    static List<Dedup.Candidate> apply(Reranker reranker, String query,
            List<Dedup.Candidate> candidates, List<String> warnings) {
        if (reranker == null || candidates.isEmpty()) {
            return candidates;
        }
        List<Double> scores;
        try {
            scores = reranker.score(query, candidates.stream().map(c -> c.view().chunk().indexText(c.view().title()))
                    .toList());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "reranker " + reranker.id() + " failed; keeping the fused order", e);
            warnings.add("reranker " + reranker.id() + " failed, fused order kept: " + OutboundException.shown(e));
            return candidates;
        }
        if (scores == null || scores.size() != candidates.size()) {
            warnings.add("reranker " + reranker.id() + " scored " + (scores == null ? 0 : scores.size()) + " of "
                    + candidates.size() + " passages, fused order kept");
            return candidates;
        }
        // A score that is not finite (a model's overflow) ranks below every finite one, not first as Double.compare
        // puts NaN, and is shown as that (JSON has no NaN); the fused order breaks ties (the sort is stable).
        double floor = scores.stream().mapToDouble(Double::doubleValue).filter(Double::isFinite).min().orElse(0) - 1;
        List<Double> ranked = scores.stream().map(x -> Double.isFinite(x) ? x : floor).toList();
        List<Integer> order = new ArrayList<>(IntStream.range(0, candidates.size()).boxed().toList());
        order.sort((a, b) -> Double.compare(ranked.get(b), ranked.get(a)));
        List<Dedup.Candidate> out = new ArrayList<>();
        for (int rank = 0; rank < order.size(); rank++) {
            Dedup.Candidate c = candidates.get(order.get(rank));
            Map<String, SourceScore> sources = new HashMap<>(c.hit().sources());
            sources.put("rerank", new SourceScore(rank + 1, ranked.get(order.get(rank))));
            out.add(new Dedup.Candidate(c.hit().withSources(sources), c.view()));
        }
        return out;
    }

    /**
     * The list read on to {@code deeper} (the fused order joined deeper): as it is without a reranker; with one, the
     * reranked candidates first, then the fused ones past them. Reranked, a search stopped at the reranker's depth,
     * and figure hits folded into their anchors left it short of top_k while the fused list held hundreds more.
     */
    static List<Dedup.Candidate> readOn(List<Dedup.Candidate> reranked, List<Dedup.Candidate> deeper, boolean rerank) {
        if (!rerank) {
            return deeper;
        }
        Set<String> listed = new HashSet<>();
        reranked.forEach(c -> listed.add(c.view().chunk().id()));
        List<Dedup.Candidate> out = new ArrayList<>(reranked);
        deeper.stream().filter(c -> !listed.contains(c.view().chunk().id())).forEach(out::add);
        return out;
    }
}
