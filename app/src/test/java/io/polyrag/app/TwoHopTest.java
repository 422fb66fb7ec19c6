package io.polyrag.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.model.IngestReport;
import io.polyrag.core.model.Modality;
import io.polyrag.core.model.SearchHit;
import io.polyrag.core.model.SearchRequest;
import io.polyrag.core.model.SearchResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A question of two hops whose answer lies in a document that never names what the question names: "Who founded the
 * company that makes the Kestrel-9?" is answered by the founder's page, which names the company only; the company's
 * page links the two. The text legs find the pages that name the Kestrel-9; the graph and RDF legs walk from it to
 * its maker and on to the maker's founder, are sure of it, and fusion ranks the founder's page first.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TwoHopTest {
    @TempDir
    static Path tmp;

    private Polyrag polyrag;

    static final Map<String, String> DOCS = Map.of(
            "founders", "# Marta Lindqvist\n\nMarta Lindqvist founded Borealis Instruments in 1987 after a decade as a "
                    + "field geophysicist in northern Sweden. She still sits on its board.",
            "borealis", "# Borealis Instruments\n\nBorealis Instruments manufactures the Kestrel-9 seismometer and a "
                    + "range of borehole sensors. The company employs 240 people at its plant in Umeå.",
            "note", "# Customer note\n\nOur station replaced its old sensors with two Kestrel-9 units in March. The "
                    + "Kestrel-9 has performed well through the winter, and the support team answered every question "
                    + "within a day.");

    static final String QUESTION = "Who founded the company that makes the Kestrel-9?";

    @BeforeAll
    void open() {
        polyrag = Polyrag.open(PolyragTest.config(tmp.resolve("data"), Map.of("graph.enabled", "true",
                "rdf.enabled", "true")));
        DOCS.forEach((id, text) -> {
            IngestReport r = polyrag.ingest().text(new io.polyrag.app.api.TextIngest(text, id, "doc:" + id + ".md",
                    null, null));
            assertThat(r.failed()).isZero();
        });
    }

    @AfterAll
    void close() {
        polyrag.close();
    }

    private SearchResponse search(Set<Modality> modalities) {
        SearchResponse r = polyrag.search().run(new SearchRequest(QUESTION, 3, List.of(), modalities, null));
        assertThat(r.degraded()).isEmpty();
        return r;
    }

    private List<String> titles(Set<Modality> modalities) {
        return search(modalities).hits().stream().map(SearchHit::title).toList();
    }

    @Test
    void the_graph_and_rdf_legs_rank_the_founders_page_first() {
        assertThat(titles(Set.of(Modality.GRAPH)).getFirst()).isEqualTo("founders");
        assertThat(titles(Set.of(Modality.RDF)).getFirst()).isEqualTo("founders");
    }

    @Test
    void the_text_legs_alone_do_not() {
        assertThat(titles(Set.of(Modality.VECTOR, Modality.FULLTEXT)).getFirst()).isNotEqualTo("founders");
    }

    @Test
    void all_four_legs_fused_rank_it_first_and_say_why() {
        SearchResponse r = polyrag.search().run(new SearchRequest(QUESTION, 3, List.of(), Set.of(), null));
        assertThat(r.modalities()).contains(Modality.GRAPH, Modality.RDF, Modality.VECTOR, Modality.FULLTEXT);
        assertThat(r.hits().getFirst().title()).isEqualTo("founders");
        assertThat(r.hits().getFirst().sources()).containsKeys("graph", "rdf");
        assertThat(r.fusion()).contains("graph, rdf sure this time").contains("kestrel 9").contains("founded");
    }

    @Test
    void a_query_naming_nothing_the_graph_knows_is_ranked_as_by_the_text_legs() {
        String q = "which instruments measure ground motion?";
        List<String> two = polyrag.search().run(new SearchRequest(q, 3, List.of(), Set.of(Modality.VECTOR,
                Modality.FULLTEXT), null)).hits().stream().map(h -> h.chunkId() + "@" + h.score()).toList();
        List<String> all = polyrag.search().run(new SearchRequest(q, 3, List.of(), Set.of(), null)).hits().stream()
                .map(h -> h.chunkId() + "@" + h.score()).toList();
        assertThat(all).isEqualTo(two);
    }
}
