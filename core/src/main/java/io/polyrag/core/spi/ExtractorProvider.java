package io.polyrag.core.spi;

import io.polyrag.core.port.EntityExtractor;

/** Makes an {@link EntityExtractor}; listed in {@code META-INF/services/io.polyrag.core.spi.ExtractorProvider}. */
public interface ExtractorProvider extends NamedProvider {

    EntityExtractor open(ProviderContext context);
}
