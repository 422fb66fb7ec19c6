package io.polyrag.app;

import io.polyrag.app.api.Limits;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.NotFoundException;
import io.polyrag.core.model.KnowledgeBase;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.Tenant;
import io.polyrag.core.port.Catalog;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a tenant may read: the knowledge bases it names, checked and put in its namespace, or — when it names none —
 * every knowledge base it has. Never {@link SearchScope#ALL}: that would be every tenant's.
 */
final class Scope {
    private Scope() {
    }

    /** The tenant's knowledge base {@code kb} names (its tenant is replaced by {@code t}: facets never cross). */
    static KnowledgeBase bind(Tenant t, KnowledgeBase kb) {
        return KnowledgeBase.of(t, kb == null ? null : kb.name());
    }

    static SearchScope of(Catalog catalog, Tenant t, Collection<String> names) {
        if (names != null && names.size() > Limits.MAX_KNOWLEDGE_BASES) {
            throw new InvalidInputException("kb names " + names.size() + " knowledge bases: at most "
                    + Limits.MAX_KNOWLEDGE_BASES + " per search (name none to search all of yours)");
        }
        Set<String> stored = new LinkedHashSet<>();
        List<String> existing = null;
        for (String n : names == null ? Set.<String>of() : names) {
            if (n != null && !n.isBlank()) {
                existing = existing == null ? catalog.knowledgeBases(t.id()) : existing;
                stored.add(known(existing, KnowledgeBase.of(t, n)).storageName());
            }
        }
        if (stored.isEmpty()) {
            stored.addAll(existing == null ? catalog.knowledgeBases(t.id()) : existing);
        }
        if (stored.isEmpty()) {
            // The default one when there is none, so the set is never empty (which would mean every knowledge base).
            // Not beside others: a default knowledge base that does not exist made a search of all of them "tuned
            // differently" from a tuned one, so no tuning ever applied to a search that named none.
            stored.add(KnowledgeBase.of(t, null).storageName());
        }
        return new SearchScope(stored);
    }

    /** One knowledge base of the tenant, or all of them when {@code kb} is null. */
    static SearchScope of(Catalog catalog, Tenant t, KnowledgeBase kb) {
        return kb == null ? of(catalog, t, Set.of()) : known(catalog.knowledgeBases(t.id()), bind(t, kb)).asScope();
    }

    /**
     * {@code kb}, when the tenant has it (the default one always counts): a read naming a knowledge base that does
     * not exist — a misspelling, one deleted — is a 404 naming it, not an empty result that looks like "nothing
     * matched". Ingest into a new name still creates it; that path does not read through here. Checked against the
     * tenant's list of names (an indexed read), not a knowledge base's counts, which a search must not pay for.
     *
     * @param existing the stored names of the tenant's knowledge bases
     */
    static KnowledgeBase known(List<String> existing, KnowledgeBase kb) {
        if (!kb.name().equals(KnowledgeBase.DEFAULT_NAME) && !existing.contains(kb.storageName())) {
            throw new NotFoundException("no knowledge base '" + kb.name() + "': GET "
                    + "/v1/knowledge-bases lists yours (an ingest into a new name creates it)");
        }
        return kb;
    }
}
