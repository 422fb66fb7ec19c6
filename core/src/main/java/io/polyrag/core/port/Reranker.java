package io.polyrag.core.port;

import java.util.List;

/**
 * Re-scores candidate passages against a query with a stronger, slower model than first-stage retrieval (a
 * cross-encoder, a rerank API, a language model). Safe for concurrent use. Failures are raised; callers keep the
 * order they had.
 */
public interface Reranker {

    /** Identifies the reranker, e.g. {@code http:tei} or {@code llm:openai-compatible:gpt-4o-mini}. */
    String id();

    /**
     * A relevance score for every passage, in input order (higher is better). Scores are comparable within one
     * call only.
     */
    List<Double> score(String query, List<String> passages);
}
