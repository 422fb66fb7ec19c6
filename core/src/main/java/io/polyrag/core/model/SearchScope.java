package io.polyrag.core.model;

import java.util.Set;

/**
 * What a search or a listing may see. Stores filter by knowledge base; the catalog (which every hit is resolved
 * through) also by document and category.
 *
 * @param knowledgeBases stored names of the knowledge bases; empty means every knowledge base
 * @param documentIds only these documents; empty means any
 * @param category only documents with this category; null means any
 */
public record SearchScope(Set<String> knowledgeBases, Set<String> documentIds, String category) {
    public static final SearchScope ALL = new SearchScope(Set.of());

    public SearchScope {
        knowledgeBases = Set.copyOf(knowledgeBases);
        documentIds = documentIds == null ? Set.of() : Set.copyOf(documentIds);
        category = category == null || category.isBlank() ? null : category;
    }

    public SearchScope(Set<String> knowledgeBases) {
        this(knowledgeBases, Set.of(), null);
    }

    /** This scope narrowed to documents and a category. */
    public SearchScope narrowed(Set<String> documentIds, String category) {
        return new SearchScope(knowledgeBases, documentIds, category);
    }

    /**
     * The tenant namespace every knowledge base of this scope is in ({@code acme/}), or empty for the local tenant
     * (and for {@link #ALL}). Entity ids a graph search starts from are looked up in it.
     */
    public String namespace() {
        String ns = null;
        for (String kb : knowledgeBases) {
            int slash = kb.indexOf('/');
            String own = slash < 0 ? "" : kb.substring(0, slash + 1);
            if (ns != null && !ns.equals(own)) {
                return "";
            }
            ns = own;
        }
        return ns == null ? "" : ns;
    }

    /** Whether an entity id (or any stored name) belongs to this scope's namespace. */
    public boolean ownsName(String stored) {
        String ns = namespace();
        return ns.isEmpty() ? stored.indexOf('/') < 0 : stored.startsWith(ns);
    }

    public boolean admits(String knowledgeBase) {
        return knowledgeBases.isEmpty() || knowledgeBases.contains(knowledgeBase);
    }
}
