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
    void a_sentence_two_overlapping_chunks_share_is_quoted_once() {
        // The chunker repeats a chunk's last sentences at the start of the next: both chunks matched, and the answer
        // quoted the one sentence twice side by side.
        String shared = "The levain ferments for twelve hours at 24 degrees.";
        String answer = new ExtractiveAnswerer().answer("How long does the levain ferment?", source("Sourdough",
                "Mix flour and water for the levain. " + shared, shared + " The levain then doubles in volume."));
        assertThat(answer.split("twelve hours", -1)).hasSize(2);
        assertThat(answer).contains("twelve hours");
    }

    /**
     * A language written without spaces: every sentence was "one word", too short to quote, and none shared a word
     * with the question, so a Chinese or Japanese collection never had an answer without a language model.
     */
    @Test
    void chinese_and_japanese_sources_are_quoted() {
        String zh = new ExtractiveAnswerer().answer("退款需要多久？", source("退款政策",
                "退款在收到申请后五个工作日内处理。请保留收据以便核对。我们的办公室周一至周五开放。"));
        assertThat(zh).contains("五个工作日").contains("[1]").doesNotContain("办公室");
        String ja = new ExtractiveAnswerer().answer("灯台の高さはどれくらいですか？", source("灯台",
                "この灯台の高さは約百メートルでした。港の入口に建てられました。"));
        assertThat(ja).contains("百メートル").contains("[1]");
        // The prolonged sound mark is part of a katakana word: データ is デー, ータ, not デ and タ.
        assertThat(ExtractiveAnswerer.terms("データベース")).contains("デー", "ータ", "ース");
    }

    @Test
    void a_question_no_sentence_shares_a_word_with_is_not_answered_by_the_nearest_sentence() {
        // A corpus without a payroll page: quoting its nearest sentence would answer something else.
        String answer = new ExtractiveAnswerer().answer("When is salary paid if the 25th is a Saturday?", source(
                "Borrowing", "At any time a value may have either one mutable reference or any number of shared "
                        + "references, but not both. The compiler knows who may change a value and when."));
        assertThat(answer).isEmpty();
    }

    /** A document's own reference mark is not quoted as a citation of another source. */
    @Test
    void a_quoted_sentences_own_reference_marks_are_not_citations() {
        String answer = new ExtractiveAnswerer().answer("What does dropout reduce?", source("Regularisation",
                "Dropout reduces overfitting in large networks [3]. Weight decay shrinks the weights [12]."));
        assertThat(answer).contains("Dropout reduces overfitting in large networks (ref. 3). [1]")
                .doesNotContain("[3]");
        assertThat(AnswerPrompt.quote("as shown [3] and [ 4 ]")).isEqualTo("as shown (ref. 3) and [ 4 ]");
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

    /** One sentence's vector of NaN (a custom fp16 model) leaves the others' scores as they are. */
    @Test
    void a_sentence_vector_of_nan_does_not_spoil_the_others() {
        List<AnswerSource> s = source("Coffee", "Coffee beans are roasted in small batches. Coffee beans come from "
                + "Ethiopia and Brazil. Coffee beans keep their taste in a tin.");
        Embedder model = new io.polyrag.testing.StubEmbedder(2, text -> text.contains("Ethiopia")
                ? new float[] {Float.NaN, Float.NaN} : new float[] {text.contains("tin") || text.contains("store")
                        ? 1 : 0, 1});
        assertThat(new ExtractiveAnswerer(model).answer("How do I store coffee beans?", s)).contains(
                "Coffee beans keep their taste in a tin. [1]");
    }

    @Test
    void a_how_long_question_is_answered_about_its_subject_not_about_what_shares_its_verb() {
        // The starter ferments too and gives a duration; the question asks about the levain.
        var sources = source("Sourdough", "A starter is flour and water left to ferment. Feed it daily, and it "
                + "becomes reliably active within one to two weeks.", "The evening before baking, mix a levain from "
                + "a spoonful of starter, flour and water. After about twelve hours it should be bubbly and smell "
                + "sweet and sour.");
        assertThat(ExtractiveAnswerer.subject("how long does the levain ferment?")).isEqualTo("levain");
        assertThat(ExtractiveAnswerer.subject("how long will it take?")).isNull();
        assertThat(new ExtractiveAnswerer().best("How long does the levain ferment?", sources))
                .startsWith("After about twelve hours");
        assertThat(new ExtractiveAnswerer().answer("How long does the levain ferment?", sources))
                .doesNotContain("one to two weeks");
    }

    @Test
    void a_quantity_said_with_a_measure_word_answers_how_much() {
        var sources = source("Sourdough", "The evening before baking, mix a levain from a spoonful of starter, "
                + "flour and water. The levain should rise by 50 percent.");
        assertThat(new ExtractiveAnswerer().best("How much starter goes into the levain?", sources))
                .contains("a spoonful of starter");
    }

    @Test
    void a_who_question_is_answered_by_the_sentence_naming_someone() {
        var sources = source("On call", "This page explains how the rota works and how the rota is paid. The rota "
                + "is drawn up every quarter by the platform team lead, currently Priya Natarajan. Everyone on the "
                + "rota gets a phone.");
        assertThat(new ExtractiveAnswerer().best("Who puts together the rota?", sources))
                .contains("Priya Natarajan");
    }

    @Test
    void a_sentence_without_a_word_of_the_question_can_answer_in_a_passage_that_speaks_of_it() {
        // "rucksack" and "leave" are not in the answer; the passage is about the museum the question names.
        var sources = source("Museum", "The museum is open from ten to five, Tuesday to Sunday. Bags larger than a "
                + "cabin suitcase must be left in the lockers in the basement cloakroom.");
        assertThat(new ExtractiveAnswerer().answer("Where can I leave my big rucksack at the museum?", sources))
                .contains("lockers in the basement cloakroom");
    }

    @Test
    void an_abbreviation_does_not_cut_the_sentence_it_stands_in() {
        String answer = new ExtractiveAnswerer().answer("Who leads the tours?", source("Museum",
                "Guided tours start at the main entrance. Tours are led by Dr. Smith every Monday at noon. The U.S. "
                        + "Army built the fort."));
        assertThat(answer).contains("Tours are led by Dr. Smith every Monday at noon. [1]");
        assertThat(new ExtractiveAnswerer().answer("When is the next tour?", source("Museum",
                "The next tour is on Sept. 5 in the west wing. Tours are led by John F. Kennedy's grandson.")))
                .contains("The next tour is on Sept. 5 in the west wing. [1]");
    }

    /** A sentence ending in a month's, a weekday's or a letter's name ("the Sun.", "vitamin C.") ends there. */
    @Test
    void a_word_that_looks_like_an_abbreviation_at_a_sentence_end_ends_it() {
        String answer = new ExtractiveAnswerer().answer("What do comets orbit?", source("Comets",
                "Comets are icy bodies that orbit the Sun. Far from the Sun they are inert lumps of ice and dust. "
                        + "Oranges are rich in vitamin C. Lemons are too."));
        assertThat(answer).contains("Comets are icy bodies that orbit the Sun. [1]")
                .doesNotContain("orbit the Sun. Far from");
    }
}
