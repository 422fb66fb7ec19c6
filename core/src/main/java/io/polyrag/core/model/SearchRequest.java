package io.polyrag.core.model;

import java.util.List;
import java.util.Set;

/**
 * A search.
 *
 * @param query the user's text
 * @param topK how many hits to return
 * @param knowledgeBases knowledge bases to search; empty means all
 * @param modalities retrievers to run; empty means every enabled one
 * @param fusion how to fuse their rankings; null means the configured default
 */
public record SearchRequest(String query, int topK, List<String> knowledgeBases, Set<Modality> modalities,
        FusionMethod fusion) {
    public SearchRequest {
        knowledgeBases = List.copyOf(KnowledgeBase.scope(knowledgeBases).knowledgeBases());
        modalities = modalities == null ? Set.of() : Set.copyOf(modalities);
    }

    public static SearchRequest of(String query, int topK) {
        return new SearchRequest(query, topK, List.of(), Set.of(), null);
    }

    public SearchScope scope() {
        return KnowledgeBase.scope(knowledgeBases);
    }
}
