package io.polyrag.core.spi;

import io.polyrag.core.port.RdfStore;

/** Makes an {@link RdfStore}; listed in {@code META-INF/services/io.polyrag.core.spi.RdfStoreProvider}. */
public interface RdfStoreProvider extends NamedProvider {

    RdfStore open(ProviderContext context);
}
