package io.polyrag.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.model.AnswerSource;
import io.polyrag.core.model.ChunkKind;
import io.polyrag.core.port.Embedder;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The sentences an extractive answer quotes: conditions completed, subjects named the sentence before, meaning. */
class ExtractiveAnswererTest {
    private static List<AnswerSource> source(String title, String... passages) {
        List<AnswerSource.Passage> ps = new java.util.ArrayList<>();
        for (int i = 0; i < passages.length; i++) {
            ps.add(new AnswerSource.Passage("c" + i, i, ChunkKind.PROSE, List.of(title), passages[i], true, ""));
        }
        return List.of(new AnswerSource(1, "d", title, "file:///d", "kb", ps));
    }

    @Test
    void a_question_no_sentence_shares_a_word_with_is_not_answered_by_the_nearest_sentence() {
        // A corpus without a payroll page: quoting its nearest sentence would answer something else.
        String answer = new ExtractiveAnswerer().answer("When is salary paid if the 25th is a Saturday?", source(
                "Borrowing", "At any time a value may have either one mutable reference or any number of shared "
                        + "references, but not both. The compiler knows who may change a value and when."));
        assertThat(answer).isEmpty();
    }

    @Test
    void a_question_that_sets_a_condition_gets_the_sentence_that_states_it() {
        String answer = new ExtractiveAnswerer().answer("When is salary paid if the 25th is a Saturday?", source(
                "Payroll", "Salaries are paid on the 25th of each month. When the 25th falls on a weekend or a public "
                        + "holiday, payment is made on the last working day before it. Payslips are published in the "
                        + "staff portal two days before payment."));
        assertThat(answer).contains("When the 25th falls on a weekend or a public holiday, payment is made on the "
                + "last working day before it. [1]");
    }

    @Test
    void a_sentence_whose_subject_the_one_before_names_can_answer_with_the_kind_of_answer_asked_for() {
        String answer = new ExtractiveAnswerer().answer("How tall was the Pharos?", source("Lighthouses",
                "The Pharos of Alexandria, completed around 280 BC, was one of the Seven Wonders of the Ancient World. "
                        + "Estimates put its height above one hundred metres. A fire burned at its top at night."));
        assertThat(answer).contains("Estimates put its height above one hundred metres. [1]");
    }

    @Test
    void a_question_asking_how_long_is_not_answered_by_a_sentence_without_a_duration() {
        List<AnswerSource.Passage> ps = List.of(
                new AnswerSource.Passage("c0", 0, ChunkKind.PROSE, List.of("Sourdough"), "The evening before baking, "
                        + "mix a levain from a spoonful of starter, flour and water. After about twelve hours it "
                        + "should be bubbly and smell sweet and sour. Shape the loaf on a floured board.", true, ""),
                new AnswerSource.Passage("c1", 1, ChunkKind.TABLE, List.of("Sourdough"), "Ingredient | Grams\n"
                        + "Levain | 100\nFlour | 500", true, ""));
        String answer = new ExtractiveAnswerer().answer("How long should the levain rest?", List.of(
                new AnswerSource(1, "d", "Sourdough", "file:///d", "kb", ps, List.of())));
        assertThat(answer).contains("After about twelve hours it should be bubbly and smell sweet and sour. [1]")
                .doesNotContain("Levain | 100");
        // Asked when, a sentence without a date or a time word may still answer: no pattern rules it out.
        String when = new ExtractiveAnswerer().answer("When does a monthly pass expire?", source("Bus", "A monthly "
                + "pass costs 42 euros. A monthly pass expires at the end of the calendar month it was bought in."));
        assertThat(when).contains("expires at the end of the calendar month");
    }

    @Test
    void with_an_embedding_model_meaning_decides_between_sentences_with_the_same_words() {
        // Three sentences with the same words; at most two are quoted from one source.
        List<AnswerSource> s = source("Coffee", "Coffee beans are roasted in small batches. Coffee beans come from "
                + "Ethiopia and Brazil. Coffee beans keep their taste in a tin.");
        String question = "How do I store coffee beans?";
        // A model under which only "tin" carries the question's meaning.
        Embedder model = new io.polyrag.testing.StubEmbedder(2,
                text -> new float[] {text.contains("tin") || text.contains("store") ? 1 : 0, 1});
        assertThat(new ExtractiveAnswerer(model).answer(question, s)).contains(
                "Coffee beans keep their taste in a tin. [1]");
        assertThat(new ExtractiveAnswerer().answer(question, s)).as("words alone: the first two, in reading order")
                .isEqualTo("Coffee beans are roasted in small batches. [1] Coffee beans come from Ethiopia and Brazil. [1]");
    }
}
