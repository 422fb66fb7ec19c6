package io.polyrag.core.spi;

import io.polyrag.core.port.GraphStore;

/** Makes a {@link GraphStore}; listed in {@code META-INF/services/io.polyrag.core.spi.GraphStoreProvider}. */
public interface GraphStoreProvider extends NamedProvider {

    GraphStore open(ProviderContext context);
}
