package io.polyrag.store.rdf;

import io.polyrag.core.ConfigException;
import io.polyrag.core.config.Config;
import io.polyrag.core.config.Settings;
import io.polyrag.core.port.RdfStore;
import io.polyrag.core.spi.ProviderContext;
import io.polyrag.core.spi.RdfStoreProvider;

/** {@code rdf.backend=sparql}: any SPARQL 1.1 query + update endpoint over HTTP. */
public final class SparqlRdfStoreProvider implements RdfStoreProvider {
    @Override
    public String name() {
        return "sparql";
    }

    @Override
    public String description() {
        return "any SPARQL 1.1 endpoint (query + update over HTTP, optional basic auth)";
    }

    @Override
    public RdfStore open(ProviderContext context) {
        Config c = context.config();
        String query = c.get(Settings.RDF_SPARQL_QUERY_URL);
        String update = c.get(Settings.RDF_SPARQL_UPDATE_URL);
        if (query == null || query.isBlank() || update == null || update.isBlank()) {
            throw new ConfigException("POLYRAG_RDF_BACKEND=sparql needs " + Settings.RDF_SPARQL_QUERY_URL.env()
                    + " and " + Settings.RDF_SPARQL_UPDATE_URL.env() + " (e.g. http://host:3030/ds/query and "
                    + "http://host:3030/ds/update)");
        }
        return new SparqlRdfStore(new HttpSparqlTransport(query.strip(), update.strip(),
                c.get(Settings.RDF_SPARQL_USER), c.get(Settings.RDF_SPARQL_PASSWORD),
                c.get(Settings.RDF_SPARQL_TIMEOUT_SECONDS)), c.get(Settings.RDF_GRAPH));
    }
}
