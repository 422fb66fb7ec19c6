package io.polyrag.store.lucene;

import io.polyrag.core.UnavailableException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.Lock;
import org.apache.lucene.store.LockObtainFailedException;

/**
 * An index folder holding Lucene's files without a commit point: its files are moved aside (for {@code check
 * --repair}) before an empty index is started, rather than left for Lucene's writer to delete.
 */
final class DamagedIndex {
    private static final System.Logger LOG = System.getLogger(LuceneIndex.class.getName());

    private DamagedIndex() {
    }

    static void setAsideIfDamaged(Directory directory, Path path, String name) throws IOException {
        // Lucene's own files only: segment files (_0.cfs, _1.fdt, ...) and commit points; not polyrag's metadata.
        List<String> files = Arrays.stream(directory.listAll())
                .filter(f -> f.startsWith("_") || f.startsWith("segments") || f.startsWith("pending_segments"))
                .toList();
        if (DirectoryReader.indexExists(directory)) {
            markCommitted(path); // an index committed before the marker was written has one from now on
            return;
        }
        if (files.isEmpty()) {
            return;
        }
        // Judged under the index's write lock: files without a commit point are also what another process's first
        // commit looks like while it is written, and moving them aside lost that process's batch.
        try (Lock held = directory.obtainLock(IndexWriter.WRITE_LOCK_NAME)) {
            if (!DirectoryReader.indexExists(directory)) {
                setAside(files, path, name);
            }
        } catch (LockObtainFailedException e) {
            throw new UnavailableException("the index at " + path + " is already in use by another process: "
                    + "stop it, or give this one its own data directory", e);
        }
    }

    /**
     * Written once the index's first commit is durable: files without a commit point in a folder without it are a
     * first commit cut short, not damage. Lucene writes a flush's segment files (_0.*, the vector graph) before
     * pending_segments_1, so a kill -9 during the first ingest left segment files alone, taken as damage.
     */
    static final String COMMITTED = "polyrag-committed";

    /** Records that the index at {@code path} has been committed (once; a lost marker is written again at open). */
    static void markCommitted(Path path) throws IOException {
        Path marker = path.resolve(COMMITTED);
        if (!Files.exists(marker)) {
            Files.writeString(marker, "this index has been committed at least once\n");
        }
    }

    private static void setAside(List<String> files, Path path, String name) throws IOException {
        // Only a first segment's files: with no marker (never committed) or its commit point pending. Any more, or a
        // marker, is an index that had been committed (one written before the marker existed has none): set aside.
        boolean firstOnly = files.stream().allMatch(f -> f.startsWith("_0") || f.equals("pending_segments_1"));
        if (firstOnly && (!Files.exists(path.resolve(COMMITTED)) || files.contains("pending_segments_1"))) {
            // The first commit cut short (a stop while it was written): nothing had ever been committed, so nothing
            // is lost, and the batch it held was never published. Reported as damage, it sent the operator to a
            // repair with nothing to repair.
            for (String f : files) {
                Files.deleteIfExists(path.resolve(f));
            }
            LOG.log(System.Logger.Level.INFO, "the " + name + " at " + path + " held the parts of a first commit "
                    + "that never completed (nothing had been committed): started empty");
            return;
        }
        String when = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'", Locale.ROOT)
                .format(ZonedDateTime.now(ZoneOffset.UTC));
        Path aside = path.resolveSibling(path.getFileName() + ".damaged-" + when);
        Files.createDirectories(aside);
        for (String f : files) {
            Files.move(path.resolve(f), aside.resolve(f));
        }
        LOG.log(System.Logger.Level.WARNING, "the " + name + " at " + path + " had " + files.size() + " files but "
                + "no commit point (segments_N); they were moved to " + aside + " and an empty index was started: "
                + "run 'polyrag check --repair' to rebuild it from the catalog");
    }
}
