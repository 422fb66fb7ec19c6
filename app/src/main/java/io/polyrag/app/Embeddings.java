package io.polyrag.app;

import io.polyrag.core.InvalidInputException;
import io.polyrag.core.port.Embedder;
import java.util.List;

/**
 * The configured embedding model called directly, with the catalog's embedding cache: what evaluation and benchmarks
 * build their raw-library references from (the same model polyrag searches with, none of its pipeline).
 */
public final class Embeddings {
    /** Null when vectors are off. */
    private final Embedder embedder;

    Embeddings(Embedder embedder) {
        this.embedder = embedder;
    }

    private Embedder embedder() {
        if (embedder == null) {
            throw new InvalidInputException("no embedding model is loaded: vectors are off (POLYRAG_VECTOR_ENABLED)");
        }
        return embedder;
    }

    /** The model and its settings, as recorded with every vector. */
    public String modelId() {
        return embedder().modelId();
    }

    /** The query's vector, with the model's query rule (its prompt, if it has one). */
    public float[] query(String text) {
        return embedder().embedQuery(text);
    }

    /** The passages' vectors, in input order (cached by exact text). */
    public List<float[]> passages(List<String> texts) {
        return embedder().embedPassages(texts);
    }
}
