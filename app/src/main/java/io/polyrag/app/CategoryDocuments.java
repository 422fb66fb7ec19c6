package io.polyrag.app;

import io.polyrag.core.model.DocumentInfo;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.port.Catalog;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The documents of a category, for a search narrowed to it: looked up by the catalog (a scan of the knowledge bases'
 * document rows, which no index serves) and kept for a few seconds, so a conversation's follow-ups or a busy
 * dashboard in one category do not scan for every search. A document categorised within those seconds joins its
 * category's searches a little later, as an indexed one becomes searchable.
 */
final class CategoryDocuments {
    private static final long TRUST_NANOS = 5_000_000_000L;
    private static final int MAX_KEPT = 1024;

    /** The category's document ids, or null when it has more than the limit. */
    private record Kept(List<String> ids, long at) {
    }

    private final Catalog catalog;
    private final Map<String, Kept> kept = new ConcurrentHashMap<>();

    CategoryDocuments(Catalog catalog) {
        this.catalog = catalog;
    }

    /** Ids of the scope's documents in its category, or null when there are more than {@code limit}. */
    List<String> ids(SearchScope scope, int limit) {
        String key = String.join("\u0000", new TreeSet<>(scope.knowledgeBases())) + "\u0001" + scope.category()
                + "\u0001" + limit;
        long now = System.nanoTime();
        Kept k = kept.get(key);
        if (k == null || now - k.at() > TRUST_NANOS) {
            List<DocumentInfo> docs = catalog.documents(scope, 0, limit + 1);
            k = new Kept(docs.size() > limit ? null : docs.stream().map(DocumentInfo::id).toList(), now);
            if (kept.size() >= MAX_KEPT) {
                kept.clear();
            }
            kept.put(key, k);
        }
        return k.ids();
    }
}
