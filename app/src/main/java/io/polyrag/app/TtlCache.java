package io.polyrag.app;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Each knowledge base's tuning as this process last read it, trusted for a while before it reads the catalog again
 * (another replica may have tuned or dropped it). A read that raced a change here is not kept: it was older than the
 * change, and would have been served for the cache's whole life.
 *
 * @param <T> what is cached per knowledge base
 */
final class TuningCache<T> {
    private record Cached<T>(Optional<T> value, long at) {
    }

    private final long trustNanos;
    private final Map<String, Cached<T>> cache = new ConcurrentHashMap<>();
    /** Bumped by every change of a knowledge base's tuning. */
    private final Map<String, Long> generations = new ConcurrentHashMap<>();

    TuningCache(long trustNanos) {
        this.trustNanos = trustNanos;
    }

    /** The knowledge base's value: cached, or read with {@code read} (and cached unless a change came meanwhile). */
    Optional<T> get(String kb, Function<String, Optional<T>> read) {
        Cached<T> c = cache.get(kb);
        if (c == null || System.nanoTime() - c.at() > trustNanos) {
            long generation = generations.getOrDefault(kb, 0L);
            c = new Cached<>(read.apply(kb), System.nanoTime());
            if (generations.getOrDefault(kb, 0L) == generation) {
                cache.put(kb, c);
                if (generations.getOrDefault(kb, 0L) != generation) {
                    cache.remove(kb); // changed between the check and the put
                }
            }
        }
        return c.value();
    }

    /** The knowledge base's value changed here (tuned, dropped, the knowledge base deleted): read it again. */
    void changed(String kb) {
        generations.merge(kb, 1L, Long::sum);
        cache.remove(kb);
    }
}
