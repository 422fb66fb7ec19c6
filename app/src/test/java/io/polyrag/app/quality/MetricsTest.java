package io.polyrag.app.quality;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

class MetricsTest {
    private static final Offset<Double> EPS = Offset.offset(1e-4);

    @Test
    void ndcg_discounts_by_log2_of_rank_plus_one_and_normalises_by_the_ideal_ranking() {
        assertThat(Metrics.ndcg(List.of("a", "x", "b"), Map.of("a", 1, "b", 1), 10)).isCloseTo(0.9197, EPS);
        assertThat(Metrics.ndcg(List.of("a", "b"), Map.of("a", 1, "b", 1), 10)).isCloseTo(1.0, EPS);
        assertThat(Metrics.ndcg(List.of("x", "y"), Map.of("a", 1), 10)).isZero();
    }

    @Test
    void ndcg_uses_graded_gains_like_trec_eval() {
        assertThat(Metrics.ndcg(List.of("b", "a"), Map.of("a", 2, "b", 1), 10)).isCloseTo(0.8597, EPS);
        assertThat(Metrics.ndcg(List.of("a", "z"), Map.of("a", 2, "z", 0), 10)).isCloseTo(1.0, EPS);
    }

    @Test
    void ndcg_only_counts_the_cut() {
        assertThat(Metrics.ndcg(List.of("x", "a"), Map.of("a", 1), 1)).isZero();
    }

    @Test
    void recall_and_mrr_follow_their_definitions() {
        Map<String, Integer> judged = Map.of("a", 1, "b", 1, "c", 0);
        assertThat(Metrics.recall(List.of("x", "a", "c"), judged, 100)).isCloseTo(0.5, EPS);
        assertThat(Metrics.recall(List.of("x", "a", "b"), judged, 2)).isCloseTo(0.5, EPS);
        assertThat(Metrics.mrr(List.of("x", "c", "b"), judged, 10)).isCloseTo(1.0 / 3, EPS);
        assertThat(Metrics.mrr(List.of("x", "y"), judged, 10)).isZero();
    }
}
