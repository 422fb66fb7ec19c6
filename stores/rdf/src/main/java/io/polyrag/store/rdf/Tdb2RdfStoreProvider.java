package io.polyrag.store.rdf;

import io.polyrag.core.config.Settings;
import io.polyrag.core.port.RdfStore;
import io.polyrag.core.spi.ProviderContext;
import io.polyrag.core.spi.RdfStoreProvider;

/** {@code rdf.backend=tdb2}: an embedded Apache Jena TDB2 dataset in {@code <data dir>/rdf}. */
public final class Tdb2RdfStoreProvider implements RdfStoreProvider {
    @Override
    public String name() {
        return "tdb2";
    }

    @Override
    public String description() {
        return "embedded Apache Jena TDB2 dataset (SPARQL) in the data directory";
    }

    @Override
    public RdfStore open(ProviderContext context) {
        return new SparqlRdfStore(new Tdb2Transport(context.dataDir().resolve("rdf")),
                RdfEncoding.configuredGraph(context.config().get(Settings.RDF_GRAPH)));
    }
}
