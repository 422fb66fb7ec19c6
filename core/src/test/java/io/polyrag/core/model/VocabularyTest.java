package io.polyrag.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Set;
import org.junit.jupiter.api.Test;

class VocabularyTest {

    /** Dates, quantities with their units and ordinals were hub entities; a name with a number in it is not one. */
    @Test
    void dates_quantities_and_ordinals_are_no_entities_and_names_with_numbers_are() {
        for (String junk : new String[] {"march 15", "march 15 2024", "monday 3 june", "monday", "january", "16 gb", "16gb", "40 usd", "5 km",
            "2nd", "1998", "280 bc", "seven"}) {
            org.junit.jupiter.api.Assertions.assertTrue(Vocabulary.allNumeric(Entity.key(junk)), junk);
        }
        for (String name : new String[] {"3M", "5G", "Kestrel-9", "Theresa May", "May", "June", "DEC", "GB", "Apollo 11",
            "Boeing 747",
            "Windows 11"}) {
            org.junit.jupiter.api.Assertions.assertFalse(Vocabulary.allNumeric(Entity.key(name)), name);
        }
    }

    @Test
    void a_question_of_two_relations_asks_two() {
        Vocabulary.Asking a = Vocabulary.asking("Who founded the company that makes the Kestrel-9?");
        assertEquals(Set.of(Vocabulary.FOUNDED, Vocabulary.MAKES), a.predicates());
        assertEquals(2, a.asks());
    }

    @Test
    void a_place_noun_before_a_relation_that_ends_at_a_place_is_the_same_ask() {
        // "port" names the kind of answer born_in leads to: one relation, so one hop.
        for (String q : new String[] {"In what port was Lairor Ilith born?", "Stousan Zounock was born in which town?"}) {
            Vocabulary.Asking a = Vocabulary.asking(q);
            assertEquals(Set.of(Vocabulary.BORN_IN), a.predicates(), q);
            assertEquals(1, a.asks(), q);
        }
    }

    @Test
    void a_place_noun_with_a_relation_that_ends_elsewhere_is_an_ask_of_its_own() {
        Vocabulary.Asking a = Vocabulary.asking("In which port is the yard that built the Swift Rindara?");
        assertEquals(Set.of(Vocabulary.LOCATED_IN, Vocabulary.MAKES), a.predicates());
        assertEquals(2, a.asks());
    }

    /** A predicate in another script was mangled ("gr_ndete") or lost (related_to). */
    @Test
    void predicates_in_any_script_keep_their_letters() {
        assertEquals("创立", Vocabulary.canonical("创立").predicate());
        assertEquals("gründete", Vocabulary.canonical("Gründete").predicate());
        assertEquals("arbeitet_für", Vocabulary.canonical("arbeitet für").predicate());
        // Combining marks are part of their words: "स्थापित" was "स_थ_प_त", Thai "ก่อตั้ง" "ก_อต_ง".
        assertEquals("स्थापित_किया", Vocabulary.canonical("स्थापित किया").predicate());
        assertEquals("ก่อตั้ง", Vocabulary.canonical("ก่อตั้ง").predicate());
        assertEquals(Vocabulary.RELATED_TO, Vocabulary.canonical(" -- ").predicate());
    }
}
