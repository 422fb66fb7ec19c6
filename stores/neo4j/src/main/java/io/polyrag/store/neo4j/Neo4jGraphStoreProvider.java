package io.polyrag.store.neo4j;

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
        return new Neo4jGraphStore(c.get(Settings.GRAPH_NEO4J_URI), c.get(Settings.GRAPH_NEO4J_USER),
                c.get(Settings.GRAPH_NEO4J_PASSWORD), c.get(Settings.GRAPH_NEO4J_DATABASE),
                c.get(Settings.GRAPH_NEO4J_TIMEOUT_SECONDS));
    }
}
