package io.polyrag.store.rdf;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.polyrag.core.ConfigException;
import io.polyrag.core.config.Config;
import io.polyrag.core.spi.ProviderContext;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SparqlRdfStoreProviderTest {
    /** A password in the endpoint's URL was never sent, and every failure (shown to tenants too) quoted it. */
    @Test
    void an_endpoint_url_with_a_password_is_refused_without_echoing_it() {
        for (String url : new String[] {"http://admin:s3cr3t@fuseki:3030/ds/query", "http://admin:s3cr3t@fu seki/q"}) {
            Config c = Config.load(Map.of(), Map.of("rdf.backend", "sparql", "rdf.sparql.query.url", url,
                    "rdf.sparql.update.url", "http://fuseki:3030/ds/update"));
            assertThatThrownBy(() -> new SparqlRdfStoreProvider().open(new ProviderContext(c, Path.of("."))))
                    .isInstanceOf(ConfigException.class).hasMessageContaining("POLYRAG_RDF_SPARQL_QUERY_URL holds a "
                            + "user and password").hasMessageContaining("POLYRAG_RDF_SPARQL_PASSWORD")
                    .hasMessageNotContaining("s3cr3t");
        }
    }

    /** The graph's IRI is stripped (a value from a file ends in a newline) and one that is no IRI is named. */
    @Test
    void the_graph_setting_is_stripped_and_checked() {
        org.assertj.core.api.Assertions.assertThat(RdfEncoding.configuredGraph("urn:polyrag:graph\n"))
                .isEqualTo("urn:polyrag:graph");
        for (String bad : new String[] {"urn:has space", "http://x/<y>", "not-an-iri", ""}) {
            assertThatThrownBy(() -> RdfEncoding.configuredGraph(bad)).as(bad).isInstanceOf(ConfigException.class)
                    .hasMessageContaining("POLYRAG_RDF_GRAPH");
        }
    }
}
