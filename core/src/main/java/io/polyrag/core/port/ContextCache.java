package io.polyrag.core.port;

import java.util.Collection;
import java.util.Map;

/**
 * The situating sentences a language model wrote for chunks (contextual retrieval), keyed by a hash of (model,
 * prompt, document, chunk text): ingesting or re-indexing a chunk whose text did not change costs a lookup instead of a model
 * call. A cache may forget entries at any time; callers ask the model for what it lacks. Safe for concurrent use.
 */
public interface ContextCache {

    /** The cached contexts among {@code keys}; absent keys are simply missing. */
    Map<String, String> contexts(Collection<String> keys);

    /** Remembers contexts by key; existing entries are kept. */
    void rememberContexts(Map<String, String> byKey);
}
