package io.polyrag.app;

import io.polyrag.core.model.DocumentInfo;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.port.Catalog;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The documents of a category, for a search narrowed to it: looked up by the catalog (a scan of the knowledge bases'
 * document rows, which no index serves) and kept for a few seconds, so a conversation's follow-ups or a busy
 * dashboard in one category do not scan for every search. A document categorised within those seconds joins its
 * category's searches a little later, as an indexed one becomes searchable.
 */
final class CategoryDocuments {
    private final Catalog catalog;
    private final TtlCache<List<String>> kept = new TtlCache<>(5_000_000_000L, 1024);

    CategoryDocuments(Catalog catalog) {
        this.catalog = catalog;
    }

    /** Ids of the scope's documents in its category, or null when there are more than {@code limit}. */
    List<String> ids(SearchScope scope, int limit) {
        String key = String.join("\u0000", new TreeSet<>(scope.knowledgeBases())) + "\u0001" + scope.category()
                + "\u0001" + limit;
        return kept.get(key, k -> {
            List<DocumentInfo> docs = catalog.documents(scope, 0, limit + 1);
            return docs.size() > limit ? Optional.empty() : Optional.of(docs.stream().map(DocumentInfo::id).toList());
        }).orElse(null);
    }
}
