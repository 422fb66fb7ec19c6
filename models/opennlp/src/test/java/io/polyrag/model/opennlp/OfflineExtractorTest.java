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
                .contains("Marie Curie works_at Radium Institute", "Radium Institute located_in Paris");
        assertThat(e.facts()).allSatisfy(f -> assertThat(f.properties()).containsKeys("evidence", "extractor"));
    }

    /**
     * A reference ("the university", a head noun said before) overlapping a name that starts inside it leaves the
     * name to be a name, and the sentence's later names are found: they were all skipped. Tagged by hand, as a
     * tagger may read a capitalised noun.
     */
    @Test
    void a_reference_overlapping_a_name_leaves_it_and_the_names_after_it() {
        OfflineExtractor.Tools tools = extractor.newTools();
        ChunkReading reading = new ChunkReading(new OfflineExtractor.Lemmatizer(tools.lemmatizer(), tools.memo()));
        reading.read(tagged("Ostrava university opened .", "PROPN NOUN VERB PUNCT"));
        reading.read(tagged("Lena studied at the University Ortega in Madrid with Carlos Ruiz .",
                "PROPN VERB ADP DET NOUN PROPN ADP PROPN ADP PROPN PROPN PUNCT"));
        assertThat(reading.extraction().entities()).extracting(Entity::id).contains("university ortega", "madrid",
                "carlos ruiz");
    }

    private static OfflineExtractor.Tagged tagged(String text, String tags) {
        String[] words = text.split(" ");
        boolean[] opens = new boolean[words.length];
        opens[0] = true;
        return new OfflineExtractor.Tagged(text, words, tags.split(" "), new boolean[words.length], opens);
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

    private List<String> facts(Extraction e) {
        return e.facts().stream().map(f -> (f.subject().equals(Fact.DOCUMENT_SUBJECT) ? "SUBJECT" : f.subject())
                + " " + f.predicate() + " " + f.object()).toList();
    }

    @Test
    void a_pronoun_stands_for_the_latest_name_it_can_and_else_for_the_text_subject() {
        Extraction e = extractor.extract(List.of("Maren Ostrava is an engineer from Pellmar. She founded Quillon "
                + "Dynamics in 1998. In 2004 she joined Pellmar Robotics. Its chief executive is Tomas Brel. Nobody "
                + "knows why."), Long.MAX_VALUE).getFirst();
        assertThat(facts(e)).contains("Maren Ostrava founded Quillon Dynamics", "Maren Ostrava works_at Pellmar "
                + "Robotics", "Tomas Brel leads Pellmar Robotics");
        assertThat(e.entities()).filteredOn(x -> x.id().equals("maren ostrava")).extracting(Entity::type)
                .containsExactly("Person");
        // No name before it in the chunk: the pronoun stands for the document's subject (its title's entity).
        Extraction alone = extractor.extract(List.of("She founded Quillon Dynamics in 1998."), Long.MAX_VALUE)
                .getFirst();
        assertThat(facts(alone)).containsExactly("SUBJECT founded Quillon Dynamics");
        // A pronoun with no name to relate it to links nothing.
        Extraction plain = extractor.extract(List.of("The board thanked her in Pellmar. Nobody asked them about it."),
                Long.MAX_VALUE).getFirst();
        assertThat(facts(plain)).noneMatch(f -> f.startsWith("SUBJECT"));
    }

    @Test
    void names_with_digits_hyphens_and_model_numbers_stay_whole() {
        Extraction e = extractor.extract(List.of("The Kroar 300 is produced by Velkro-80 Pharma. A related model, "
                + "the Kroar S-22, shares its frame. Tulfouth-93 Systems bought Nalvo X2 from ALDH1 Partners."),
                Long.MAX_VALUE).getFirst();
        assertThat(e.entities()).extracting(Entity::name).contains("Kroar 300", "Velkro-80 Pharma", "Kroar S-22",
                "Tulfouth-93 Systems", "Nalvo X2");
        // A year after a name is not part of it, nor is the sentence's full stop.
        Extraction year = extractor.extract(List.of("Maren Ostrava founded Quillon Dynamics in 1998."),
                Long.MAX_VALUE).getFirst();
        assertThat(year.entities()).extracting(Entity::name).containsExactly("Maren Ostrava", "Quillon Dynamics");
    }

    @Test
    void lone_generic_words_and_sentence_openers_are_not_entities() {
        Extraction e = extractor.extract(List.of("Saturday came. The market by the River opens on Monday in "
                + "Pellmar. Gentle rain fell on the Institute."), Long.MAX_VALUE).getFirst();
        assertThat(e.entities()).extracting(Entity::id).doesNotContain("saturday", "river", "monday", "institute",
                "gentle");
        assertThat(e.entities()).extracting(Entity::id).contains("pellmar");
    }

    @Test
    void a_documents_own_parts_periods_list_markers_and_a_glued_opener_name_nothing() {
        // (A quote does not open a sentence: a quoted title there is a name.)
        Extraction e = extractor.extract(List.of("""
                As shown in Figure 2, the Kestrel-9 outperforms the Osprey-2 in Table 3. Revenue at Borealis                 Instruments rose in Q3 and in FY2023, see Section 4 and Appendix B.
                * Sediment cores were logged at Wurgate.
                2. Pressure readings came from the Kestrel-9.
                (Salinity rose after the storm at Pharos.)
                Yesterday Borealis Instruments announced the Heron-7 seismometer."""), Long.MAX_VALUE).getFirst();
        assertThat(e.entities()).extracting(Entity::id).doesNotContain("figure 2", "table 3", "q3", "fy2023",
                "fy 2023", "section 4", "appendix b", "sediment", "pressure", "salinity",
                "yesterday borealis instruments");
        assertThat(e.entities()).extracting(Entity::id).contains("kestrel 9", "osprey 2", "borealis instruments",
                "wurgate", "pharos");
    }

    @Test
    void a_coordinated_agent_shares_the_relation_not_the_first_agents_place() {
        Extraction e = extractor.extract(List.of("Quillon Dynamics was founded by Ada Verrin and Tomas Heale. "
                + "Borealis Instruments makes the Kestrel-9 and the Heron-7."), Long.MAX_VALUE).getFirst();
        assertThat(facts(e)).contains("Ada Verrin founded Quillon Dynamics", "Tomas Heale founded Quillon Dynamics",
                "Borealis Instruments makes Kestrel-9", "Borealis Instruments makes Heron-7")
                .doesNotContain("Tomas Heale founded Ada Verrin");
    }

    @Test
    void every_item_of_a_comma_list_shares_the_relation_but_a_lone_comma_makes_no_list() {
        Extraction e = extractor.extract(List.of("Borealis Instruments makes the Kestrel-9, the Osprey-2 and the "
                + "Heron-7. Quillon Dynamics was founded by Ada Verrin, Tomas Heale, and Ines Marlow. "
                + "Marta Lindqvist works at Borealis Instruments, Ostrava Works."), Long.MAX_VALUE).getFirst();
        assertThat(facts(e)).contains("Borealis Instruments makes Kestrel-9", "Borealis Instruments makes Osprey-2",
                "Borealis Instruments makes Heron-7", "Ada Verrin founded Quillon Dynamics",
                "Tomas Heale founded Quillon Dynamics", "Ines Marlow founded Quillon Dynamics")
                .doesNotContain("Kestrel-9 related_to Osprey-2", "Marta Lindqvist works_at Ostrava Works");
    }

    @Test
    void a_table_cell_or_a_line_opens_like_a_sentence() {
        Extraction e = extractor.extract(List.of("""
                | Order | Focal length (mm) | Typical use |
                |---|---|---|
                | First | 920 | Major coastal lights built by Fresnel |
                Water | 375 | 75%
                Flour | 450 | 90% from Varnholm Mills"""), Long.MAX_VALUE).getFirst();
        assertThat(e.entities()).extracting(Entity::id).doesNotContain("focal", "typical", "water", "flour", "first");
        assertThat(e.entities()).extracting(Entity::id).contains("fresnel");
    }

    @Test
    void sentences_that_cannot_hold_a_name_are_not_tagged_and_lose_nothing() {
        assertThat(may("It rained all day in the valley.", "It rained all day.")).isFalse();
        assertThat(may("Then it rained in Pellmar.", "")).isTrue();
        assertThat(may("MRI scans were taken.", "MRI scans were taken.")).isTrue();
        assertThat(may("Pellmar is small.", "Pellmar is small. We met in Pellmar.")).isTrue();
        assertThat(may("Gentle rain fell.", "Gentle rain fell.")).isFalse();
        Extraction e = extractor.extract(List.of("Pellmar is small. The river floods. MRI scans were taken. We met "
                + "in Pellmar."), Long.MAX_VALUE).getFirst();
        assertThat(e.entities()).extracting(Entity::id).contains("pellmar", "mri");
    }

    private static boolean may(String sentence, String text) {
        return OfflineExtractor.mayName(sentence, OfflineExtractor.capitalisedInside(text));
    }

    @Test
    void text_without_spaces_is_read_in_linear_time_and_names_nothing() {
        String noSpaces = "ab.cd,Ef-Gh/ij:KL".repeat(60_000); // about 1 MB
        long t0 = System.nanoTime();
        Extraction e = extractor.extract(List.of(noSpaces, "Ada Ferrow kept the Quillon light. " + noSpaces),
                Long.MAX_VALUE).getLast();
        assertThat((System.nanoTime() - t0) / 1_000_000).as("a megabyte without spaces took ten minutes before")
                .isLessThan(20_000);
        assertThat(e.entities()).extracting(Entity::id).containsExactlyInAnyOrder("ada ferrow", "quillon");
    }

    @Test
    void a_text_that_outlasts_its_time_gives_nothing_rather_than_half() {
        String longText = "Ada Ferrow kept the Quillon light for Borealis Instruments in Varnholm. ".repeat(4000);
        Extraction e = extractor.extract(List.of(longText), Long.MAX_VALUE, new io.polyrag.core.port.EntityExtractor
                .TimeLimits(java.time.Duration.ofMillis(5), Long.MAX_VALUE)).getFirst();
        assertThat(e.timeStopped()).isTrue();
        assertThat(e.entities()).isEmpty();
        Extraction late = extractor.extract(List.of("Ada Ferrow kept the light."), Long.MAX_VALUE,
                new io.polyrag.core.port.EntityExtractor.TimeLimits(java.time.Duration.ofSeconds(5),
                        System.nanoTime() - 1)).getFirst();
        assertThat(late.timeStopped()).as("past the call's deadline: not started").isTrue();
    }

    /** Closed (the server stopping), it refuses with a clear error rather than hanging a caller or a raw rejection. */
    @Test
    void a_closed_extractor_says_so() {
        org.junit.jupiter.api.Assumptions.assumeTrue(Runtime.getRuntime().availableProcessors() > 1,
                "one core: texts are extracted on the caller's thread, no pool to close");
        OfflineExtractor closed = new OfflineExtractor();
        closed.close();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> closed.extract(List.of("Ada Ferrow kept the light.",
                "Borealis makes the Kestrel-9."), Long.MAX_VALUE)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("the extractor was closed");
    }
}
