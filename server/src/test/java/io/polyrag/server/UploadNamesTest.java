package io.polyrag.server;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Client file names made safe, and one name one spelling (a document's id is made from it). */
class UploadNamesTest {

    @Test
    void a_name_is_composed_and_stripped_of_folders_controls_and_leading_dots() {
        assertThat(UploadNames.sanitise("Re\u0301sume\u0301.txt")).as("a Mac's decomposed accents")
                .isEqualTo("R\u00e9sum\u00e9.txt");
        assertThat(UploadNames.sanitise("../../etc/pass\u0007wd")).isEqualTo("passwd");
        assertThat(UploadNames.sanitise("C:\\Users\\me\\.hidden.md")).isEqualTo("hidden.md");
        // Cut to 200 characters, never inside an emoji (a lone surrogate half became '?' in PostgreSQL).
        String cut = UploadNames.sanitise("a".repeat(196) + "\uD83D\uDE00" + "b".repeat(20) + ".md");
        assertThat(cut).endsWith("a.md").hasSizeLessThanOrEqualTo(200);
        assertThat(UploadNames.sanitise("a".repeat(195) + "\uD83D\uDE00" + "b".repeat(20) + ".md"))
                .endsWith("\uD83D\uDE00.md").hasSize(200);
    }
}
