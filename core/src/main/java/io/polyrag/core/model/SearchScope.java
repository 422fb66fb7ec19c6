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
