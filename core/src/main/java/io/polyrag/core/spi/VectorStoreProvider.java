package io.polyrag.core.spi;

import io.polyrag.core.port.VectorStore;

/** Makes a {@link VectorStore}; listed in {@code META-INF/services/io.polyrag.core.spi.VectorStoreProvider}. */
public interface VectorStoreProvider extends NamedProvider {

    /**
     * Opens the store for vectors of {@code dimension} floats made by {@code modelId}. A store that already holds
     * vectors of another model or dimension fails with a {@link io.polyrag.core.ConfigException} that says so and how
     * to re-embed, rather than returning wrong neighbours later.
     */
    VectorStore open(ProviderContext context, int dimension, String modelId);
}
