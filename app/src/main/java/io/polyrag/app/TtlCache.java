package io.polyrag.app;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * Values read from the catalog, trusted for a while before they are read again (another replica may change them):
 * a knowledge base's tuning, a category's documents. A read that raced a change made here is not kept: it was older
 * than the change, and would have been served for the cache's whole life. At most {@code maxKept} keys are kept
 * (all are dropped when that many are), so keys a client makes up cannot grow it without bound.
 *
 * @param <T> what is cached per key
 */
final class TtlCache<T> {
    private record Cached<T>(Optional<T> value, long at) {
    }

    private final long trustNanos;
    private final int maxKept;
    private final Map<String, Cached<T>> cache = new ConcurrentHashMap<>();
    /**
     * Bumped by every change of any key's value: a read is kept only when none came while it ran. One counter, not
     * one per key: per-key counters were kept for every key ever changed (knowledge bases deleted and made again
     * under new names), past the bound the cache itself keeps.
     */
    private final AtomicLong generation = new AtomicLong();

    TtlCache(long trustNanos, int maxKept) {
        this.trustNanos = trustNanos;
        this.maxKept = maxKept;
    }

    /** The key's value: cached, or read with {@code read} (and cached unless a change came meanwhile). */
    Optional<T> get(String key, Function<String, Optional<T>> read) {
        Cached<T> c = cache.get(key);
        if (c == null || System.nanoTime() - c.at() > trustNanos) {
            long before = generation.get();
            c = new Cached<>(read.apply(key), System.nanoTime());
            if (generation.get() == before) {
                if (cache.size() >= maxKept) {
                    cache.clear();
                }
                cache.put(key, c);
                if (generation.get() != before) {
                    cache.remove(key); // changed between the check and the put
                }
            }
        }
        return c.value();
    }

    /** The key's value changed here (tuned, dropped, the knowledge base deleted): read it again. */
    void changed(String key) {
        generation.incrementAndGet();
        cache.remove(key);
    }
}
