package io.polyrag.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.model.AnswerSource;
import io.polyrag.core.model.ChunkKind;
import io.polyrag.core.model.GroundedSentence;
import java.util.List;
import org.junit.jupiter.api.Test;

class GroundingTest {
    private static AnswerSource source(int n, String text) {
        return new AnswerSource(n, "d" + n, "T" + n, "u" + n, "kb",
                List.of(new AnswerSource.Passage("c" + n, 0, ChunkKind.PROSE, List.of(), text, true)));
    }

    /** Chinese sentences end at 。 with no space after it, and their words are found without spaces. */
    @Test
    void a_chinese_answer_is_split_at_its_full_stops_and_grounded_in_its_source() {
        List<GroundedSentence> report = Grounding.report("退款会在五个工作日内处理[1]。火星上有海洋[1]。",
                List.of(source(1, "退款在收到申请后五个工作日内处理。请保留收据。")));
        assertThat(report).hasSize(2);
        assertThat(report.get(0).supported()).isTrue();
        assertThat(report.get(0).supportedBy()).containsExactly(1);
        assertThat(report.get(1).supported()).isFalse();
        // A negation in German the source does not make.
        assertThat(Grounding.report("Die Gebühr ist nicht erstattungsfähig [1].", List.of(source(1,
                "Die Gebühr ist erstattungsfähig, auf Antrag."))).getFirst().supported()).isFalse();
    }

    @Test
    void each_sentence_lists_the_sources_covering_it_and_unsupported_ones_are_flagged() {
        List<AnswerSource> sources = List.of(source(1, "The server listens on port 8080 by default."),
                source(2, "Logs are written to standard error. The server listens on all interfaces."));
        List<GroundedSentence> report = Grounding.report("The server listens on port 8080 [1]. Logs go to standard "
                + "error [2]. It was written in 1970 by aliens.", sources);
        assertThat(report).hasSize(3);
        // Source 2 holds the words but not the port: only 1 states it.
        assertThat(report.get(0).supportedBy()).containsExactly(1);
        assertThat(report.get(0).cited()).containsExactly(1);
        assertThat(report.get(1).supportedBy()).containsExactly(2);
        assertThat(report.get(2).supported()).isFalse();
        assertThat(report.get(2).supportedBy()).isEmpty();
    }

    @Test
    void a_citation_after_the_full_stop_stays_with_its_sentence() {
        List<GroundedSentence> report = Grounding.report("Tides follow the moon. [1] Nothing else.",
                List.of(source(1, "The moon drives the tides.")));
        assertThat(report.getFirst().sentence()).isEqualTo("Tides follow the moon. [1]");
        assertThat(report.getFirst().cited()).containsExactly(1);
        assertThat(report.getFirst().supported()).isTrue();
    }

    /** A quoted table row (no full stop) and a quote ending in a closing quote end where their citations do. */
    @Test
    void a_row_without_a_full_stop_and_a_quote_ending_in_a_quote_mark_are_sentences_of_their_own() {
        List<AnswerSource> sources = List.of(source(1, "Ingredient | Grams | Baker's percentage: Salt | 10 | 2%"),
                source(2, "Add the salt after the autolyse, 30 minutes in. The sign says \"stop.\""));
        List<GroundedSentence> report = Grounding.report("Ingredient | Grams | Baker's percentage: Salt | 10 | 2% [1] "
                + "Add the salt after the autolyse, 30 minutes in. [2] The sign says \"stop.\" [2] Nothing else "
                + "was said.", sources);
        assertThat(report).extracting(GroundedSentence::cited).containsExactly(List.of(1), List.of(2), List.of(2),
                List.of());
        assertThat(report.subList(0, 3)).allSatisfy(g -> assertThat(g.supported()).as(g.sentence()).isTrue());
    }

    @Test
    void a_changed_number_a_flipped_polarity_a_citation_of_no_source_and_a_made_up_list_item_are_unsupported() {
        List<AnswerSource> sources = List.of(source(1, "The museum is open on Mondays from 9 to 17. The levain "
                + "ferments for 12 hours at 24 degrees."), source(2, "Bring rye flour and a Dutch oven."));
        List<GroundedSentence> report = Grounding.report("""
                The museum is not open on Mondays [1].
                The levain ferments for 48 hours at 30 degrees [1].
                The museum is open on Mondays [7].
                The levain ferments for 12 hours at 24 degrees [1].
                - rye flour [2]
                - a Dutch oven [2]
                - a pizza stone and a peel [2]""", sources);
        assertThat(report).extracting(GroundedSentence::supported)
                .containsExactly(false, false, false, true, true, true, false);
        // A thousands separator is the same number.
        assertThat(Grounding.report("It holds 1,200 seats [1].", List.of(source(1, "The hall holds 1200 seats."))))
                .extracting(GroundedSentence::supported).containsExactly(true);
    }
}
