package io.polyrag.core.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class IdsTest {
    /** A cut inside a surrogate pair left its lone half, shown as "�" (and refused by strict providers). */
    @Test
    void shortened_text_never_ends_in_half_a_character() {
        String text = "a".repeat(79) + "😀" + "tail";
        assertThat(Ids.abbreviate(text, 80)).isEqualTo("a".repeat(79) + "…");
        assertThat(Ids.abbreviate(text, 81)).isEqualTo("a".repeat(79) + "😀…");
        assertThat(Ids.clip(text, 81)).isEqualTo("a".repeat(79) + "…");
        assertThat(Ids.abbreviate("short", 80)).isEqualTo("short");
    }
}
