package io.polyrag.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileSourcesTest {
    @TempDir
    Path root;

    @BeforeEach
    void tree() throws IOException {
        Files.createDirectories(root.resolve("docs/api"));
        Files.createDirectories(root.resolve(".git"));
        Files.writeString(root.resolve("README.md"), "# R");
        Files.writeString(root.resolve("docs/guide.md"), "# G");
        Files.writeString(root.resolve("docs/api/ref.html"), "<p>x</p>");
        Files.writeString(root.resolve("docs/draft.txt"), "draft");
        Files.writeString(root.resolve("image.png"), "not really");
        Files.writeString(root.resolve(".hidden.md"), "# H");
        Files.writeString(root.resolve(".git/config.md"), "# C");
    }

    private static boolean textTypes(String name) {
        return name.endsWith(".md") || name.endsWith(".html") || name.endsWith(".txt");
    }

    @Test
    void a_directory_walk_takes_parseable_files_in_path_order_and_skips_hidden_ones() {
        FileSources.Listing l = FileSources.list(List.of(root), List.of(), List.of(), FileSourcesTest::textTypes);
        assertThat(l.inputs()).extracting(IngestInput::name).containsExactly("README.md", "docs/api/ref.html",
                "docs/draft.txt", "docs/guide.md");
        assertThat(l.skipped()).isEqualTo(1);
        assertThat(l.errors()).isEmpty();
        assertThat(l.inputs().getFirst().uri()).startsWith("file:///").endsWith("/README.md");
    }

    @Test
    void include_and_exclude_globs_match_names_or_relative_paths() {
        FileSources.Listing l = FileSources.list(List.of(root), List.of("**/*.md", "*.html"), List.of("docs/api/**"),
                FileSourcesTest::textTypes);
        assertThat(l.inputs()).extracting(IngestInput::name).containsExactly("README.md", "docs/guide.md");
        FileSources.Listing noDrafts = FileSources.list(List.of(root), List.of(), List.of("draft*"),
                FileSourcesTest::textTypes);
        assertThat(noDrafts.inputs()).extracting(IngestInput::name).doesNotContain("docs/draft.txt");
    }

    @Test
    void a_named_file_is_always_taken_and_a_missing_path_is_an_error() throws IOException {
        FileSources.Listing l = FileSources.list(List.of(root.resolve("image.png"), root.resolve("nope")), List.of(),
                List.of(), FileSourcesTest::textTypes);
        assertThat(l.inputs()).extracting(IngestInput::name).containsExactly("image.png");
        assertThat(l.errors()).singleElement().satisfies(e -> assertThat(e.reason()).endsWith(
                "nope: no such file or directory"));
        assertThat(new String(l.inputs().getFirst().content().read())).isEqualTo("not really");
    }

    /**
     * polyrag's own folders are never walked, whichever way the walk spells them: a root given through a link meets
     * the data directory under the link's name.
     */
    @Test
    void the_data_directory_is_not_walked_even_through_a_link() throws IOException {
        Path data = Files.createDirectories(root.resolve("docs/data/blobs/x"));
        Files.writeString(data.resolve("meta.md"), "# another tenant's file name");
        Path link = Files.createSymbolicLink(root.getParent().resolve(root.getFileName() + "-link"), root);
        try {
            for (Path given : List.of(root, link)) {
                FileSources.Listing l = FileSources.list(List.of(given), List.of(), List.of(),
                        FileSourcesTest::textTypes, io.polyrag.core.fs.Confinement.NONE, List.of(root.resolve(
                                "docs/data")));
                assertThat(l.inputs()).extracting(IngestInput::name).as("walked as %s", given)
                        .contains("docs/guide.md").noneMatch(n -> n.contains("data/"));
                assertThat(l.inputs()).extracting(IngestInput::uri).as("named under the path as given")
                        .allMatch(u -> u.startsWith(given.toUri().toString()));
            }
        } finally {
            Files.delete(link);
        }
    }
}
