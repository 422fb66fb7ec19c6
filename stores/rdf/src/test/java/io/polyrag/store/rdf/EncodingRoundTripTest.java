package io.polyrag.store.rdf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.polyrag.core.StoreException;
import io.polyrag.core.UnavailableException;
import io.polyrag.core.model.ChunkGraph;
import io.polyrag.core.model.Entity;
import io.polyrag.core.model.Relation;
import io.polyrag.core.model.StoreRecord;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.jena.tdb2.DatabaseMgr;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A graph written through either RDF adapter reads back identically through the other, hostile text included (the
 * embedded store adds it as nodes, the endpoint gets it escaped in an update request).
 */
class EncodingRoundTripTest {
    private static final String GRAPH = "urn:polyrag:graph";
    /** Quotes, backslashes, line breaks, tabs, other control characters, markup: data, written and read back as is. */
    private static final String EVIDENCE = "She wrote \"Note G\".\n\r\t\u0001\u001f\u007f \\ } <b> ' ;";
    private static final List<StoreRecord> RECORDS = List.of(
            new StoreRecord("c1", "d1", 3, "kb", "t", null, new ChunkGraph(
                    List.of(new Entity("ada lovelace", "Ada Lovelace", "Person", List.of("lovelace"))),
                    List.of(new Relation("Ada Lovelace", "Person", "wrote notes on", "Analytical Engine", "Machine",
                            "c1", "d1", 3, Map.of("evidence", EVIDENCE, "extractor", "x"))))),
            new StoreRecord("c2", "d1", 3, "kb", "t", null, new ChunkGraph(List.of(),
                    List.of(new Relation("Charles Babbage", "", "designed", "Analytical Engine", "", "c2", "d1", 3,
                            Map.of())))));

    @Test
    void written_to_tdb2_read_through_a_sparql_endpoint(@TempDir Path dir) {
        List<Relation> written;
        Map<String, Long> counts;
        try (SparqlRdfStore tdb = new SparqlRdfStore(new Tdb2Transport(dir), GRAPH)) {
            tdb.upsert(RECORDS);
            written = tdb.relations("d1");
            counts = tdb.counts();
        }
        try (Fuseki fuseki = new Fuseki(DatabaseMgr.connectDatasetGraph(dir.toString()));
                SparqlRdfStore http = new SparqlRdfStore(new HttpSparqlTransport(fuseki.queryUrl(),
                        fuseki.updateUrl(), null, null, 10), GRAPH)) {
            assertThat(http.relations("d1")).isEqualTo(written).hasSize(2);
            assertThat(http.counts()).isEqualTo(counts);
        }
    }

    @Test
    void written_through_a_sparql_endpoint_read_from_tdb2(@TempDir Path dir) {
        List<Relation> written;
        try (Fuseki fuseki = new Fuseki(DatabaseMgr.connectDatasetGraph(dir.toString()));
                SparqlRdfStore http = new SparqlRdfStore(new HttpSparqlTransport(fuseki.queryUrl(),
                        fuseki.updateUrl(), null, null, 10), GRAPH)) {
            http.upsert(RECORDS);
            written = http.relations("d1");
        }
        try (SparqlRdfStore tdb = new SparqlRdfStore(new Tdb2Transport(dir), GRAPH)) {
            assertThat(tdb.relations("d1")).isEqualTo(written)
                    .extracting(Relation::predicate).containsExactlyInAnyOrder("wrote notes on", "designed");
            assertThat(tdb.relations("d1").stream().filter(r -> r.predicate().equals("wrote notes on")).findFirst()
                    .orElseThrow().properties()).containsEntry("evidence", EVIDENCE);
        }
    }

    @Test
    void an_endpoint_that_is_down_or_wrong_gives_a_clear_error() {
        try (SparqlRdfStore down = new SparqlRdfStore(new HttpSparqlTransport("http://127.0.0.1:1/ds/query",
                "http://127.0.0.1:1/ds/update", null, null, 2), GRAPH)) {
            assertThatThrownBy(down::triples).isInstanceOf(UnavailableException.class)
                    .hasMessageContaining("127.0.0.1:1").hasMessageContaining("cannot be reached");
        }
        try (Fuseki fuseki = new Fuseki(org.apache.jena.sparql.core.DatasetGraphFactory.createTxnMem());
                SparqlRdfStore wrong = new SparqlRdfStore(new HttpSparqlTransport(fuseki.queryUrl() + "x",
                        fuseki.updateUrl() + "x", null, null, 5), GRAPH)) {
            assertThatThrownBy(wrong::triples).isInstanceOf(StoreException.class).hasMessageContaining("HTTP 404");
        }
    }
}
