package io.polyrag.app.api;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * What tuning a knowledge base's fusion found: the fusion its searches use when {@code applied}, and what that choice
 * measured on held-out folds of the knowledge base's judged queries against the configured fusion.
 *
 * @param applied whether its searches use this fusion (false: the configured one was as good or better, kept)
 * @param fusion {@code weighted}, {@code rrf}, or {@code configured} (the configured method: a tuning of depth or
 *     blend alone, or none applied)
 * @param weights per-leg weights of weighted fusion (the legs it changes; others keep their configured weight)
 * @param rrfK the k of reciprocal rank fusion, for {@code rrf}
 * @param queries judged queries it learned from
 * @param folds cross-validation folds
 * @param ndcg10Configured mean nDCG@10 of the configured fusion over the judged queries
 * @param ndcg10Tuned mean nDCG@10 of the tuned choice, each query scored by a choice made without it (held out)
 * @param delta {@code ndcg10Tuned - ndcg10Configured}
 * @param p two-sided p-value of the paired randomisation test of that difference
 * @param reason why it was or was not applied, in words
 * @param documents documents visible in the knowledge base when tuning started (the fixed set it searched)
 * @param candidates each fusion tried, with its mean nDCG@10 over every judged query (not held out)
 * @param candidateDepth how many hits each leg returns and fusion scores ({@code search.candidates}); null: the
 *     configured depth
 * @param fulltextDocumentWeight the full-text leg's blend of passage and whole-document BM25
 *     ({@code fulltext.document.weight}); null: the configured blend
 * @param vectorDocumentWeight the vector leg's blend of passage and whole-document cosine
 *     ({@code vector.document.weight}); null: the configured blend
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record FusionTuning(boolean applied, String fusion, Map<String, Double> weights, Integer rrfK, int queries,
        int folds, double ndcg10Configured, double ndcg10Tuned, double delta, double p, String reason, int documents,
        Instant tunedAt, List<Candidate> candidates, Integer candidateDepth, Double fulltextDocumentWeight,
        Double vectorDocumentWeight) {

    /** This result, not applied, for {@code why}: what it measured does not stand for the searches it would change. */
    public FusionTuning withheld(String why) {
        return new FusionTuning(false, fusion, weights, rrfK, queries, folds, ndcg10Configured, ndcg10Tuned, delta, p,
                why, documents, tunedAt, candidates, candidateDepth, fulltextDocumentWeight, vectorDocumentWeight);
    }

    /** A fusion tuning tried: its name ({@code configured}, {@code weighted vector=0.3 fulltext=0.7}, {@code rrf k=30}). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Candidate(String name, double ndcg10) {
    }
}
