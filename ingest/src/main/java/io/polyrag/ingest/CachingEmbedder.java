package io.polyrag.ingest;

import io.polyrag.core.model.Ids;
import io.polyrag.core.port.Embedder;
import io.polyrag.core.port.EmbeddingCache;
import io.polyrag.core.port.ForwardingEmbedder;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An embedder that asks a cache first: passages whose exact text was embedded before by the same model (and the same
 * truncation) are not embedded again. Queries are not kept here (the search side keeps recent ones in memory). A failing cache is logged and bypassed: it can cost
 * time, never correctness.
 */
public final class CachingEmbedder extends ForwardingEmbedder {
    private static final System.Logger LOG = System.getLogger(CachingEmbedder.class.getName());

    private final EmbeddingCache cache;
    private final String cacheKey;

    public CachingEmbedder(Embedder delegate, EmbeddingCache cache) {
        super(delegate);
        this.cache = cache;
        this.cacheKey = delegate.modelId() + "@" + delegate.maxTokens();
    }

    @Override
    public List<float[]> embedPassages(List<String> passages) {
        List<String> hashes = passages.stream()
                .map(p -> Ids.sha256Hex(p.getBytes(StandardCharsets.UTF_8))).toList();
        Map<String, float[]> known = lookup(hashes);
        Map<String, String> missing = new LinkedHashMap<>();
        for (int i = 0; i < passages.size(); i++) {
            if (!known.containsKey(hashes.get(i))) {
                missing.putIfAbsent(hashes.get(i), passages.get(i));
            }
        }
        Map<String, float[]> fresh = new HashMap<>();
        if (!missing.isEmpty()) {
            List<String> keys = new ArrayList<>(missing.keySet());
            List<float[]> vectors = delegate.embedPassages(new ArrayList<>(missing.values()));
            for (int i = 0; i < keys.size(); i++) {
                fresh.put(keys.get(i), vectors.get(i));
            }
            store(fresh);
        }
        List<float[]> out = new ArrayList<>(passages.size());
        for (String h : hashes) {
            out.add(known.containsKey(h) ? known.get(h) : fresh.get(h));
        }
        return out;
    }

    /** Drops the cached vectors of passages no longer indexed; a failing cache is logged (it only costs space). */
    @Override
    public void forgetPassages(List<String> passages) {
        if (passages.isEmpty()) {
            return;
        }
        try {
            cache.forget(cacheKey, passages.stream().map(p -> Ids.sha256Hex(p.getBytes(StandardCharsets.UTF_8)))
                    .toList());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "could not drop " + passages.size() + " vectors from the embedding cache", e);
        }
    }

    private Map<String, float[]> lookup(List<String> hashes) {
        try {
            Map<String, float[]> found = new HashMap<>(cache.vectors(cacheKey, hashes));
            found.values().removeIf(v -> v.length != delegate.dimension() || !finite(v));
            return found;
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "embedding cache unavailable; embedding everything", e);
            return Map.of();
        }
    }

    /**
     * Whether every component is a number: a model's overflow (NaN, infinity) is refused by the vector stores, and a
     * cached one failed every later ingest of that text, retries and reindexes included.
     */
    static boolean finite(float[] v) {
        for (float x : v) {
            if (!Float.isFinite(x)) {
                return false;
            }
        }
        return true;
    }

    private void store(Map<String, float[]> vectors) {
        Map<String, float[]> kept = new HashMap<>(vectors);
        kept.values().removeIf(v -> !finite(v));
        if (kept.isEmpty()) {
            return;
        }
        try {
            cache.remember(cacheKey, kept);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "could not write to the embedding cache", e);
        }
    }
}
