package io.polyrag.core.model;

import java.util.List;
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
 */
public record SearchRequest(String query, int topK, List<String> knowledgeBases, Set<Modality> modalities,
        FusionMethod fusion, Set<String> documentIds, String category) {
    public SearchRequest(String query, int topK, List<String> knowledgeBases, Set<Modality> modalities,
            FusionMethod fusion) {
        this(query, topK, knowledgeBases, modalities, fusion, Set.of(), null);
    }

    public SearchRequest {
        documentIds = documentIds == null ? Set.of() : Set.copyOf(documentIds);
        knowledgeBases = knowledgeBases == null ? List.of()
                : knowledgeBases.stream().filter(k -> k != null && !k.isBlank()).distinct().toList();
        modalities = modalities == null ? Set.of() : Set.copyOf(modalities);
    }

    public static SearchRequest of(String query, int topK) {
        return new SearchRequest(query, topK, List.of(), Set.of(), null);
    }

    /** This request over other knowledge bases (their stored names). */
    public SearchRequest over(java.util.Collection<String> storedKnowledgeBases) {
        return new SearchRequest(query, topK, List.copyOf(storedKnowledgeBases), modalities, fusion, documentIds,
                category);
    }

    public SearchScope scope() {
        return new SearchScope(Set.copyOf(knowledgeBases), documentIds, category);
    }
}
