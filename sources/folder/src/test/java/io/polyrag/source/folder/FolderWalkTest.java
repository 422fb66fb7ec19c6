package io.polyrag.source.folder;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.fs.Confinement;
import io.polyrag.core.model.ItemError;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A folder that cannot be listed makes the listing partial, so a sync deletes nothing it did not find: before, the
 * files below an unreadable folder (no permission, a stale mount, too many open files) were all removed from the
 * index. Listing is made to fail by a stand-in, since the suite runs as root, whom permissions do not stop.
 */
class FolderWalkTest {
    @TempDir
    Path root;

    @Test
    void an_unreadable_folder_is_an_error_and_leaves_the_listing_partial() throws IOException {
        Files.createDirectories(root.resolve("a/deep"));
        Files.createDirectories(root.resolve("b"));
        Files.writeString(root.resolve("top.md"), "top");
        Files.writeString(root.resolve("a/one.md"), "one");
        Files.writeString(root.resolve("a/deep/two.md"), "two");
        Files.writeString(root.resolve("b/three.md"), "three");
        List<ItemError> errors = new ArrayList<>();
        AtomicBoolean partial = new AtomicBoolean();
        FolderConnector.Lister failingA = dir -> {
            if (dir.endsWith("a")) {
                throw new AccessDeniedException(dir.toString());
            }
            return Files.list(dir);
        };
        try (Stream<Map.Entry<String, Path>> walk = FolderConnector.walk(root, Map.of(), Confinement.NONE,
                errors::add, partial, failingA)) {
            assertThat(walk.map(Map.Entry::getKey).toList()).containsExactly("b/three.md", "top.md");
        }
        assertThat(partial).isTrue();
        assertThat(errors).singleElement().satisfies(e -> {
            assertThat(e.source()).isEqualTo("a");
            assertThat(e.reason()).contains("cannot be listed").contains("nothing below it was removed");
        });
    }

    @Test
    void a_readable_folder_lists_whole() throws IOException {
        Files.createDirectories(root.resolve("a"));
        Files.writeString(root.resolve("a/one.md"), "one");
        AtomicBoolean partial = new AtomicBoolean();
        List<ItemError> errors = new ArrayList<>();
        try (Stream<Map.Entry<String, Path>> walk = FolderConnector.walk(root, Map.of(), Confinement.NONE,
                errors::add, partial)) {
            assertThat(walk.map(Map.Entry::getKey).toList()).containsExactly("a/one.md");
        }
        assertThat(partial).isFalse();
        assertThat(errors).isEmpty();
    }
}
