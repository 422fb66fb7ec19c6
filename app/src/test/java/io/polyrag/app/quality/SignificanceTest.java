package io.polyrag.app.quality;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SignificanceTest {
    private static Map<String, Double> scores(double... v) {
        Map<String, Double> m = new LinkedHashMap<>();
        for (int i = 0; i < v.length; i++) {
            m.put("q" + i, v[i]);
        }
        return m;
    }

    @Test
    void confidence_interval_is_the_mean_plus_minus_two_standard_errors() {
        // mean 0.5, sample sd 0.5774, standard error 0.2887, half-width 1.96 * 0.2887 = 0.5658
        assertThat(Significance.ci95(List.of(0.0, 1.0, 0.0, 1.0))).containsExactly(-0.0658, 1.0658);
        assertThat(Significance.ci95(List.of(0.7))).containsExactly(0.7, 0.7);
    }

    @Test
    void a_consistent_gain_on_every_query_is_significant() {
        double[] base = new double[40];
        double[] better = new double[40];
        for (int i = 0; i < 40; i++) {
            base[i] = (i % 5) / 10.0;
            better[i] = base[i] + 0.2;
        }
        Significance.Comparison c = Significance.compare(scores(better), "vector", scores(base));
        assertThat(c.run()).isEqualTo("vector");
        assertThat(c.delta()).isCloseTo(0.2, within(1e-9));
        assertThat(c.ci95()).containsExactly(0.2, 0.2);
        assertThat(c.p()).isLessThan(0.001);
    }

    @Test
    void wins_and_losses_that_cancel_are_not_significant() {
        double[] a = new double[40];
        double[] b = new double[40];
        for (int i = 0; i < 40; i++) {
            a[i] = i % 2 == 0 ? 0.9 : 0.1;
            b[i] = i % 2 == 0 ? 0.1 : 0.9;
        }
        Significance.Comparison c = Significance.compare(scores(a), "fulltext", scores(b));
        assertThat(c.delta()).isZero();
        assertThat(c.ci95().get(0)).isNegative();
        assertThat(c.ci95().get(1)).isPositive();
        assertThat(c.p()).isGreaterThan(0.5);
    }

    @Test
    void only_queries_both_runs_scored_are_paired_and_the_result_is_reproducible() {
        Map<String, Double> a = scores(0.9, 0.8, 0.7, 0.95, 0.6, 0.85);
        Map<String, Double> b = new LinkedHashMap<>(scores(0.5, 0.9, 0.4, 0.7, 0.6, 0.2));
        b.put("only-in-b", 0.0);
        Significance.Comparison first = Significance.compare(a, "b", b);
        assertThat(first.delta()).isCloseTo((0.4 - 0.1 + 0.3 + 0.25 + 0 + 0.65) / 6, within(1e-4));
        assertThat(Significance.compare(a, "b", b)).isEqualTo(first);
        assertThat(Significance.compare(Map.of(), "b", b).p()).isEqualTo(1.0);
    }

    /**
     * A gate's one-sided test: five of fifty queries dropping from 1 to 0 is a regression (the two-sided p could not
     * fall below 0.0625 with five changed queries, and the gate passed it); four or fewer changed are too few for any
     * test, which the gate is told.
     */
    @Test
    void a_regression_on_five_queries_of_fifty_is_found_one_sided() {
        Map<String, Double> before = new java.util.HashMap<>();
        Map<String, Double> now = new java.util.HashMap<>();
        for (int i = 0; i < 50; i++) {
            before.put("q" + i, 1.0);
            now.put("q" + i, i < 5 ? 0.0 : 1.0);
        }
        Significance.Regression r = Significance.regression(now, before);
        assertThat(r.delta()).isCloseTo(-0.1, within(1e-9));
        assertThat(r.changed()).isEqualTo(5);
        assertThat(r.compared()).isEqualTo(50);
        assertThat(r.p()).isLessThan(0.05);
        assertThat(r.untestable()).isFalse();
        assertThat(Significance.compare(now, "before", before).p()).as("two-sided").isGreaterThan(0.05);
        now.put("q4", 1.0);
        assertThat(Significance.regression(now, before).untestable()).isTrue();
        assertThat(Significance.regression(before, before).changed()).isZero();
        assertThat(Significance.regression(before, now).p()).as("better is not worse").isGreaterThan(0.9);
        // Four fell from 1 to 0 and a fifth gained a little: still too few fell for a test (it passed the gate).
        now.put("q4", 1.0);
        now.put("q10", 0.999);
        before.put("q10", 0.998);
        Significance.Regression mixed = Significance.regression(now, before);
        assertThat(mixed.changed()).isEqualTo(5);
        assertThat(mixed.worsened()).isEqualTo(4);
        assertThat(mixed.untestable()).isTrue();
        assertThat(mixed.delta()).isNegative();
        // A loss too small for four decimal places is still a loss.
        Map<String, Double> many = new java.util.HashMap<>();
        Map<String, Double> manyBefore = new java.util.HashMap<>();
        for (int i = 0; i < 1000; i++) {
            manyBefore.put("q" + i, 1.0);
            many.put("q" + i, i == 0 ? 0.95 : 1.0);
        }
        assertThat(Significance.regression(many, manyBefore).delta()).isNegative();
    }
}
