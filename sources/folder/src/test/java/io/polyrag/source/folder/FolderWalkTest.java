package io.polyrag.source.folder;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.fs.Confinement;
import io.polyrag.core.model.ItemError;
import io.polyrag.core.port.SourceConnector;
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

    /**
     * A volume gone during the walk (unmounted: here the folder moved away) leaves the files not reached yet "gone
     * since listed": the listing is not whole, so a sync deletes nothing it did not find.
     */
    @Test
    void a_folder_that_goes_away_during_the_walk_leaves_the_listing_incomplete() throws Exception {
        Path share = Files.createDirectories(root.resolve("share"));
        for (int i = 0; i < 6; i++) {
            Files.writeString(share.resolve("f" + i + ".md"), "note " + i);
        }
        SourceConnector.Host host = io.polyrag.testing.BareHost.INSTANCE;
        FolderConnector folders = new FolderConnector();
        Map<String, Object> config = Map.of("root", share.toString(), "follow_symlinks", false);
        try (SourceConnector.Listing whole = folders.list(config, host)) {
            whole.forEachRemaining(f -> { });
            assertThat(whole.complete()).isTrue();
        }
        int seen = 0;
        try (SourceConnector.Listing listing = folders.list(config, host)) {
            listing.next();
            seen++;
            Files.move(share, root.resolve("elsewhere"));
            while (listing.hasNext()) {
                listing.next();
                seen++;
            }
            assertThat(listing.complete()).as("after " + seen + " items").isFalse();
            assertThat(listing.warnings()).singleElement().satisfies(w -> assertThat(w).contains("went away"));
        }
    }

    /** Folders are listed as the walk reaches them: the first file does not list (and hold) the whole tree. */
    @Test
    void folders_are_listed_as_the_walk_reaches_them() throws IOException {
        for (String d : List.of("a", "b", "c")) {
            Files.createDirectories(root.resolve(d));
            for (int i = 0; i < 3; i++) {
                Files.writeString(root.resolve(d + "/f" + i + ".md"), d + i);
            }
        }
        java.util.concurrent.atomic.AtomicInteger listed = new java.util.concurrent.atomic.AtomicInteger();
        FolderConnector.Lister counting = dir -> {
            listed.incrementAndGet();
            return Files.list(dir);
        };
        try (Stream<Map.Entry<String, Path>> walk = FolderConnector.walk(root, Map.of(), Confinement.NONE,
                e -> { }, new AtomicBoolean(), counting)) {
            var files = walk.iterator();
            assertThat(files.next().getKey()).isEqualTo("a/f0.md");
            assertThat(listed.get()).as("the root and a/ only").isEqualTo(2);
            int n = 1;
            while (files.hasNext()) {
                files.next();
                n++;
            }
            assertThat(n).isEqualTo(9);
            assertThat(listed.get()).isEqualTo(4);
        }
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

    /** A folder an exclude glob takes whole is not listed: unreadable (a root-owned lost+found), it costs nothing. */
    @Test
    void a_folder_excluded_whole_is_never_listed() throws IOException {
        Files.createDirectories(root.resolve("lost+found"));
        Files.writeString(root.resolve("a.md"), "a");
        List<Path> asked = new ArrayList<>();
        FolderConnector.Lister lister = dir -> {
            asked.add(root.relativize(dir));
            if (dir.endsWith("lost+found")) {
                throw new AccessDeniedException(dir.toString());
            }
            return Files.list(dir);
        };
        AtomicBoolean partial = new AtomicBoolean();
        List<ItemError> errors = new ArrayList<>();
        try (Stream<Map.Entry<String, Path>> walk = FolderConnector.walk(root, Map.of("exclude",
                List.of("lost+found/**")), Confinement.NONE, errors::add, partial, lister)) {
            assertThat(walk.map(Map.Entry::getKey).toList()).containsExactly("a.md");
        }
        assertThat(partial).isFalse();
        assertThat(errors).isEmpty();
        assertThat(asked).doesNotContain(Path.of("lost+found"));
    }

    /**
     * Links that reach one folder along many paths (twenty levels, each with two links to the next: 2^19 paths to the
     * last) list it once: the walk grew exponentially and did not finish.
     */
    @Test
    void a_folder_reached_by_many_links_is_listed_once() throws IOException {
        int levels = 20;
        for (int i = 1; i <= levels; i++) {
            Files.createDirectories(root.resolve("x" + i));
        }
        for (int i = 1; i < levels; i++) {
            Files.createSymbolicLink(root.resolve("x" + i + "/a"), Path.of("../x" + (i + 1)));
            Files.createSymbolicLink(root.resolve("x" + i + "/b"), Path.of("../x" + (i + 1)));
        }
        Files.writeString(root.resolve("x" + levels + "/end.md"), "end");
        List<ItemError> errors = new ArrayList<>();
        long start = System.nanoTime();
        try (Stream<Map.Entry<String, Path>> walk = FolderConnector.walk(root, Map.of("follow_symlinks", true),
                Confinement.NONE, errors::add, new AtomicBoolean())) {
            assertThat(walk.map(Map.Entry::getKey).filter(k -> k.endsWith("end.md")).count()).isEqualTo(1);
        }
        assertThat(System.nanoTime() - start).isLessThan(10_000_000_000L);
        assertThat(errors).anySatisfy(e -> assertThat(e.reason()).contains("already listed"));
    }
}
