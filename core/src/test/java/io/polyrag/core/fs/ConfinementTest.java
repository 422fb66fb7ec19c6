package io.polyrag.core.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A refusal tells a reader nothing of what exists outside its folders: not through a path outside them, and not
 * through a link inside them that leads out (a tenant's link to "/" probed another tenant's originals by name).
 */
class ConfinementTest {
    @TempDir
    Path tmp;

    @Test
    void outside_the_roots_a_file_that_exists_and_one_that_does_not_are_refused_alike() throws IOException {
        Path mine = Files.createDirectories(tmp.resolve("mine"));
        Path other = Files.createDirectories(tmp.resolve("other"));
        Files.writeString(other.resolve("secret.txt"), "salaries");
        Files.writeString(mine.resolve("ok.txt"), "mine");
        Files.createSymbolicLink(mine.resolve("up"), tmp);
        Confinement c = Confinement.of(List.of(mine), List.of());

        String there = c.refusal(mine.resolve("up/other/secret.txt")).orElseThrow();
        String absent = c.refusal(mine.resolve("up/other/absent.txt")).orElseThrow();
        assertThat(there.replace("secret", "X")).isEqualTo(absent.replace("absent", "X"));
        assertThat(absent).doesNotContain("no such file");
        assertThat(c.refusal(other.resolve("secret.txt")).orElseThrow().replace("secret", "X"))
                .isEqualTo(c.refusal(other.resolve("absent.txt")).orElseThrow().replace("absent", "X"));
        assertThatThrownBy(() -> c.open(mine.resolve("up/other/absent.txt"))).isInstanceOf(Confinement.Refused.class)
                .isNotInstanceOf(NoSuchFileException.class).hasMessageContaining("resolves outside");

        // Written outside, through a link into a root: it is that root's file.
        Path alias = Files.createSymbolicLink(tmp.resolve("alias"), mine);
        assertThat(c.refusal(alias.resolve("ok.txt"))).isEmpty();
        // Inside, with no link on the way, a missing file is said to be missing; a file there is read.
        assertThat(c.refusal(mine.resolve("gone.txt")).orElseThrow()).contains("no such file");
        assertThat(c.refusal(mine.resolve("ok.txt"))).isEmpty();
        try (InputStream in = c.open(mine.resolve("ok.txt"))) {
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("mine");
        }
    }
}
