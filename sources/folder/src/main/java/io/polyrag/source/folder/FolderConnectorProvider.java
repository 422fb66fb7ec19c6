package io.polyrag.source.folder;

import io.polyrag.core.port.SourceConnector;
import io.polyrag.core.spi.ProviderContext;
import io.polyrag.core.spi.SourceConnectorProvider;

/** Sources of type {@code filesystem}. */
public final class FolderConnectorProvider implements SourceConnectorProvider {
    @Override
    public String name() {
        return FolderConnector.TYPE;
    }

    @Override
    public String description() {
        return "a folder on the server, watched live";
    }

    @Override
    public SourceConnector open(ProviderContext context) {
        return new FolderConnector();
    }
}
