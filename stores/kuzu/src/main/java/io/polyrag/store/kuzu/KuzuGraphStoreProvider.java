package io.polyrag.store.kuzu;

import io.polyrag.core.port.GraphStore;
import io.polyrag.core.spi.GraphStoreProvider;
import io.polyrag.core.spi.ProviderContext;

/** {@code graph.backend=kuzu}: an embedded Kuzu database in {@code <data dir>/graph}. */
public final class KuzuGraphStoreProvider implements GraphStoreProvider {
    @Override
    public String name() {
        return "kuzu";
    }

    @Override
    public String description() {
        return "embedded Kuzu property graph (Cypher) in the data directory";
    }

    @Override
    public GraphStore open(ProviderContext context) {
        return new KuzuGraphStore(context.dataDir().resolve("graph"));
    }
}
