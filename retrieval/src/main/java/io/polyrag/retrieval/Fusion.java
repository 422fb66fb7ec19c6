package io.polyrag.retrieval;

import io.polyrag.core.model.Modality;
import io.polyrag.core.model.SourceScore;
import io.polyrag.core.model.StoreHit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns per-modality rankings into one. Every fused hit keeps the rank and score it had in each list that held it.
 * A chunk listed twice in one list counts once, at its better rank. Output is sorted by {@link FusedHit#ORDER}.
 *
 * <p>Only the first {@code depth} entries of each list earn a score (and weighted fusion normalises over those
 * only); entries further down keep their provenance and are ordered after, by their best rank. So the fused order of
 * the top of the ranking does not depend on how deep a caller asked the retrievers to go: top_k = 100 begins with
 * exactly the hits of top_k = 10.
 *
 * <p>A <em>calibrated</em> list (a retriever whose scores lie in [0, 1] and mean the same from query to query, such
 * as the graph legs', whose scores carry their confidence) is not rescaled by its own spread: in weighted fusion its
 * scores count as they are, on the scale of the other lists' best normalised score, so a list whose lowest entry is
 * strong evidence is not pushed to zero; in RRF each rank's vote is multiplied by the list's best score, its
 * confidence. An empty calibrated list (nothing the leg knows is named) changes nothing.
 */
public interface Fusion {

    List<FusedHit> fuse(Map<Modality, List<StoreHit>> rankings);

    /** Reciprocal rank fusion: score = sum over lists of {@code weight / (k + rank)}; ranks are 1-based. */
    static Fusion rrf(int k, int depth) {
        return rrf(k, depth, Set.of());
    }

    /** RRF where the lists of {@code calibrated} modalities vote in proportion to their best score. */
    static Fusion rrf(int k, int depth, Set<Modality> calibrated) {
        if (k < 1) {
            throw new IllegalArgumentException("rrf k must be at least 1, was " + k);
        }
        return rankings -> combine(rankings, depth, (modality, list, rank) -> (calibrated.contains(modality)
                ? Math.max(0, Math.min(1.0, list.getFirst().score())) : 1.0) / (k + rank));
    }

    /** How weighted fusion puts each list's scores on one scale. */
    enum Normalization {
        /** (score − min) / (max − min) over the scored depth: the top hit 1, the last 0. */
        MINMAX,
        /** (score − min) / standard deviation over the scored depth: robust to a single outlying top score. */
        ZSCORE
    }

    /**
     * Weighted fusion: a convex combination of normalised scores. Each list is shifted so that its lowest scored
     * entry is 0 (a chunk absent from a list is treated as that list's lowest) and scaled by {@code normalization};
     * a list whose scores are all equal gives each 1. Then each modality's weight multiplies and the products add up.
     */
    static Fusion weighted(Map<Modality, Double> weights, int depth, Normalization normalization) {
        return weighted(weights, depth, normalization, Set.of());
    }

    /**
     * Weighted fusion where the lists of {@code calibrated} modalities keep their scores, multiplied by the largest
     * normalised score of the other lists (1 when there are none).
     */
    static Fusion weighted(Map<Modality, Double> weights, int depth, Normalization normalization,
            Set<Modality> calibrated) {
        return weighted(weights, depth, normalization, calibrated, Set.of());
    }

    /**
     * Weighted fusion where the lists of {@code calibrated} modalities keep their scores, and those of {@code sure}
     * modalities (a leg that found what the query asks, {@link Retriever.Leg#sure}) are read relative to their best
     * hit, which then counts as fully confident: what the leg found best is what the query asks for, however long the
     * path to it.
     */
    static Fusion weighted(Map<Modality, Double> weights, int depth, Normalization normalization,
            Set<Modality> calibrated, Set<Modality> sure) {
        return rankings -> {
            Map<Modality, double[]> scale = new HashMap<>();
            double top = 0;
            for (var e : rankings.entrySet()) {
                double[] b = scale(e.getValue(), depth, normalization);
                scale.put(e.getKey(), b);
                if (!calibrated.contains(e.getKey()) && !e.getValue().isEmpty() && b[1] > 0) {
                    top = Math.max(top, (e.getValue().getFirst().score() - b[0]) / b[1]);
                }
            }
            // The best normalised score of a list with a spread: what a list without one (a single hit, or equal
            // scores) counts for, and the graph legs' scale. Under z-scores a list's top lands near 3.5 and a
            // spreadless one counted 1: a code only one passage contains, found by full text alone, ranked ~70th.
            double ceiling = top > 0 ? top : 1.0;
            return combine(rankings, depth, (modality, list, rank) -> {
                double score = list.get(rank - 1).score();
                if (calibrated.contains(modality)) {
                    double best = list.getFirst().score();
                    double confidence = sure.contains(modality) && best > 0 ? score / best : score;
                    return weights.getOrDefault(modality, 0.0) * ceiling * Math.max(0, Math.min(1, confidence));
                }
                double[] b = scale.get(modality);
                double norm = b[1] > 0 ? (score - b[0]) / b[1] : ceiling;
                return weights.getOrDefault(modality, 0.0) * norm;
            });
        };
    }

    /** The list's lowest scored value and its spread under the normalisation. */
    private static double[] scale(List<StoreHit> list, int depth, Normalization normalization) {
        double[] s = list.stream().limit(depth).mapToDouble(StoreHit::score).toArray();
        double min = Arrays.stream(s).min().orElse(0);
        double max = Arrays.stream(s).max().orElse(0);
        if (normalization == Normalization.MINMAX) {
            return new double[] {min, max - min};
        }
        double mean = Arrays.stream(s).average().orElse(0);
        double variance = Arrays.stream(s).map(x -> (x - mean) * (x - mean)).average().orElse(0);
        return new double[] {min, Math.sqrt(variance)};
    }

    /** How much the hit at {@code rank} (1-based) of {@code list} contributes. */
    interface Contribution {
        double of(Modality modality, List<StoreHit> list, int rank);
    }

    private static List<FusedHit> combine(Map<Modality, List<StoreHit>> rankings, int depth,
            Contribution contribution) {
        Map<String, Double> scores = new LinkedHashMap<>();
        Map<String, Map<String, SourceScore>> sources = new HashMap<>();
        Map<String, Map<String, Double>> contributions = new HashMap<>();
        rankings.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
            List<StoreHit> list = e.getValue();
            for (int i = 0; i < list.size(); i++) {
                StoreHit h = list.get(i);
                Map<String, SourceScore> seen = sources.computeIfAbsent(h.chunkId(), id -> new HashMap<>());
                if (seen.containsKey(e.getKey().wireName())) {
                    continue;
                }
                seen.put(e.getKey().wireName(), new SourceScore(i + 1, h.score()));
                double c = i < depth ? contribution.of(e.getKey(), list, i + 1) : 0.0;
                scores.merge(h.chunkId(), c, Double::sum);
                contributions.computeIfAbsent(h.chunkId(), id -> new HashMap<>()).put(e.getKey().wireName(), c);
            }
        });
        List<FusedHit> out = new ArrayList<>(scores.size());
        scores.forEach((id, s) -> out.add(new FusedHit(id, s, sources.get(id), contributions.get(id), List.of())));
        out.sort(FusedHit.ORDER);
        return out;
    }
}
