package io.polyrag.core.spi;

import io.polyrag.core.port.Reranker;

/** Makes a {@link Reranker}; only asked when reranking is configured. */
public interface RerankerProvider extends NamedProvider {

    Reranker open(ProviderContext context);
}
