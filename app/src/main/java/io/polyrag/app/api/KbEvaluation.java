package io.polyrag.app.api;

import io.polyrag.app.quality.Significance;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * A knowledge base's search measured on its own judged queries: each run's mean nDCG@10, Recall@100 and MRR@10 with
 * a 95% interval, and each against the configured search (paired randomisation test).
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record KbEvaluation(String knowledgeBase, int queries, int documents, Instant evaluatedAt, List<Run> runs) {

    /**
     * One run.
     *
     * @param name {@code configured} (the fusion every knowledge base gets), {@code tuned} (the knowledge base's
     *     own, when a tuning was applied), or one leg alone ({@code vector}, {@code fulltext}, …)
     * @param perQueryNdcg nDCG@10 by query id (what a saved report compares a later one with)
     * @param vsConfigured this run against {@code configured}: mean difference, its interval, p (absent for it)
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Run(String name, String description, double ndcg10, double recall100, double mrr10,
            List<Double> ndcg10Ci95, Significance.Comparison vsConfigured, Map<String, Double> perQueryNdcg) {
    }
}
