package io.polyrag.store.neo4j;

import io.polyrag.core.ConfigException;
import io.polyrag.core.config.Config;
import io.polyrag.core.config.Settings;
import io.polyrag.core.port.GraphStore;
import io.polyrag.core.spi.GraphStoreProvider;
import io.polyrag.core.spi.ProviderContext;

/** {@code graph.backend=neo4j}: a Neo4j server (or another Bolt server) at {@code graph.neo4j.uri}. */
public final class Neo4jGraphStoreProvider implements GraphStoreProvider {
    @Override
    public String name() {
        return "neo4j";
    }

    @Override
    public String description() {
        return "Neo4j or another Bolt server, through the official driver";
    }

    @Override
    public GraphStore open(ProviderContext context) {
        Config c = context.config();
        // Never echoed: the store's messages name its URI, and a search's degraded reason reaches every tenant.
        String uri = c.get(Settings.GRAPH_NEO4J_URI);
        int scheme = uri.indexOf("://");
        int at = uri.indexOf('@');
        int slash = scheme < 0 ? -1 : uri.indexOf('/', scheme + 3);
        if (scheme >= 0 && at > scheme && (slash < 0 || at < slash)) {
            throw new ConfigException(Settings.GRAPH_NEO4J_URI.env() + " holds a user and password: give them as "
                    + Settings.GRAPH_NEO4J_USER.env() + " and " + Settings.GRAPH_NEO4J_PASSWORD.env() + ", and the URI "
                    + "without them (e.g. bolt://graph:7687)");
        }
        return new Neo4jGraphStore(c.get(Settings.GRAPH_NEO4J_URI), c.get(Settings.GRAPH_NEO4J_USER),
                c.get(Settings.GRAPH_NEO4J_PASSWORD), c.get(Settings.GRAPH_NEO4J_DATABASE),
                c.get(Settings.GRAPH_NEO4J_TIMEOUT_SECONDS));
    }
}
