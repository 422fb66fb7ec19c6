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
        assertThat(UploadNames.sanitise("/home/ana/notes/a.md")).as("absolute: the file name").isEqualTo("a.md");
        // A relative path keeps its folders: two folders' summary.md were one document, the second replacing the first.
        assertThat(UploadNames.sanitise("2023/summary.md")).isEqualTo("2023/summary.md");
        assertThat(UploadNames.sanitise("notes\\2024\\summary.md")).isEqualTo("notes/2024/summary.md");
        assertThat(UploadNames.sanitise("notes/./.git/../config")).as("climbing: the file name").isEqualTo("config");
        assertThat(UploadNames.sanitise("docs//.hidden/a.md")).isEqualTo("docs/hidden/a.md");
        assertThat(UploadNames.sanitise("x/".repeat(150) + "deep.md")).endsWith("x/deep.md").hasSizeLessThanOrEqualTo(200);
        // Cut to 200 characters, never inside an emoji (a lone surrogate half became '?' in PostgreSQL).
        String cut = UploadNames.sanitise("a".repeat(196) + "\uD83D\uDE00" + "b".repeat(20) + ".md");
        assertThat(cut).endsWith("a.md").hasSizeLessThanOrEqualTo(200);
        assertThat(UploadNames.sanitise("a".repeat(195) + "\uD83D\uDE00" + "b".repeat(20) + ".md"))
                .endsWith("\uD83D\uDE00.md").hasSize(200);
    }

    /** A second file of one name in a request is told apart before its extension, never inside a folder's name. */
    @Test
    void a_repeated_name_is_numbered_before_the_file_names_extension() {
        java.util.Set<String> taken = new java.util.HashSet<>();
        assertThat(IngestRoutes.unique("v1.2/LICENSE", taken)).isEqualTo("v1.2/LICENSE");
        assertThat(IngestRoutes.unique("v1.2/LICENSE", taken)).isEqualTo("v1.2/LICENSE (2)");
        assertThat(IngestRoutes.unique("docs/a.md", taken)).isEqualTo("docs/a.md");
        assertThat(IngestRoutes.unique("docs/a.md", taken)).isEqualTo("docs/a (2).md");
    }
}
