package io.polyrag.app;

import io.polyrag.app.api.EntityNeighbours;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.polyrag.core.InvalidInputException;
import io.polyrag.core.NotFoundException;
import io.polyrag.core.model.EntityHit;
import io.polyrag.core.model.IngestReport;
import io.polyrag.core.model.Modality;
import io.polyrag.core.model.SearchHit;
import io.polyrag.core.model.SearchRequest;
import io.polyrag.core.model.SearchResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The graph and RDF arms end to end on the embedded stack (offline extractor, Kuzu, TDB2): facts that link across
 * documents, found through a relation that no single document states.
 */
class GraphRetrievalTest {
    @TempDir
    Path tmp;

    private Polyrag polyrag;

    /** The answer to "where is Marie Curie's workplace" is in the institute document, which never names her. */
    static final Map<String, String> CORPUS = Map.of(
            "curie", "Marie Curie worked at the Radium Institute for many years. She won two Nobel Prizes.",
            "institute", "The Radium Institute is located in Paris. Its gardens have old linden trees.",
            "physics", "Physicists in the early twentieth century studied radioactivity, the spontaneous emission "
                    + "of radiation by unstable atoms, and won Nobel Prizes for it.",
            "nobel", "The Nobel Prize in Chemistry has honoured chemists who discovered new elements since 1901.",
            "lovelace", "Ada Lovelace wrote notes about the Analytical Engine designed by Charles Babbage.",
            "bread", "Sourdough bread ferments overnight before it is shaped and baked in a hot oven.");

    @BeforeEach
    void open() {
        polyrag = Polyrag.open(PolyragTest.config(tmp.resolve("data"), Map.of("graph.enabled", "true",
                "rdf.enabled", "true")));
        CORPUS.forEach((id, text) -> {
            IngestReport r = polyrag.ingest().text(new io.polyrag.app.api.TextIngest(text, id, "doc:" + id, null,
                    null));
            assertThat(r.failed()).isZero();
        });
    }

    @AfterEach
    void close() {
        polyrag.close();
    }

    private List<String> titles(String query, Set<Modality> modalities, int topK) {
        SearchResponse r = polyrag.search().run(new SearchRequest(query, topK, List.of(), modalities, null));
        assertThat(r.degraded()).isEmpty();
        return r.hits().stream().map(SearchHit::title).toList();
    }

    @Test
    void a_name_that_repeats_a_word_seeds_the_walk() {
        polyrag.ingest().text(new io.polyrag.app.api.TextIngest("Whitman College is located in Walla Walla. Walla "
                + "Walla lies in Washington.", "walla", "doc:walla", null, null));
        SearchResponse r = polyrag.search().run(new SearchRequest("Which college is in Walla Walla?", 3, List.of(),
                Set.of(Modality.GRAPH, Modality.RDF), null));
        assertThat(r.degraded()).isEmpty();
        assertThat(r.hits()).extracting(SearchHit::title).contains("walla");
    }

    @Test
    void a_relation_from_another_document_is_found_by_the_graph_arms_only() {
        String q = "Where was Marie Curie's workplace?";
        // The institute's own relation (where it is) before her chunk, which the text legs find by her name.
        assertThat(titles(q, Set.of(Modality.GRAPH), 2)).containsExactly("institute", "curie");
        assertThat(titles(q, Set.of(Modality.RDF), 2)).containsExactly("institute", "curie");
        assertThat(titles(q, Set.of(Modality.FULLTEXT), 10)).doesNotContain("institute");
        assertThat(titles(q, Set.of(Modality.VECTOR), 2)).doesNotContain("institute");
        assertThat(titles(q, Set.of(Modality.VECTOR, Modality.FULLTEXT), 2)).doesNotContain("institute");
        SearchResponse all = polyrag.search().run(SearchRequest.of(q, 3));
        assertThat(all.hits()).extracting(SearchHit::title).contains("institute");
        SearchHit institute = all.hits().stream().filter(h -> h.title().equals("institute")).findFirst().orElseThrow();
        assertThat(institute.sources()).containsKeys("graph", "rdf");
    }

    @Test
    void a_pronoun_links_a_biography_to_the_company_whose_profile_never_names_her() {
        Map.of("Maren Ostrava", "Maren Ostrava is an engineer from Pellmar. In 1998 she founded Quillon Dynamics. "
                        + "She collects old maps.",
                "Quillon Dynamics", "Quillon Dynamics (QD) makes industrial drones. QD is headquartered in "
                        + "Varnholm. Its chief executive is Tomas Brel.",
                "Tomas Brel", "Tomas Brel sails on weekends and has led two companies.").forEach((title, text) ->
                assertThat(polyrag.ingest().text(new io.polyrag.app.api.TextIngest(text, title, "doc:" + title, null,
                        null)).failed()).isZero());
        String q = "In which city is the company founded by Maren Ostrava headquartered?";
        for (Modality m : List.of(Modality.GRAPH, Modality.RDF)) {
            SearchResponse r = polyrag.search().run(new SearchRequest(q, 5, List.of(), Set.of(m), null));
            // The relation asked about ("founded") leads to the company; its profile states the one asked next
            // ("headquartered"): it ranks first, her biography after.
            assertThat(r.hits()).extracting(SearchHit::title).as(m.wireName()).startsWith("Quillon Dynamics",
                    "Maren Ostrava");
            assertThat(r.hits()).allSatisfy(h -> assertThat(h.sources().get(m.wireName()).score()).isBetween(0.0,
                    1.0));
        }
        // Typed in lower case (the capital only opening the sentence), the whole name still seeds, at half confidence.
        SearchResponse lower = polyrag.search().run(new SearchRequest("Which city is the company founded by maren "
                + "ostrava headquartered in?", 5, List.of(), Set.of(Modality.GRAPH), null));
        assertThat(lower.hits()).extracting(SearchHit::title).startsWith("Quillon Dynamics");
        double capitalised = polyrag.search().run(new SearchRequest(q, 5, List.of(), Set.of(Modality.GRAPH), null))
                .hits().getFirst().sources().get("graph").score();
        assertThat(lower.hits().getFirst().sources().get("graph").score()).isLessThan(capitalised * 0.6);
        // The abbreviation is the company: one entity, "qd" its alias.
        assertThat(polyrag.graph().find("quillon", 10)).singleElement().satisfies(h -> assertThat(h.entity()
                .aliases()).contains("qd"));
        // A query that names nothing the graph knows gets nothing from the graph legs.
        for (Modality m : List.of(Modality.GRAPH, Modality.RDF)) {
            assertThat(polyrag.search().run(new SearchRequest("which city has the most drone makers", 5, List.of(),
                    Set.of(m), null)).hits()).as(m.wireName()).isEmpty();
        }
    }

