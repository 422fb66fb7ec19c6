package io.polyrag.store.rdf;

import io.polyrag.core.ConfigException;
import io.polyrag.core.config.Config;
import io.polyrag.core.config.Setting;
import io.polyrag.core.config.Settings;
import io.polyrag.core.port.RdfStore;
import io.polyrag.core.spi.ProviderContext;
import io.polyrag.core.spi.RdfStoreProvider;
import java.net.URI;
import java.util.List;

/** {@code rdf.backend=sparql}: any SPARQL 1.1 query + update endpoint over HTTP. */
public final class SparqlRdfStoreProvider implements RdfStoreProvider {
    @Override
    public String name() {
        return "sparql";
    }

    private static boolean userInfo(String url) {
        try {
            return URI.create(url).getRawUserInfo() != null;
        } catch (IllegalArgumentException e) {
            // Not a URI: the transport refuses it naming the setting; an '@' before the host is a user all the same.
            int scheme = url.indexOf("://");
            int at = url.indexOf('@');
            int path = url.indexOf('/', scheme < 0 ? 0 : scheme + 3);
            return at >= 0 && (path < 0 || at < path);
        }
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
        for (Setting<String> url : List.of(Settings.RDF_SPARQL_QUERY_URL, Settings.RDF_SPARQL_UPDATE_URL)) {
            if (userInfo(c.get(url).strip())) {
                // Never echoed: the client sends no credentials from the URL, and every failure message (and a
                // search's degraded reason, shown to tenants) quoted the URL, password and all.
                throw new ConfigException(url.env() + " holds a user and password: give them as "
                        + Settings.RDF_SPARQL_USER.env() + " and " + Settings.RDF_SPARQL_PASSWORD.env()
                        + ", and the URL without them (e.g. http://host:3030/ds/query)");
            }
        }
        return new SparqlRdfStore(new HttpSparqlTransport(query.strip(), update.strip(),
                c.get(Settings.RDF_SPARQL_USER), c.get(Settings.RDF_SPARQL_PASSWORD),
                c.get(Settings.RDF_SPARQL_TIMEOUT_SECONDS)), RdfEncoding.configuredGraph(c.get(Settings.RDF_GRAPH)));
    }
}
