package io.polyrag.core.spi;

import io.polyrag.core.port.Embedder;

/** Makes an {@link Embedder}; it is only asked when the vector modality is enabled. */
public interface EmbedderProvider extends NamedProvider {

    Embedder open(ProviderContext context);
}
