package io.polyrag.core.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class EntityKeyTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "Sherlock Holmes|sherlock holmes",
        "Mr. Sherlock Holmes's|sherlock holmes",
        "  Dr  Watson |watson",
        "The Radium Institute|radium institute",
        "ＡＣＭＥ Corp.|acme corp",
        "Holmes’s|holmes",
        "Mr.|mr",
        "St. Louis|st louis",
        "Saint Petersburg|saint petersburg",
        "C++|c plus plus",
        "C#|c sharp",
        "F# and C|f sharp and c",
        "issue#12|issue 12",
        "Doctor Who|doctor who",
        "The Who|the who",
        "The Lord of the Rings|lord of the rings",
        "Captain Nemo|nemo",
        "...|''",
    })
    void normalises_names(String name, String key) {
        assertThat(Entity.key(name)).isEqualTo(key);
    }

    /** A vowel sign is part of its word: Rām and Rom were one key ("र म"), as every pair differing in one. */
    @org.junit.jupiter.api.Test
    void marks_are_part_of_the_word_they_are_written_in() {
        assertThat(Entity.key("राम")).isNotEqualTo(Entity.key("रोम")).doesNotContain(" ");
        assertThat(Entity.key("กรุงเทพ")).doesNotContain(" ");
        assertThat(Entity.key("İstanbul")).isEqualTo("istanbul");
        assertThat(Entity.key("Café")).isEqualTo("café");
        assertThat(Entity.ownPartContaining(Entity.key("राम"))).contains("राम");
    }
}
