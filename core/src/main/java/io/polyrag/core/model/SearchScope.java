package io.polyrag.core.model;

import java.util.Set;

/**
 * Which knowledge bases a search may see. An empty set means every knowledge base.
 *
 * @param knowledgeBases names of the knowledge bases to search
 */
public record SearchScope(Set<String> knowledgeBases) {
    public static final SearchScope ALL = new SearchScope(Set.of());

    public SearchScope {
        knowledgeBases = Set.copyOf(knowledgeBases);
    }

    public boolean admits(String knowledgeBase) {
        return knowledgeBases.isEmpty() || knowledgeBases.contains(knowledgeBase);
    }
}
