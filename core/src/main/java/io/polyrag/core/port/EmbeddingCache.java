package io.polyrag.core.port;

import java.util.Collection;
import java.util.Map;

/**
 * Vectors already computed, keyed by (model, hash of the exact text embedded), so re-indexing text that did not
 * change costs a lookup instead of a model run. A cache may forget entries at any time; callers embed what it lacks.
 * Safe for concurrent use.
 */
public interface EmbeddingCache {

    /** The cached vectors among {@code textHashes} for {@code model}; absent keys are simply missing. */
    Map<String, float[]> vectors(String model, Collection<String> textHashes);

    /** Remembers vectors for {@code model}; existing entries are kept. */
    void remember(String model, Map<String, float[]> vectorsByTextHash);

    /**
     * Drops the vectors of {@code textHashes} for {@code model} (texts no longer indexed), so a cache fed by documents
     * updated again and again does not keep every version's vectors for good. Absent keys are ignored.
     */
    void forget(String model, Collection<String> textHashes);
}
