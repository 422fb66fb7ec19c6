package io.polyrag.app.quality;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * How far a mean over queries can be trusted: a 95% confidence interval of a run's mean, and a paired comparison of
 * two runs over the same queries (the mean difference, its 95% interval, and a two-sided paired randomisation test,
 * the test IR evaluation recommends for per-query metrics). The randomisation uses a fixed seed, so one report always
 * prints the same p-value.
 */
public final class Significance {
    /** Sign-flip permutations of the randomisation test. */
    public static final int TRIALS = 10_000;
    private static final double Z95 = 1.959964;

    private Significance() {
    }

    /**
     * The paired difference of two runs.
     *
     * @param run the run compared against
     * @param delta mean of (this run − that run) over the queries both scored
     * @param ci95 normal-approximation 95% interval of that mean
     * @param p two-sided p-value of the paired randomisation test
     */
    public record Comparison(String run, double delta, List<Double> ci95, double p) {
    }

    /** Mean ± 1.96 standard errors; a single value or none gives an interval of zero width. */
    public static List<Double> ci95(Collection<Double> values) {
        return interval(values.stream().mapToDouble(Double::doubleValue).toArray());
    }

    /** {@code a} against {@code b} on the queries both hold. */
    public static Comparison compare(Map<String, Double> a, String bName, Map<String, Double> b) {
        double[] d = differences(a, b);
        double mean = mean(d);
        return new Comparison(bName, round(mean), interval(d), randomisationP(d, mean));
    }

    /**
     * A regression gate's test of {@code a} against {@code b} on the queries both hold: the one-sided p that {@code a}
     * is worse (share of sign flips whose sum is at most the observed one), and how many queries changed at all. The
     * two-sided p cannot fall below 0.05 with fewer than six changed queries, so a gate on it passed five queries
     * dropping from 1 to 0.
     *
     * @param delta mean of (a − b), not rounded: a gate decides on it (rounded to four places, a loss of one query
     *     in a thousand by 0.05 was 0 and passed)
     * @param p one-sided p-value of "a is worse"
     * @param changed queries whose score differs
     * @param worsened queries whose score fell
     * @param compared queries both hold
     */
    public record Regression(double delta, double p, int changed, int worsened, int compared) {
        /**
         * Too few queries fell for any p below 0.05: a test cannot tell, whatever they did. Counted over those that
         * fell, not all that changed: four queries dropping from 1 to 0 beside a fifth that gained 0.001 could not
         * reach p 0.05 either, and passed.
         */
        public boolean untestable() {
            return worsened > 0 && Math.pow(0.5, worsened) >= 0.05;
        }
    }

    public static Regression regression(Map<String, Double> a, Map<String, Double> b) {
        double[] d = differences(a, b);
        int changed = (int) Arrays.stream(d).filter(x -> Math.abs(x) > 1e-12).count();
        int worsened = (int) Arrays.stream(d).filter(x -> x < -1e-12).count();
        double sum = 0;
        for (double x : d) {
            sum += x;
        }
        if (changed == 0) {
            return new Regression(0, 1.0, 0, 0, d.length);
        }
        SplittableRandom random = new SplittableRandom(20_070_101L);
        int extreme = 0;
        for (int t = 0; t < TRIALS; t++) {
            double flipped = 0;
            for (double x : d) {
                flipped += random.nextBoolean() ? x : -x;
            }
            if (flipped <= sum + 1e-9) {
                extreme++;
            }
        }
        return new Regression(sum / d.length, round((extreme + 1.0) / (TRIALS + 1.0)), changed, worsened, d.length);
    }

    /** {@code a}'s score minus {@code b}'s, for each query both hold. */
    private static double[] differences(Map<String, Double> a, Map<String, Double> b) {
        List<Double> diffs = new ArrayList<>();
        a.forEach((q, x) -> {
            Double y = b.get(q);
            if (y != null) {
                diffs.add(x - y);
            }
        });
        return diffs.stream().mapToDouble(Double::doubleValue).toArray();
    }

    private static List<Double> interval(double[] v) {
        double mean = mean(v);
        double half = Z95 * standardError(v, mean);
        return List.of(round(mean - half), round(mean + half));
    }

    /** Flips the sign of each difference at random; p = share of flips whose mean is at least as extreme. */
    static double randomisationP(double[] d, double observed) {
        if (d.length == 0) {
            return 1.0;
        }
        SplittableRandom random = new SplittableRandom(20_070_101L);
        double limit = Math.abs(observed) * d.length - 1e-9;
        int extreme = 0;
        for (int t = 0; t < TRIALS; t++) {
            double sum = 0;
            for (double x : d) {
                sum += random.nextBoolean() ? x : -x;
            }
            if (Math.abs(sum) >= limit) {
                extreme++;
            }
        }
        return round((extreme + 1.0) / (TRIALS + 1.0));
    }

    private static double mean(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x;
        }
        return v.length == 0 ? 0 : s / v.length;
    }

    private static double standardError(double[] v, double mean) {
        if (v.length < 2) {
            return 0;
        }
        double ss = 0;
        for (double x : v) {
            ss += (x - mean) * (x - mean);
        }
        return Math.sqrt(ss / (v.length - 1)) / Math.sqrt(v.length);
    }

    private static double round(double v) {
        return Math.round(v * 10000) / 10000.0;
    }
}
