package io.polyrag.model.opennlp;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.model.Entity;
import io.polyrag.core.model.Extraction;
import io.polyrag.core.model.Fact;
import java.util.List;
import org.junit.jupiter.api.Test;

class OfflineExtractorTest {
    private final OfflineExtractor extractor = new OfflineExtractor();

    @Test
    void finds_proper_names_and_the_verb_between_them() {
        Extraction e = extractor.extract(List.of("Marie Curie worked at the Radium Institute for many years. "
                + "The Radium Institute is located in Paris."), Long.MAX_VALUE).getFirst();
        assertThat(e.entities()).extracting(Entity::id).contains("marie curie", "radium institute", "paris");
        assertThat(e.entities()).filteredOn(x -> x.id().equals("radium institute")).extracting(Entity::type)
                .contains("Organization");
        assertThat(e.facts()).extracting(f -> f.subject() + " " + f.predicate() + " " + f.object())
                .contains("Marie Curie work_at Radium Institute", "Radium Institute locate_in Paris");
        assertThat(e.facts()).allSatisfy(f -> assertThat(f.properties()).containsKeys("evidence", "extractor"));
    }

    @Test
    void keeps_connectors_inside_names_and_titles_as_person_hints() {
        Extraction e = extractor.extract(List.of("Dr. John Watson met Sherlock Holmes near the University of "
                + "Edinburgh."), Long.MAX_VALUE).getFirst();
        assertThat(e.entities()).extracting(Entity::id).contains("john watson", "university of edinburgh",
                "sherlock holmes");
        assertThat(e.entities()).filteredOn(x -> x.id().equals("john watson")).extracting(Entity::type)
                .containsExactly("Person");
        assertThat(e.entities()).filteredOn(x -> x.id().equals("university of edinburgh")).extracting(Entity::type)
                .containsExactly("Organization");
    }

    @Test
    void text_without_names_gives_nothing_and_odd_input_does_not_fail() {
        assertThat(extractor.extract(List.of("it rained all day and nobody went out."), Long.MAX_VALUE).getFirst()
                .entities()).isEmpty();
        List<Extraction> odd = extractor.extract(List.of("", "   ", "\u0000\u0001", "A".repeat(20000),
                "| a | b |\n|---|---|\n| 1 | 2 |", "int main() { return 0; }"), Long.MAX_VALUE);
        assertThat(odd).hasSize(6);
        assertThat(odd.getFirst()).isEqualTo(Extraction.EMPTY);
    }

    @Test
    void every_fact_joins_two_of_the_entities_found() {
        Extraction e = extractor.extract(List.of("Ada Lovelace wrote about the Analytical Engine designed by "
                + "Charles Babbage in London."), Long.MAX_VALUE).getFirst();
        List<String> ids = e.entities().stream().map(Entity::id).toList();
        for (Fact f : e.facts()) {
            assertThat(ids).contains(Entity.key(f.subject()), Entity.key(f.object()));
        }
        assertThat(e.facts()).isNotEmpty();
    }
}
