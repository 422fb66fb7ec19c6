package io.polyrag.core.port;

import java.util.List;

/**
 * An embedder that hands every call to another: the base of decorators (a cache, say), which override the calls
 * they change and inherit the rest.
 */
public abstract class ForwardingEmbedder implements Embedder {
    protected final Embedder delegate;

    protected ForwardingEmbedder(Embedder delegate) {
        this.delegate = delegate;
    }

    @Override
    public String modelId() {
        return delegate.modelId();
    }

    @Override
    public int dimension() {
        return delegate.dimension();
    }

    @Override
    public int maxTokens() {
        return delegate.maxTokens();
    }

    @Override
    public TokenCounter tokenCounter() {
        return delegate.tokenCounter();
    }

    @Override
    public float[] embedQuery(String query) {
        return delegate.embedQuery(query);
    }

    @Override
    public void forgetPassages(List<String> passages) {
        delegate.forgetPassages(passages);
    }

    @Override
    public List<float[]> embedPassages(List<String> passages) {
        return delegate.embedPassages(passages);
    }

    @Override
    public void close() {
        delegate.close();
    }
}
