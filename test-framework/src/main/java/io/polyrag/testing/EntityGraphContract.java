package io.polyrag.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.model.ChunkGraph;
import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.Entity;
import io.polyrag.core.model.EntityHit;
import io.polyrag.core.model.GraphEdge;
import io.polyrag.core.model.Mention;
import io.polyrag.core.model.Relation;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.StoreRecord;
import io.polyrag.core.port.EntityGraph;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contract the property graph and the RDF store share; {@link GraphStoreContract} and {@link RdfStoreContract}
 * add what is particular to each. Embedded and networked backends run the same tests.
 */
public abstract class EntityGraphContract<S extends EntityGraph> {
    @TempDir
    protected Path dir;

    private final List<S> opened = new ArrayList<>();

    /** Opens the store on {@code dir} (embedded) or on the test's server (networked): reopening sees the same data. */
    protected abstract S openStore(Path dir);

    protected S open() {
        S s = openStore(dir);
        opened.add(s);
        return s;
    }

    @AfterEach
    void closeAll() {
        opened.forEach(EntityGraph::close);
    }

    protected static Relation rel(String s, String p, String o, String chunk, String doc, long version) {
        return new Relation(s, "", p, o, "", chunk, doc, version, Map.of());
    }

    protected static StoreRecord record(String chunk, String doc, long version, String kb, List<Entity> entities,
            List<Relation> relations) {
        return new StoreRecord(chunk, doc, version, kb, "text of " + chunk, null, new ChunkGraph(entities, relations));
    }

    protected static final Entity CURIE = new Entity("marie curie", "Marie Curie", "Person", List.of("curie"));
    protected static final Entity INSTITUTE = Entity.of("Radium Institute", "Organization");
    protected static final Entity PARIS = Entity.of("Paris", "Place");

    /** c1 (d1): Curie works at the institute; c2 (d2): the institute is in Paris; c3 (d3, kb other): Paris alone. */
    protected S corpus() {
        S store = open();
        store.upsert(List.of(
                record("c1", "d1", 1, "kb", List.of(CURIE, INSTITUTE), List.of(new Relation("Marie Curie", "Person",
                        "works_at", "Radium Institute", "Organization", "c1", "d1", 1,
                        Map.of("extractor", "test", "evidence", "She worked at the \"Radium\" Institute.")))),
                record("c2", "d2", 1, "kb", List.of(INSTITUTE, PARIS),
                        List.of(rel("Radium Institute", "located_in", "Paris", "c2", "d2", 1))),
                record("c3", "d3", 1, "other", List.of(PARIS), List.of()),
                new StoreRecord("c4", "d1", 1, "kb", "no graph part", null)));
        return store;
    }

    @Test
    void entities_are_shared_across_documents_and_count_their_mentions() {
        S store = corpus();
        List<EntityHit> hits = store.entities(List.of("radium institute", "paris", "nobody"));
        assertThat(hits).extracting(h -> h.entity().id()).containsExactlyInAnyOrder("radium institute", "paris");
        assertThat(hits).allSatisfy(h -> assertThat(h.mentions()).isEqualTo(2));
        EntityHit curie = store.entities(List.of("marie curie")).getFirst();
        assertThat(curie.entity().name()).isEqualTo("Marie Curie");
        assertThat(curie.entity().type()).isEqualTo("Person");
        assertThat(store.counts()).containsEntry("entities", 3L).containsEntry("relations", 2L)
                .containsEntry("mentions", 5L);
        assertThat(store.size()).isEqualTo(3);
    }

    @Test
    void edges_touch_either_end_and_keep_their_chunk() {
        S store = corpus();
        List<GraphEdge> edges = store.edges(List.of("radium institute"), SearchScope.ALL, 10);
        assertThat(edges).containsExactlyInAnyOrder(
                new GraphEdge("marie curie", "works_at", "radium institute", "c1", "d1", 1),
                new GraphEdge("radium institute", "located_in", "paris", "c2", "d2", 1));
        assertThat(store.edges(List.of("paris"), SearchScope.ALL, 10)).hasSize(1);
        assertThat(store.edges(List.of("radium institute"), SearchScope.ALL, 1)).hasSize(1);
        assertThat(store.edges(List.of(), SearchScope.ALL, 10)).isEmpty();
        assertThat(store.edges(List.of("radium institute"), new SearchScope(Set.of("other")), 10)).isEmpty();
        assertThat(store.edges(List.of("radium institute"), new SearchScope(Set.of("kb", "x")), 10)).hasSize(2);
    }

