package io.polyrag.source.web;

import io.polyrag.core.port.SourceConnector;
import io.polyrag.core.spi.ProviderContext;
import io.polyrag.core.spi.SourceConnectorProvider;

/** Sources of type {@code web}. */
public final class WebConnectorProvider implements SourceConnectorProvider {
    @Override
    public String name() {
        return WebConnector.TYPE;
    }

    @Override
    public String description() {
        return "a web site, crawled";
    }

    @Override
    public SourceConnector open(ProviderContext context) {
        return new WebConnector(context.config());
    }
}
