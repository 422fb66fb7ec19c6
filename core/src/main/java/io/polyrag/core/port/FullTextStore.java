package io.polyrag.core.port;

import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.StoreHit;
import java.util.List;

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
}