    @Test
    void mentions_respect_the_scope() {
        S store = corpus();
        assertThat(store.mentions(List.of("paris"), SearchScope.ALL, 10))
                .containsExactlyInAnyOrder(new Mention("paris", "c2", "d2", 1), new Mention("paris", "c3", "d3", 1));
        assertThat(store.mentions(List.of("paris"), new SearchScope(Set.of("kb")), 10))
                .containsExactly(new Mention("paris", "c2", "d2", 1));
        assertThat(store.mentions(List.of("paris", "marie curie"), new SearchScope(Set.of("kb")), 10))
                .extracting(Mention::chunkId).containsExactlyInAnyOrder("c1", "c2");
    }

    /** A search scoped to documents reads their graph only: cut to a limit first, their chunks were lost. */
    @Test
    void edges_and_mentions_respect_the_scopes_documents() {
        S store = corpus();
        SearchScope d2 = new SearchScope(Set.of("kb")).narrowed(Set.of("d2"), null);
        assertThat(store.edges(List.of("radium institute"), d2, 10))
                .containsExactly(new GraphEdge("radium institute", "located_in", "paris", "c2", "d2", 1));
        assertThat(store.edges(List.of("radium institute"), SearchScope.ALL.narrowed(Set.of("d1"), null), 1))
                .extracting(GraphEdge::documentId).containsExactly("d1");
        assertThat(store.mentions(List.of("paris", "marie curie", "radium institute"), d2, 10))
                .extracting(Mention::chunkId).containsOnly("c2");
        assertThat(store.mentions(List.of("paris"), SearchScope.ALL.narrowed(Set.of("d3"), null), 1))
                .containsExactly(new Mention("paris", "c3", "d3", 1));
    }

    @Test
    void finds_entities_by_part_of_a_name_or_alias() {
        S store = corpus();
        assertThat(store.findEntities("radium", SearchScope.ALL, 10)).extracting(h -> h.entity().id())
                .containsExactly("radium institute");
        assertThat(store.findEntities("CURIE", SearchScope.ALL, 10)).extracting(h -> h.entity().id())
                .containsExactly("marie curie");
        assertThat(store.findEntities("zzz", SearchScope.ALL, 10)).isEmpty();
        assertThat(store.findEntities("paris", new SearchScope(Set.of("other")), 10)).singleElement()
                .satisfies(h -> assertThat(h.mentions()).isEqualTo(1));
        assertThat(store.findEntities("curie", new SearchScope(Set.of("other")), 10)).isEmpty();
        assertThat(store.findEntities("i", SearchScope.ALL, 2)).hasSizeLessThanOrEqualTo(2);
    }

    /** A tenant's entities are found by their own names, not by the namespace their stored ids start with. */
    @Test
    void a_stored_ids_namespace_is_no_part_of_its_name() {
        S store = open();
        ChunkGraph acme = new ChunkGraph(List.of(CURIE, PARIS, Entity.of("Acme Robotics", "Organization")),
                List.of()).inNamespace("acme/");
        store.upsert(List.of(new StoreRecord("c1", "d1", 1, "acme/kb", "text of c1", null, acme)));
        assertThat(store.findEntities("acm", SearchScope.ALL, 10)).extracting(h -> h.entity().id())
                .containsExactly("acme/acme robotics");
        assertThat(store.findEntities("me", SearchScope.ALL, 10)).extracting(h -> h.entity().id())
                .containsExactly("acme/acme robotics");
        assertThat(store.findEntities("curie", SearchScope.ALL, 10)).extracting(h -> h.entity().id())
                .containsExactly("acme/marie curie");
        assertThat(store.findEntities("ris", new SearchScope(Set.of("acme/kb")), 10))
                .extracting(h -> h.entity().id()).containsExactly("acme/paris");
    }

    @Test
    void deleting_a_document_removes_its_relations_and_only_orphaned_entities() {
        S store = corpus();
        store.delete(List.of(new DocumentVersion("d2", 1)));
        assertThat(store.edges(List.of("paris"), SearchScope.ALL, 10)).isEmpty();
        assertThat(store.entities(List.of("paris", "radium institute"))).hasSize(2);
        assertThat(store.counts()).containsEntry("relations", 1L).containsEntry("entities", 3L);

        store.delete(List.of(new DocumentVersion("d3", 1)));
        assertThat(store.entities(List.of("paris"))).isEmpty();
        store.deleteDocuments(List.of("d1"));
        assertThat(store.counts()).containsEntry("entities", 0L).containsEntry("relations", 0L)
                .containsEntry("mentions", 0L);
        assertThat(store.size()).isZero();
    }

