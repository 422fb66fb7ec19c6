package io.polyrag.retrieval;

import io.polyrag.core.model.Modality;
import io.polyrag.core.model.SourceScore;
import io.polyrag.core.model.StoreHit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns per-modality rankings into one. Every fused hit keeps the rank and score it had in each list that held it.
 * A chunk listed twice in one list counts once, at its better rank. Output is sorted by {@link FusedHit#ORDER}.
 */
public interface Fusion {

    List<FusedHit> fuse(Map<Modality, List<StoreHit>> rankings);

    /** Reciprocal rank fusion: score = sum over lists of {@code weight / (k + rank)}; ranks are 1-based. */
    static Fusion rrf(int k) {
        if (k < 1) {
            throw new IllegalArgumentException("rrf k must be at least 1, was " + k);
        }
        return rankings -> combine(rankings, (modality, list, rank) -> 1.0 / (k + rank));
    }

    /**
     * Weighted fusion: each list's scores are min-max normalised to [0, 1] (a list whose scores are all equal gives
     * each 1), multiplied by the modality's weight and summed; a chunk absent from a list gets 0 from it.
     */
    static Fusion weighted(Map<Modality, Double> weights) {
        return rankings -> {
            Map<Modality, double[]> bounds = new HashMap<>();
            rankings.forEach((m, list) -> bounds.put(m, new double[] {
                list.stream().mapToDouble(StoreHit::score).min().orElse(0),
                list.stream().mapToDouble(StoreHit::score).max().orElse(0)}));
            return combine(rankings, (modality, list, rank) -> {
                double[] b = bounds.get(modality);
                double s = list.get(rank - 1).score();
                double norm = b[1] > b[0] ? (s - b[0]) / (b[1] - b[0]) : 1.0;
                return weights.getOrDefault(modality, 0.0) * norm;
            });
        };
    }

    /** How much the hit at {@code rank} (1-based) of {@code list} contributes. */
    interface Contribution {
        double of(Modality modality, List<StoreHit> list, int rank);
    }

    private static List<FusedHit> combine(Map<Modality, List<StoreHit>> rankings, Contribution contribution) {
        Map<String, Double> scores = new LinkedHashMap<>();
        Map<String, Map<String, SourceScore>> sources = new HashMap<>();
        rankings.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
            List<StoreHit> list = e.getValue();
            for (int i = 0; i < list.size(); i++) {
                StoreHit h = list.get(i);
                Map<String, SourceScore> seen = sources.computeIfAbsent(h.chunkId(), id -> new HashMap<>());
                if (seen.containsKey(e.getKey().wireName())) {
                    continue;
                }
                seen.put(e.getKey().wireName(), new SourceScore(i + 1, h.score()));
                scores.merge(h.chunkId(), contribution.of(e.getKey(), list, i + 1), Double::sum);
            }
        });
        List<FusedHit> out = new ArrayList<>(scores.size());
        scores.forEach((id, s) -> out.add(new FusedHit(id, s, sources.get(id))));
        out.sort(FusedHit.ORDER);
        return out;
    }
}
