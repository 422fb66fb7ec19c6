package io.polyrag.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.model.ChunkGraph;
import io.polyrag.core.model.Entity;
import io.polyrag.core.model.Extraction;
import io.polyrag.core.model.Fact;
import io.polyrag.core.model.Relation;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EntityResolverTest {
    private static Extraction names(String... names) {
        return new Extraction(java.util.Arrays.stream(names).map(n -> Entity.of(n, "")).toList(), List.of(), 0);
    }

    private static Fact fact(String s, String p, String o) {
        return new Fact(s, "", p, o, "", Map.of());
    }

    /** A place and a person whose name starts with it stay two entities: "hotels in Paris" is not Paris Hilton. */
    @Test
    void a_name_of_another_kind_than_the_longer_one_stays_its_own_entity() {
        List<ChunkGraph> g = EntityResolver.resolve(List.of(
                new Extraction(List.of(Entity.of("Paris", "Place"), Entity.of("Paris", "Place")), List.of(), 0),
                new Extraction(List.of(Entity.of("Paris Hilton", "Person"), Entity.of("Paris", "Place")), List.of(),
                        0),
                new Extraction(List.of(Entity.of("Hilton", "Person"), Entity.of("Paris Hilton", "Person")),
                        List.of(), 0)), List.of("c0", "c1", "c2"), "d", 1);
        assertThat(g.get(1).entities()).extracting(Entity::id).containsExactlyInAnyOrder("paris hilton", "paris");
        assertThat(g.get(0).entities()).singleElement().satisfies(e -> assertThat(e.type()).isEqualTo("Place"));
        assertThat(g.get(2).entities()).as("a surname of the same kind still joins its person").extracting(Entity::id)
                .containsExactly("paris hilton");
    }

    @Test
    void aliases_in_one_document_become_one_entity() {
        List<ChunkGraph> g = EntityResolver.resolve(List.of(
                names("Sherlock Holmes", "Dr. Watson"),
                new Extraction(List.of(Entity.of("Mr. Holmes", ""), Entity.of("Holmes's", "Person")),
                        List.of(fact("Holmes", "visit", "Baker Street")), 0),
                names("Sherlock", "John Watson")), List.of("c0", "c1", "c2"), "d", 1);
        assertThat(g.get(1).entities()).extracting(Entity::id).containsExactly("sherlock holmes", "baker street");
        Entity holmes = g.get(1).entities().getFirst();
        assertThat(holmes.name()).isEqualTo("Sherlock Holmes");
        assertThat(holmes.type()).isEqualTo("Person");
        assertThat(holmes.aliases()).containsExactly("holmes", "sherlock");
        assertThat(g.get(1).relations()).containsExactly(new Relation("Sherlock Holmes", "Person", "visit",
                "Baker Street", "", "c1", "d", 1, Map.of()));
        assertThat(g.get(2).entities()).extracting(Entity::id).containsExactly("sherlock holmes", "john watson");
        assertThat(g.get(0).entities()).extracting(Entity::id).containsExactly("sherlock holmes", "john watson");
    }

    @Test
    void a_short_name_that_fits_two_longer_ones_stays_apart() {
        List<ChunkGraph> g = EntityResolver.resolve(List.of(names("Sherlock Holmes", "Mycroft Holmes", "Holmes")),
                List.of("c0"), "d", 1);
        assertThat(g.getFirst().entities()).extracting(Entity::id)
                .containsExactly("sherlock holmes", "mycroft holmes", "holmes");
    }

    @Test
    void relations_to_oneself_and_repeats_are_dropped() {
        List<ChunkGraph> g = EntityResolver.resolve(List.of(new Extraction(List.of(),
                List.of(fact("Ada Lovelace", "know", "Lovelace"), fact("Ada Lovelace", "know", "Babbage"),
                        fact("Ada", "know", "Babbage"), fact("...", "x", "Babbage")), 0)), List.of("c0"), "d", 1);
        assertThat(g.getFirst().relations()).hasSize(1);
        assertThat(g.getFirst().entities()).extracting(Entity::id).containsExactly("ada lovelace", "babbage");
    }

    @Test
    void nothing_found_is_an_empty_graph() {
        assertThat(EntityResolver.resolve(List.of(Extraction.EMPTY, Extraction.BUDGET_STOPPED), List.of("a", "b"),
                "d", 1)).allMatch(ChunkGraph::isEmpty);
    }

    @Test
    void an_abbreviation_in_capitals_merges_into_the_name_it_spells() {
        List<ChunkGraph> g = EntityResolver.resolve(List.of(
                new Extraction(List.of(Entity.of("Quillon Dynamics", ""), Entity.of("QD", "")),
                        List.of(fact("Quillon Dynamics", "related_to", "QD"), fact("QD", "headquartered_in", "Pellmar")),
                        0)), List.of("c0"), "d", 1);
        assertThat(g.getFirst().entities()).extracting(Entity::id).containsExactly("quillon dynamics", "pellmar");
        assertThat(g.getFirst().entities().getFirst().aliases()).containsExactly("qd");
        assertThat(g.getFirst().relations()).extracting(r -> r.subject() + " " + r.predicate() + " " + r.object())
                .containsExactly("Quillon Dynamics located_in Pellmar");
        // Two names with the same initials: the abbreviation is ambiguous and stays apart; lower case is a word.
        List<ChunkGraph> two = EntityResolver.resolve(List.of(names("Quillon Dynamics", "Quarry Dredging", "QD",
                "Pellmar Aviation", "pa")), List.of("c0"), "d", 1);
        assertThat(two.getFirst().entities()).extracting(Entity::id).contains("qd", "pa");
    }

    @Test
    void a_pronoun_subject_is_the_entity_the_title_names_or_nothing() {
        Extraction bio = new Extraction(List.of(Entity.of("Maren Ostrava", ""), Entity.of("Quillon Dynamics", "")),
                List.of(fact(Fact.DOCUMENT_SUBJECT, "found", "Quillon Dynamics")), 0);
        Extraction later = new Extraction(List.of(Entity.of("Pellmar", "")),
                List.of(fact(Fact.DOCUMENT_SUBJECT, "live_in", "Pellmar")), 0);
        List<ChunkGraph> g = EntityResolver.resolve(List.of(bio, later), List.of("c0", "c1"), "d", 1,
                "Maren Ostrava: a life in engineering");
        assertThat(g.get(0).relations()).extracting(r -> r.subject() + " " + r.predicate() + " " + r.object())
                .containsExactly("Maren Ostrava founded Quillon Dynamics");
        // The second chunk never names her; the pronoun makes it a mention of her.
        assertThat(g.get(1).relations()).extracting(r -> r.subject() + " " + r.predicate() + " " + r.object())
                .containsExactly("Maren Ostrava live_in Pellmar");
        assertThat(g.get(1).entities()).extracting(Entity::id).contains("maren ostrava", "pellmar");
        // A title naming no entity of the document: the facts have no subject and are dropped.
        List<ChunkGraph> none = EntityResolver.resolve(List.of(bio), List.of("c0"), "d", 1, "notes.txt");
        assertThat(none.getFirst().relations()).isEmpty();
        assertThat(EntityResolver.resolve(List.of(bio), List.of("c0"), "d", 1).getFirst().relations()).isEmpty();
    }
}