    @Test
    void deleting_an_old_version_keeps_the_new_one() {
        S store = corpus();
        store.upsert(List.of(record("c1v2", "d1", 2, "kb", List.of(CURIE, PARIS),
                List.of(rel("Marie Curie", "lived_in", "Paris", "c1v2", "d1", 2)))));
        assertThat(store.versions()).containsEntry(new DocumentVersion("d1", 1), 1L)
                .containsEntry(new DocumentVersion("d1", 2), 1L);
        store.delete(List.of(new DocumentVersion("d1", 1)));
        assertThat(store.edges(List.of("marie curie"), SearchScope.ALL, 10))
                .containsExactly(new GraphEdge("marie curie", "lived_in", "paris", "c1v2", "d1", 2));
        assertThat(store.mentions(List.of("marie curie"), SearchScope.ALL, 10)).extracting(Mention::version)
                .containsExactly(2L);
        Map<DocumentVersion, Long> versions = store.versions();
        assertThat(versions).containsEntry(new DocumentVersion("d1", 2), 1L)
                .doesNotContainKey(new DocumentVersion("d1", 1));
        // One version looked up on its own, as versions() counts it (a store's own lookup, not a walk of them all).
        for (DocumentVersion v : List.of(new DocumentVersion("d1", 2), new DocumentVersion("d1", 1),
                new DocumentVersion("nope", 7), new DocumentVersion("d\"1", 2))) {
            assertThat(store.records(v)).as(v.toString()).isEqualTo(versions.getOrDefault(v, 0L));
        }
        assertThat(versions.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(store.size());
        store.delete(List.of(new DocumentVersion("nope", 7)));
        assertThat(store.versions()).as("deleting an unknown version changes nothing").isEqualTo(versions);
        // Several versions in one call, of several numbers, an unknown one among them: exactly those go.
        store.delete(List.of(new DocumentVersion("d1", 2), new DocumentVersion("d2", 1), new DocumentVersion("d3", 2)));
        assertThat(store.versions()).containsOnlyKeys(new DocumentVersion("d3", 1));
        assertThat(store.entities(List.of("paris"))).singleElement().satisfies(h -> assertThat(h.mentions())
                .isEqualTo(1));
    }

    @Test
    void upserting_the_same_records_again_changes_nothing() {
        S store = corpus();
        Map<String, Long> before = store.counts();
        store.upsert(List.of(record("c2", "d2", 1, "kb", List.of(INSTITUTE, PARIS),
                List.of(rel("Radium Institute", "located_in", "Paris", "c2", "d2", 1)))));
        assertThat(store.counts()).isEqualTo(before);
        store.upsert(List.of());
        assertThat(store.counts()).as("an empty upsert changes nothing").isEqualTo(before);
    }

    @Test
    void an_entity_keeps_its_first_name_and_type_and_a_later_mention_only_fills_a_missing_type() {
        S store = open();
        store.upsert(List.of(record("c1", "d1", 1, "kb", List.of(new Entity("ada lovelace", "Ada Lovelace", "",
                List.of())), List.of())));
        assertThat(store.entities(List.of("ada lovelace")).getFirst().entity().type()).isEmpty();
        store.upsert(List.of(record("c2", "d2", 1, "kb", List.of(new Entity("ada lovelace", "ADA LOVELACE",
                "Person", List.of())), List.of())));
        Entity typed = store.entities(List.of("ada lovelace")).getFirst().entity();
        assertThat(typed.name()).isEqualTo("Ada Lovelace");
        assertThat(typed.type()).isEqualTo("Person");
        store.upsert(List.of(record("c3", "d3", 1, "kb", List.of(new Entity("ada lovelace", "Lovelace",
                "Organization", List.of())), List.of())));
        assertThat(store.entities(List.of("ada lovelace")).getFirst().entity()).extracting(Entity::name,
                Entity::type).containsExactly("Ada Lovelace", "Person");
        assertThat(store.counts()).containsEntry("entities", 1L).containsEntry("mentions", 3L);
    }

    @Test
    void names_with_query_syntax_are_data() {
        S store = open();
        String nasty = "O'Brien \"}\" UNION { ?s ?p ?o } \\ \n DETACH DELETE (n) // ` $x";
        Entity e = Entity.of(nasty, "T\"'");
        store.upsert(List.of(record("c1", "d1", 1, "kb", List.of(e, PARIS),
                List.of(rel(nasty, "said \"}", "Paris", "c1", "d1", 1)))));
        EntityHit hit = store.entities(List.of(e.id())).getFirst();
        assertThat(hit.entity().name()).isEqualTo(nasty.strip());
        assertThat(hit.entity().type()).isEqualTo("T\"'");
        assertThat(store.edges(List.of(e.id()), SearchScope.ALL, 10)).extracting(GraphEdge::predicate).containsExactly("said \"}");
        assertThat(store.findEntities("\"} UNION {", SearchScope.ALL, 10)).extracting(h -> h.entity().id())
                .containsExactly(e.id());
        assertThat(store.findEntities("brien", SearchScope.ALL, 10)).hasSize(1);
        assertThat(store.counts()).containsEntry("entities", 2L);
    }

    @Test
    void data_survives_a_reopen() {
        S store = corpus();
        store.close();
        opened.remove(store);
        S again = open();
        assertThat(again.counts()).containsEntry("entities", 3L).containsEntry("relations", 2L);
    }
}
