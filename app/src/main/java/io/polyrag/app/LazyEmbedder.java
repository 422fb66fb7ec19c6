package io.polyrag.app;

import io.polyrag.core.ConfigException;
import io.polyrag.core.PolyragException;
import io.polyrag.core.StoreException;
import io.polyrag.core.UnavailableException;
import io.polyrag.core.port.Embedder;
import io.polyrag.core.port.TokenCounter;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The embedding model, loaded when a text is first embedded or counted: loading it is most of a second (the ONNX
 * session, two tokenizers, a probe run), which a full-text search, {@code keys} or {@code check} never needs. What
 * opening the stores needs — the model's id and dimension — comes from what this data directory recorded the last
 * time the same model was loaded ({@link EmbedderRecipes#known}); the model, once loaded, must agree with it.
 */
final class LazyEmbedder implements Embedder {
    private final Supplier<Embedder> open;
    private final Consumer<Embedder> loaded;
    private final String modelId;
    private final int dimension;
    private final int maxTokens;
    private final Runnable forget;
    /** Not synchronized: a virtual thread waiting on a monitor pins its carrier on JDK 21. */
    private final ReentrantLock lock = new ReentrantLock();
    private volatile Embedder embedder;
    private volatile RuntimeException failed;
    private volatile boolean closed;
    /** The last load's failure and when (nanoTime): answered as it is for {@link #retryNanos}, then tried again. */
    private RuntimeException loadFailed;
    private long loadFailedAt;
    /** How long a failed load is not tried again (a test's is shorter). */
    long retryNanos = TimeUnit.SECONDS.toNanos(30);

    /**
     * @param loaded called once with the model when it is loaded (to record it again)
     * @param forget drops what was recorded, so the next start loads the model before opening the stores
     */
    LazyEmbedder(Supplier<Embedder> open, Consumer<Embedder> loaded, Runnable forget, String modelId, int dimension,
            int maxTokens) {
        this.open = open;
        this.loaded = loaded;
        this.forget = forget;
        this.modelId = modelId;
        this.dimension = dimension;
        this.maxTokens = maxTokens;
    }

    /** Whether the model has been loaded (for tests: a full-text search loads none). */
    boolean isLoaded() {
        return embedder != null;
    }

    /** Loads the model now (a server does so in the background once it is serving). */
    Embedder load() {
        Embedder e = embedder;
        if (e != null) {
            return e;
        }
        lock.lock();
        try {
            e = embedder;
            if (e != null) {
                return e;
            }
            if (failed != null) {
                throw failed; // once: every request would otherwise load the whole model again to fail again
            }
            if (closed) {
                throw new PolyragException("the embedding model is closed: polyrag is shutting down");
            }
            // A load that failed (a missing or damaged file, memory short at that moment) took most of a second to
            // fail, and every search and readiness check waited its turn on this lock to load it again.
            if (loadFailed != null && System.nanoTime() - loadFailedAt < retryNanos) {
                // A new one each time, of the same kind (callers add to what they catch), the first as its cause.
                String why = loadFailed.getMessage();
                throw switch (loadFailed) {
                    case ConfigException c -> new ConfigException(why, c);
                    case UnavailableException u -> new UnavailableException(why, u);
                    case StoreException x -> new StoreException(why, x);
                    default -> new PolyragException(why, loadFailed);
                };
            }
            try {
                e = open.get();
            } catch (RuntimeException x) {
                loadFailed = x;
                loadFailedAt = System.nanoTime();
                throw x;
            }
            loadFailed = null;
            if (!e.modelId().equals(modelId) || e.dimension() != dimension) {
                String found = e.modelId() + " (" + e.dimension() + " dimensions)";
                e.close();
                forget.run();
                failed = new PolyragException("the embedding model loaded now, " + found + ", is not the one this "
                        + "data directory recorded, " + modelId + " (" + dimension + " dimensions): its files "
                        + "changed; restart polyrag (it will load the model before opening the stores)");
                throw failed;
            }
            embedder = e;
            loaded.accept(e);
            return e;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String modelId() {
        return modelId;
    }

    @Override
    public int dimension() {
        return dimension;
    }

    @Override
    public int maxTokens() {
        return maxTokens;
    }

    @Override
    public TokenCounter tokenCounter() {
        return text -> load().tokenCounter().count(text);
    }

    @Override
    public float[] embedQuery(String query) {
        return load().embedQuery(query);
    }

    @Override
    public List<float[]> embedPassages(List<String> passages) {
        return load().embedPassages(passages);
    }

    @Override
    public void close() {
        lock.lock();
        try {
            closed = true;
            if (embedder != null) {
                embedder.close();
            }
        } finally {
            lock.unlock();
        }
    }
}