    @Test
    void a_name_the_query_writes_whole_seeds_that_entity_not_the_longer_names_holding_it() {
        Map.of("Maren Ostrava", "Maren Ostrava founded Quillon Dynamics in 1998. Ostrava later moved to Pellmar.",
                "Ostrava", "The steel mills of Ostrava closed in the nineties.",
                "Varnholm", "Quillon Dynamics is headquartered in Varnholm.",
                "Varnholm Press", "Varnholm Press was founded by Ida Senn.").forEach((title, text) ->
                assertThat(polyrag.ingest().text(new io.polyrag.app.api.TextIngest(text, title, "doc:" + title, null,
                        null)).failed()).isZero());
        // "Ostrava" is her alias in her biography, and a city's name of its own: the query names the city.
        assertThat(polyrag.graph().find("ostrava", 10)).extracting(h -> h.entity().id())
                .contains("ostrava", "maren ostrava");
        assertThat(titles("What happened to the steel mills of Ostrava?", Set.of(Modality.GRAPH), 10))
                .contains("Ostrava").doesNotContain("Maren Ostrava");
        // RDF matches labels by their words: "Varnholm" is one of the press's two, but the query names the town.
        assertThat(titles("Which company is headquartered in Varnholm?", Set.of(Modality.RDF), 10))
                .contains("Varnholm").doesNotContain("Varnholm Press");
    }

    @Test
    void entities_and_their_neighbours_can_be_browsed() {
        List<EntityHit> found = polyrag.graph().find("radium", 10);
        assertThat(found).extracting(h -> h.entity().id()).containsExactly("radium institute");
        assertThat(found.getFirst().mentions()).isEqualTo(2);
        EntityNeighbours n = polyrag.graph().neighbours("radium institute", 10);
        assertThat(n.neighbours()).extracting(x -> x.entity().entity().name() + " " + x.direction() + " "
                + x.predicate()).containsExactlyInAnyOrder("Marie Curie in works_at", "Paris out located_in");
        assertThatThrownBy(() -> polyrag.graph().neighbours("nobody", 10)).isInstanceOf(NotFoundException.class);
        assertThatThrownBy(() -> polyrag.graph().find("  ", 10)).isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> polyrag.graph().find("x", 0)).isInstanceOf(InvalidInputException.class);
    }

    @Test
    void deleting_documents_leaves_no_orphans_in_any_store() {
        Map<String, Long> before = polyrag.admin().status().storeRecords();
        assertThat(before.get("graph")).isPositive();
        assertThat(before.get("rdf")).isPositive();
        polyrag.documents().delete(List.of(polyrag.documents().list(null, 0, 100).stream()
                .filter(d -> d.uri().equals("doc:institute")).findFirst().orElseThrow().id()));
        assertThat(polyrag.graph().neighbours("radium institute", 10).neighbours()).extracting(x -> x.predicate())
                .containsExactly("works_at");
        assertThat(polyrag.graph().find("paris", 10)).isEmpty();
        List<String> all = polyrag.documents().list(null, 0, 100).stream().map(d -> d.id()).toList();
        polyrag.documents().delete(all);
        assertThat(polyrag.graph().counts()).allSatisfy((store, counts) -> assertThat(counts.values())
                .as(store).allMatch(v -> v == 0L));
    }

    @Test
    void an_ingest_can_skip_the_graph() {
        IngestReport r = polyrag.ingest().text(new io.polyrag.app.api.TextIngest(
                "Grace Hopper worked at Harvard University on the Mark I computer.", "hopper", "doc:hopper", null,
                null, true));
        assertThat(r.added()).isEqualTo(1);
        assertThat(r.relations()).isZero();
        assertThat(polyrag.graph().find("hopper", 10)).isEmpty();
        IngestReport again = polyrag.ingest().text(new io.polyrag.app.api.TextIngest(
                "Grace Hopper worked at Harvard University on the Mark I computer.", "hopper", "doc:hopper", null,
                null, false));
        assertThat(again.updated()).as("the graph part was missing, so the same text is indexed again").isEqualTo(1);
        assertThat(again.relations()).isPositive();
        assertThat(polyrag.graph().find("hopper", 10)).hasSize(1);
    }
}
