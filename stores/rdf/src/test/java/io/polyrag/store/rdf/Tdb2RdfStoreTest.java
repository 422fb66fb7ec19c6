package io.polyrag.store.rdf;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.port.RdfStore;
import io.polyrag.testing.RdfStoreContract;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class Tdb2RdfStoreTest extends RdfStoreContract {
    @Override
    protected RdfStore openStore(Path dir) {
        return new SparqlRdfStore(new Tdb2Transport(dir), "urn:polyrag:graph");
    }

    @Test
    void a_graph_written_before_the_word_index_gets_it_on_first_use() {
        corpus().close();
        // What an older release left: the same graph without pr:word and without the marker.
        try (Tdb2Transport raw = new Tdb2Transport(dir)) {
            raw.update(RdfEncoding.PREFIXES + "DELETE WHERE { GRAPH <urn:polyrag:graph> { ?e pr:word ?w } } ;\n"
                    + "DROP SILENT GRAPH <urn:polyrag:meta:urn%3Apolyrag%3Agraph>");
            assertThat(raw.select(RdfEncoding.PREFIXES + "SELECT ?e WHERE { GRAPH ?g { ?e pr:word ?w } }")).isEmpty();
        }
        RdfStore reopened = open();
        assertThat(reopened.entityIdsByLabel(List.of("curie"), 10)).containsExactly("marie curie");
        assertThat(reopened.entityIdsByLabel(List.of("radium", "paris"), 10))
                .containsExactlyInAnyOrder("radium institute", "paris");
        assertThat(reopened.counts()).containsEntry("entities", 3L);
    }
}
