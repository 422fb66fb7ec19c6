package io.polyrag.core.model;

import java.util.List;

/**
 * A search's result.
 *
 * @param query the query as received
 * @param tookMs wall time in milliseconds
 * @param modalities the retrievers that ran
 * @param degraded retrievers that failed or timed out
 * @param hits the fused, deduplicated hits, best first
 * @param warnings steps that failed without failing the search (a reranker that could not answer, …)
 */
public record SearchResponse(String query, long tookMs, List<Modality> modalities, List<DegradedLeg> degraded,
        List<SearchHit> hits, List<String> warnings, String fusion) {
    public SearchResponse(String query, long tookMs, List<Modality> modalities, List<DegradedLeg> degraded,
            List<SearchHit> hits, List<String> warnings) {
        this(query, tookMs, modalities, degraded, hits, warnings, "");
    }

    public SearchResponse {
        modalities = List.copyOf(modalities);
        degraded = List.copyOf(degraded);
        hits = List.copyOf(hits);
        warnings = List.copyOf(warnings);
    }
}
