package io.polyrag.source.s3;

import io.polyrag.core.port.SourceConnector;
import io.polyrag.core.spi.ProviderContext;
import io.polyrag.core.spi.SourceConnectorProvider;

/** Sources of type {@code s3}. */
public final class S3ConnectorProvider implements SourceConnectorProvider {
    @Override
    public String name() {
        return S3Connector.TYPE;
    }

    @Override
    public String description() {
        return "the objects under a prefix of an S3-compatible bucket";
    }

    @Override
    public SourceConnector open(ProviderContext context) {
        return new S3Connector(context.config());
    }
}
