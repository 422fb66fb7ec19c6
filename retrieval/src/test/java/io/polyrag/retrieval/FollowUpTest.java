package io.polyrag.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A follow-up's retrieval query carries what the earlier turns named; a question naming its subject stays as it is. */
class FollowUpTest {
    /**
     * An earlier turn comes uncut from a request's body (up to 16 MiB): its words were each a string of their own,
     * about a gigabyte allocated for one request. Its opening is read; the subject is there.
     */
    @Test
    void a_huge_earlier_turn_costs_its_opening_only() {
        String huge = "How long does the levain ferment? " + "a ".repeat(8_000_000);
        var threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        String q = FollowUp.rewrite(List.of(huge), "And at what temperature?");
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertThat(q).isEqualTo("And at what temperature? levain ferment");
        assertThat(allocated).as("bytes allocated").isLessThan(20_000_000L);
    }

    @Test
    void an_elliptical_follow_up_carries_the_earlier_subject() {
        assertThat(FollowUp.rewrite(List.of("How long does the levain ferment?"), "And at what temperature?"))
                .isEqualTo("And at what temperature? levain ferment");
    }

    @Test
    void small_talk_between_two_questions_is_passed_over_to_the_turn_that_named_the_subject() {
        // "Great, thanks" stopped the walk back: the search carried "great", and the levain was lost.
        for (String thanks : List.of("Great, thanks", "thanks!", "Perfect, that helps")) {
            String q = FollowUp.rewrite(List.of("How long does the levain ferment?", thanks), "And at what temperature?");
            assertThat(q).contains("levain").doesNotContain("great", "thanks", "perfect", "helps");
        }
    }

    @Test
    void a_pronoun_carries_the_name_it_stands_for() {
        assertThat(FollowUp.rewrite(List.of("Tell me about the Pharos of Alexandria."), "When was it built?"))
                .startsWith("When was it built? Pharos Alexandria");
    }

    @Test
    void a_chain_of_follow_ups_reaches_back_to_the_turn_that_named_the_subject() {
        String third = FollowUp.rewrite(List.of("How long does the levain ferment?", "And at what temperature?"),
                "How often should I feed it?");
        assertThat(third).contains("levain").contains("temperature");
    }

    @Test
    void a_question_that_names_its_own_subject_is_searched_as_it_is() {
        String q = "Who built the lighthouse at Quillon Point?";
        assertThat(FollowUp.rewrite(List.of("How long does the levain ferment?"), q)).isEqualTo(q);
        assertThat(FollowUp.rewrite(List.of(), "And at what temperature?")).isEqualTo("And at what temperature?");
    }

    @Test
    void small_talk_an_existential_there_and_a_clause_opening_that_carry_nothing() {
        List<String> before = List.of("How long does the levain ferment?");
        for (String q : List.of("thanks", "Thank you!", "ok, bye", "Is there a cloakroom at the museum?",
                "What documents prove that the tenant paid the rent?", "", "   ")) {
            assertThat(FollowUp.rewrite(before, q)).as(q).isEqualTo(q);
        }
        // Still pointers: "there" as a place, "that" standing for the subject.
        assertThat(FollowUp.rewrite(before, "Can I leave it there overnight?")).endsWith("levain ferment");
        assertThat(FollowUp.rewrite(before, "Is that done at room temperature?")).endsWith("levain ferment");
    }
}
