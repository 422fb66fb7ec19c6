package io.polyrag.eval;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.polyrag.app.quality.Significance;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What {@code polyrag eval} measured.
 *
 * @param dataset the dataset's folder name
 * @param documents corpus documents
 * @param queries judged queries evaluated
 * @param runs one entry per configuration
 * @param ingest how the corpus was indexed
 * @param warnings what the loader skipped or doubted
 * @param searchDepth chunks each search asked for, which sets each leg's depth (reports written before it was kept
 *     searched 300 deep)
 */
public record EvalReport(String dataset, int documents, int queries, List<Run> runs, Ingest ingest,
        List<String> warnings, int searchDepth) {
    /** JSON name of a run's per-query nDCG@10 (query id → score). */
    public static final String PER_QUERY = "perQueryNdcg@10";

    /**
     * One configuration's scores and query latency.
     *
     * @param ndcg10Ci95 95% confidence interval of the nDCG@10 mean over the queries
     * @param vsBestSingle for a fused run, its paired comparison with the best single-modality run of the report
     *     (absent for single-modality runs, or when the report has none)
     * @param vsBaseline its paired comparison with the same-named run of a baseline report ({@code --baseline})
     * @param perQueryNdcg nDCG@10 per query id: for the per-query charts and for later paired comparisons
     * @param vsRaw for a fused polyrag run, its paired comparison with the better raw-library fusion ({@code raw-rrf}, {@code raw-minmax})
     *     when the report has it
     */
    public record Run(String name, List<String> modalities, String fusion, @JsonProperty("ndcg@10") double ndcg10,
            @JsonProperty("recall@100") double recall100, @JsonProperty("mrr@10") double mrr10, double p50Ms,
            double p99Ms, @JsonProperty("ndcg@10Ci95") List<Double> ndcg10Ci95,
            @JsonInclude(JsonInclude.Include.NON_NULL) Significance.Comparison vsBestSingle,
            @JsonInclude(JsonInclude.Include.NON_NULL) Significance.Comparison vsBaseline,
            @JsonProperty(PER_QUERY) Map<String, Double> perQueryNdcg,
            @JsonInclude(JsonInclude.Include.NON_NULL) Significance.Comparison vsRaw) {

        /**
         * A run as measured, before it is compared with anything.
         *
         * @param name the run's name
         * @param modalities its legs
         * @param fusion how they were fused
         * @param measured its figures
         * @param perQueryNdcg each query's nDCG@10
         */
        public static Run measured(String name, List<String> modalities, String fusion, Measured measured,
                Map<String, Double> perQueryNdcg) {
            return new Run(name, modalities, fusion, measured.ndcg10(), measured.recall100(), measured.mrr10(),
                    measured.p50Ms(), measured.p99Ms(), measured.ndcg10Ci95(), null, null, perQueryNdcg, null);
        }

        Run withComparison(Significance.Comparison comparison) {
            return new Run(name, modalities, fusion, ndcg10, recall100, mrr10, p50Ms, p99Ms, ndcg10Ci95, comparison,
                    vsBaseline, perQueryNdcg, vsRaw);
        }

        Run withBaseline(Significance.Comparison comparison) {
            return new Run(name, modalities, fusion, ndcg10, recall100, mrr10, p50Ms, p99Ms, ndcg10Ci95,
                    vsBestSingle, comparison, perQueryNdcg, vsRaw);
        }

        Run withRaw(Significance.Comparison comparison) {
            return new Run(name, modalities, fusion, ndcg10, recall100, mrr10, p50Ms, p99Ms, ndcg10Ci95,
                    vsBestSingle, vsBaseline, perQueryNdcg, comparison);
        }

        /** Whether this is a raw-library reference run rather than polyrag's. */
        public boolean raw() {
            return name.startsWith("raw-");
        }
    }

    /** A run's figures: means over the queries, latency percentiles, nDCG@10's 95% interval. */
    public record Measured(double ndcg10, double recall100, double mrr10, double p50Ms, double p99Ms,
            List<Double> ndcg10Ci95) {
    }

    /**
     * Indexing of the corpus.
     *
     * @param seconds wall time of the ingest
     * @param docsPerSecond documents indexed per second (0 when the index was reused)
     * @param chunksPerSecond chunks indexed per second
     * @param chunks chunks written by this ingest
     * @param reused documents found already indexed with the same content and settings
     */
    public record Ingest(double seconds, double docsPerSecond, double chunksPerSecond, int chunks, int reused) {
    }

    /** The ingest in words: speeds when documents were indexed, or that the index was reused. */
    public static String describe(Ingest i) {
        String speed = String.format(Locale.ROOT, "ingest %.1f s (%.1f docs/s, %.1f chunks/s)", i.seconds(),
                i.docsPerSecond(), i.chunksPerSecond());
        if (i.chunks() == 0 && i.reused() > 0) {
            return "index reused: all " + i.reused() + " documents were already indexed with these settings";
        }
        return i.reused() > 0 ? speed + ", " + i.reused() + " documents reused" : speed;
    }
}
