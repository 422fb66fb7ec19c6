package io.polyrag.retrieval;

import io.polyrag.core.port.Embedder;
import io.polyrag.core.port.ForwardingEmbedder;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * An embedder that remembers the vectors of the last queries it embedded, in memory, most recently used kept: a query
 * asked again (a page refreshed, an answer drawn from the search just run, which embeds the question once more to
 * score sentences, an agent retrying) is not run through the model again — the model is most of a search's time.
 * Passages go straight to the model (they have their own cache). A query longer than {@value #MAX_KEY_CHARS}
 * characters is not kept, so the memory the cache holds stays near {@code entries × dimension × 4} bytes.
 *
 * <p>Thread-safe; two threads that miss on the same query at once both embed it (the model is deterministic).
 */
public final class QueryVectorCache extends ForwardingEmbedder {
    static final int MAX_KEY_CHARS = 2_000;

    private final Map<String, float[]> vectors;
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();

    /** @param entries the most query vectors kept; at least 1 */
    public QueryVectorCache(Embedder delegate, int entries) {
        super(delegate);
        if (entries < 1) {
            throw new IllegalArgumentException("a query vector cache keeps at least one entry, was " + entries);
        }
        this.vectors = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, float[]> eldest) {
                return size() > entries;
            }
        };
    }

    @Override
    public float[] embedQuery(String query) {
        if (query.length() > MAX_KEY_CHARS) {
            misses.increment();
            return delegate.embedQuery(query);
        }
        float[] known;
        synchronized (vectors) {
            known = vectors.get(query);
        }
        if (known != null) {
            hits.increment();
            return known.clone();
        }
        misses.increment();
        float[] v = delegate.embedQuery(query);
        synchronized (vectors) {
            vectors.put(query, v.clone());
        }
        return v;
    }

    /** Queries answered from memory so far. */
    public long hits() {
        return hits.sum();
    }

    /** Queries the model embedded so far. */
    public long misses() {
        return misses.sum();
    }
}
