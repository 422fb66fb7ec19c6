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

    /** The same answers as the JDK's glob matcher, on every kind of pattern it reads. */
    @Test
    void globs_match_as_the_jdks_do() {
        List<String> globs = List.of("*.md", "**/*.md", "docs/*.md", "docs/**", "**", "*", "?.txt", "a?c/*",
                "[a-c]*.pdf", "[!a-c]*.pdf", "*.{md,txt}", "{docs,notes}/**/*.{md,pdf}", "\\*.md", "**/drafts/**",
                "*a*a*b", "x/**/y/*.md", "[-a]*", "*.[!m]d", "a/*/c", "**.md", "*/**/z");
        List<String> paths = List.of("notes.md", "a/b/notes.md", "docs/a.md", "docs/x/a.md", "b.txt", "bb.txt",
                "abc/d", "abc/d/e", "b1.pdf", "z1.pdf", "a.txt", "notes/q/r.pdf", "*.md", "x.md", "x/drafts/y",
                "aaab", "aab/c", "x/y/a.md", "x/p/q/y/a.md", "-x", "q.xd", "a/b/c", "a/b/b/c", "deep/z", "z", "");
        for (String glob : globs) {
            java.nio.file.PathMatcher jdk = java.nio.file.FileSystems.getDefault().getPathMatcher("glob:" + glob);
            GlobMatcher ours = GlobMatcher.of(glob);
            for (String path : paths) {
                assertThat(ours.matches(path)).as(glob + " on '" + path + "'").isEqualTo(jdk.matches(Path.of(path)));
            }
        }
    }

    /** A glob that sends a backtracking matcher into exponential time is matched at once, and a huge group refused. */
    @Test
    void a_pathological_glob_is_matched_in_linear_time() {
        Globs hostile = Globs.of(List.of("*a*a*a*a*a*a*a*a*a*a*a*a*b", "**a**a**a**a**a**a**a**a**a**b"), List.of());
        String name = "a".repeat(250);
        long start = System.nanoTime();
        assertThat(hostile.selects(Path.of(name))).isFalse();
        assertThat(hostile.selects(Path.of("a".repeat(200) + "/" + name))).isFalse();
        assertThat(hostile.selects(Path.of(name + "b"))).isTrue();
        assertThat(System.nanoTime() - start).as("the JDK's matcher does not finish").isLessThan(5_000_000_000L);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Globs.checked(List.of("{a,b,c,d}{a,b,c,d}"
                + "{a,b,c,d}{a,b,c,d}{a,b}"), "include")).hasMessageContaining("more than 256");
    }

    /** A folder an exclude glob P/** takes whole is skipped by a walk; each one it skips holds only excluded paths. */
    @Test
    void a_folder_whose_every_path_is_excluded_is_known_before_it_is_listed() {
        Globs globs = Globs.of(List.of(), List.of("lost+found/**", "**/node_modules/**", "drafts/*.md"));
        assertThat(globs.excludesAllBelow(Path.of("lost+found"))).isTrue();
        assertThat(globs.excludesAllBelow(Path.of("a/lost+found"))).as("a glob with a '/' is a path").isFalse();
        assertThat(globs.excludesAllBelow(Path.of("node_modules"))).isTrue();
        assertThat(globs.excludesAllBelow(Path.of("web/app/node_modules"))).isTrue();
        assertThat(globs.excludesAllBelow(Path.of("drafts"))).as("only its .md files are excluded").isFalse();
        for (String below : List.of("lost+found/x", "node_modules/a/b.js", "web/app/node_modules/c.md")) {
            assertThat(globs.selects(Path.of(below))).as(below).isFalse();
        }
    }
}
