package io.polyrag.core.port;

import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.StoreHit;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Lexical (BM25-style) search over chunk text.
 *
 * <p>The query is plain user text, never a query language: operators, quotes and brackets are just characters, so no
 * input can make a search fail to parse. A query with no searchable terms (only stopwords or punctuation) returns an
 * empty list. Scores are the backend's relevance scores, best first; ties are broken by chunk id.
 */
public interface FullTextStore extends ChunkIndex {

    /** The {@code limit} best-matching records within {@code scope}, best first. */
    List<StoreHit> search(String query, SearchScope scope, int limit);

    /**
     * The {@code limit} best document versions within {@code scope} by BM25 over each one's whole text (its records'
     * texts joined, in the order they were written), iterating best first. Empty when this store keeps no whole texts,
     * or not yet of every version it holds (an index written before it did, until it is indexed again): a caller then
     * ranks by passages alone rather than by a part of the collection. The default keeps none.
     */
    default Map<DocumentVersion, Double> searchDocuments(String query, SearchScope scope, int limit) {
        return Map.of();
    }

    /**
     * The best-matching record of each of {@code versions} within {@code scope} that has one, scored as
     * {@link #search} scores, in no particular order. Empty where {@link #searchDocuments} is.
     */
    default List<StoreHit> bestPassages(String query, SearchScope scope, Collection<DocumentVersion> versions) {
        return List.of();
    }
}
