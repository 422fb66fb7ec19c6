package io.polyrag.app.quality;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Ranking metrics as trec_eval computes them: gains are the judged relevance grades, the discount is
 * log2(rank + 1), documents with grade 0 or no judgement gain nothing, and the ideal ranking sorts the judged grades.
 */
public final class Metrics {
    private Metrics() {
    }

    /** nDCG at {@code k}; 0 when the query has no relevant document. */
    public static double ndcg(List<String> ranked, Map<String, Integer> judged, int k) {
        double dcg = 0;
        for (int i = 0; i < Math.min(k, ranked.size()); i++) {
            int g = judged.getOrDefault(ranked.get(i), 0);
            if (g > 0) {
                dcg += g / log2(i + 2);
            }
        }
        List<Integer> ideal = judged.values().stream().filter(g -> g > 0).sorted((a, b) -> b - a).toList();
        double idcg = 0;
        for (int i = 0; i < Math.min(k, ideal.size()); i++) {
            idcg += ideal.get(i) / log2(i + 2);
        }
        return idcg == 0 ? 0 : dcg / idcg;
    }

    /** Share of the relevant documents found in the first {@code k}. */
    public static double recall(List<String> ranked, Map<String, Integer> judged, int k) {
        long relevant = judged.values().stream().filter(g -> g > 0).count();
        if (relevant == 0) {
            return 0;
        }
        long found = ranked.stream().limit(k).filter(d -> judged.getOrDefault(d, 0) > 0).count();
        return (double) found / relevant;
    }

    /** Reciprocal rank of the first relevant document within the first {@code k}, else 0. */
    public static double mrr(List<String> ranked, Map<String, Integer> judged, int k) {
        for (int i = 0; i < Math.min(k, ranked.size()); i++) {
            if (judged.getOrDefault(ranked.get(i), 0) > 0) {
                return 1.0 / (i + 1);
            }
        }
        return 0;
    }

    private static double log2(double x) {
        return Math.log(x) / Math.log(2);
    }

    /** The mean of {@code v}; 0 when empty. */
    public static double mean(Collection<Double> v) {
        return v.stream().mapToDouble(Double::doubleValue).average().orElse(0);
    }

    /** The mean of {@code v}; 0 when empty. */
    public static double mean(double[] v) {
        return Arrays.stream(v).average().orElse(0);
    }

    /** {@code v} to four decimals, as reports show a metric. */
    public static double round(double v) {
        return Math.round(v * 10000) / 10000.0;
    }
}
