package io.polyrag.core.spi;

import io.polyrag.core.port.SourceConnector;

/** Makes a {@link SourceConnector}; its {@link #name()} is the source type it serves. */
public interface SourceConnectorProvider extends NamedProvider {
    SourceConnector open(ProviderContext context);
}
