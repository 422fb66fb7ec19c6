package io.polyrag.core.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The globs of an ingest and of every sync source: by name without a '/', by path with one, '**' also at the top. */
class GlobsTest {

    @Test
    void a_double_star_glob_takes_the_files_at_the_top_as_well_as_below() {
        Globs globs = Globs.of(List.of("**/*.md"), List.of());
        assertThat(globs.selects(Path.of("notes.md"))).isTrue();
        assertThat(globs.selects(Path.of("a/b/notes.md"))).isTrue();
        assertThat(globs.selects(Path.of("notes.txt"))).isFalse();
        assertThat(globs.selects("handbook/levain.md")).isTrue();
    }

    @Test
    void a_glob_without_a_slash_matches_the_name_and_one_with_a_slash_the_path() {
        Globs byName = Globs.of(List.of("*.md"), List.of("draft-*"));
        assertThat(byName.selects(Path.of("deep/down/notes.md"))).isTrue();
        assertThat(byName.selects(Path.of("deep/draft-notes.md"))).isFalse();
        Globs byPath = Globs.of(List.of("docs/*.md"), List.of());
        assertThat(byPath.selects(Path.of("docs/notes.md"))).isTrue();
        assertThat(byPath.selects(Path.of("notes.md"))).isFalse();
        assertThat(byPath.selects(Path.of("other/docs/notes.md"))).isFalse();
    }

    @Test
    void no_include_takes_everything_not_excluded() {
        Globs none = Globs.of(List.of(), List.of("**/drafts/**"));
        assertThat(none.includes()).isFalse();
        assertThat(none.selects(Path.of("a.pdf"))).isTrue();
        assertThat(none.selects(Path.of("x/drafts/a.pdf"))).isFalse();
    }
}
