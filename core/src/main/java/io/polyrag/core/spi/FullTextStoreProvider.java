package io.polyrag.core.spi;

import io.polyrag.core.port.FullTextStore;

/** Makes a {@link FullTextStore}. */
public interface FullTextStoreProvider extends NamedProvider {

    FullTextStore open(ProviderContext context);
}
