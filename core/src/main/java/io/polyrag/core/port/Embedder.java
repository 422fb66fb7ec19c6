package io.polyrag.core.port;

import java.util.List;

/**
 * Turns text into vectors.
 *
 * <p>Queries and passages are embedded differently when the model asks for it (an instruction or prefix before the
 * query): callers say which they have, the embedder applies the model's rule. Vectors are L2-normalised and
 * {@link #dimension()} long. Text longer than {@link #maxTokens()} is truncated. Safe for concurrent use.
 */
public interface Embedder extends AutoCloseable {

    /** Identifies the model and its settings; recorded with every vector so a model change is detectable. */
    String modelId();

    /** Length of every vector this embedder returns. */
    int dimension();

    /** Tokens the model reads from one text; more are truncated. */
    int maxTokens();

    /** The model's own tokenizer, for sizing chunks. */
    TokenCounter tokenCounter();

    /** The vector of a search query. */
    float[] embedQuery(String query);

    /** The vectors of passages, in input order; may work on several at once. */
    List<float[]> embedPassages(List<String> passages);

    /**
     * Passages no longer indexed (their document version was replaced or deleted): an embedder that keeps vectors of
     * passages it embedded (a cache) may drop theirs. The default keeps nothing, so does nothing.
     */
    default void forgetPassages(List<String> passages) {
    }

    @Override
    void close();
}
