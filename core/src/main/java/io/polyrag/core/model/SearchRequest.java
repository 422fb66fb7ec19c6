package io.polyrag.core.model;

import io.polyrag.core.InvalidInputException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A search.
 *
 * @param query the user's text
 * @param topK how many hits to return
 * @param knowledgeBases knowledge bases to search, as the caller names them (the facet checks them and puts them in
 *     the tenant's namespace before the searcher sees them); empty means all of the caller's
 * @param modalities retrievers to run; empty means every enabled one
 * @param fusion how to fuse their rankings; null means the configured default
 * @param documentIds only hits of these documents; empty means any (applied where hits meet the catalog, to the
 *     retrievers' candidates)
 * @param category only hits of documents with this category; null means any (likewise)
 * @param tuning this search's fusion constants and reranking, each null for the configured value
 */
public record SearchRequest(String query, int topK, List<String> knowledgeBases, Set<Modality> modalities,
        FusionMethod fusion, Set<String> documentIds, String category, Tuning tuning) {
    public SearchRequest(String query, int topK, List<String> knowledgeBases, Set<Modality> modalities,
            FusionMethod fusion) {
        this(query, topK, knowledgeBases, modalities, fusion, Set.of(), null);
    }

    public SearchRequest(String query, int topK, List<String> knowledgeBases, Set<Modality> modalities,
            FusionMethod fusion, Set<String> documentIds, String category) {
        this(query, topK, knowledgeBases, modalities, fusion, documentIds, category, Tuning.CONFIGURED);
    }

    /**
     * One search's overrides of the configured fusion and reranking (what a UI's controls or an experiment change).
     *
     * @param rrfK the k of reciprocal rank fusion, 1-10000; null for the configured one
     * @param weights weighted fusion's per-modality weights, each 0-1000; a modality not named keeps its configured
     *     weight
     * @param rerank false skips the configured reranker; true asks for it (a warning when none is configured); null
     *     for the configured behaviour
     */
    public record Tuning(Integer rrfK, Map<Modality, Double> weights, Boolean rerank) {
        public static final Tuning CONFIGURED = new Tuning(null, Map.of(), null);

        public Tuning {
            weights = weights == null ? Map.of() : Map.copyOf(weights);
            if (rrfK != null && (rrfK < 1 || rrfK > 10_000)) {
                throw new InvalidInputException("rrf_k must be between 1 and 10000, was " + rrfK);
            }
            weights.forEach((m, w) -> {
                if (w == null || !Double.isFinite(w) || w < 0 || w > 1000) {
                    throw new InvalidInputException("weights." + m.wireName() + " must be a number "
                            + "between 0 and 1000, was " + w);
                }
            });
        }
    }

    public SearchRequest {
        tuning = tuning == null ? Tuning.CONFIGURED : tuning;
        documentIds = documentIds == null ? Set.of() : Set.copyOf(documentIds);
        knowledgeBases = knowledgeBases == null ? List.of()
                : knowledgeBases.stream().filter(k -> k != null && !k.isBlank()).distinct().toList();
        modalities = modalities == null ? Set.of() : Set.copyOf(modalities);
    }

    public static SearchRequest of(String query, int topK) {
        return new SearchRequest(query, topK, List.of(), Set.of(), null);
    }

    /** This request asking for {@code topK} hits. */
    public SearchRequest withTopK(int topK) {
        return topK == this.topK ? this : new SearchRequest(query, topK, knowledgeBases, modalities, fusion,
                documentIds, category, tuning);
    }

    /** This request over other knowledge bases (their stored names). */
    public SearchRequest over(Collection<String> storedKnowledgeBases) {
        return new SearchRequest(query, topK, List.copyOf(storedKnowledgeBases), modalities, fusion, documentIds,
                category, tuning);
    }

    public SearchScope scope() {
        return new SearchScope(Set.copyOf(knowledgeBases), documentIds, category);
    }
}
