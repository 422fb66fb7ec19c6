package io.polyrag.core.spi;

import io.polyrag.core.port.BlobStore;

/** Makes a {@link BlobStore}. */
public interface BlobStoreProvider extends NamedProvider {
    BlobStore open(ProviderContext context);
}
