package io.polyrag.store.blobs;

import io.polyrag.core.StoreException;
import io.polyrag.core.config.Settings;
import io.polyrag.core.port.BlobStore;
import io.polyrag.core.spi.BlobStoreProvider;
import io.polyrag.core.spi.ProviderContext;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Originals as files: {@code <dir>/<key>/content} and {@code <key>/meta.properties} (media type, name). A put writes
 * a temporary file, forces it to disk and renames it over the old one, so a reader never sees half a blob and a
 * crash leaves the old one whole. Keys are document ids (letters, digits, '-', '_'); anything else is refused, so no
 * key can name a path outside the store.
 */
public final class FileBlobStore implements BlobStore {
    private static final Pattern KEY = Pattern.compile("[A-Za-z0-9_-]{1,128}");
    private final Path dir;
    private final boolean syncDirectories;

    public FileBlobStore(Path dir) {
        this(dir, false);
    }

    /**
     * @param syncDirectories {@code POLYRAG_DURABILITY=fsync}: a put or delete also forces the directories whose
     *     entries it changed, so the renamed file (and its folder) are found after a power cut, not only its bytes
     */
    public FileBlobStore(Path dir, boolean syncDirectories) {
        this.dir = dir;
        this.syncDirectories = syncDirectories;
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new StoreException("cannot create the blob directory " + dir + ": " + e.getMessage(), e);
        }
        clearDeleted();
    }

    /**
     * Picked by {@code POLYRAG_BLOB_BACKEND=filesystem}: {@code POLYRAG_BLOB_DIR}, by default a folder under the
     * data directory; replicas share one by naming a directory they all mount.
     */
    public static final class Provider implements BlobStoreProvider {
        @Override
        public String name() {
            return "filesystem";
        }

        @Override
        public String description() {
            return "files under <data>/blobs, or POLYRAG_BLOB_DIR";
        }

        @Override
        public BlobStore open(ProviderContext context) {
            String shared = context.config().get(Settings.BLOB_DIR);
            return new FileBlobStore(shared.isBlank() ? context.dataDir().resolve("blobs")
                    // Stripped, as the folder sources' fence reads it: a trailing space in a settings file put the
                    // originals in a folder the fence did not name.
                    : Path.of(shared.strip()).toAbsolutePath().normalize(),
                    "fsync".equals(context.config().get(Settings.DURABILITY)));
        }
    }

    @Override
    public void put(String key, byte[] bytes, String mediaType, String name) {
        Path target = folder(key).orElseThrow(() -> new IllegalArgumentException("invalid blob key '" + key + "'"));
        try {
            Files.createDirectories(target);
            Properties meta = new Properties();
            meta.setProperty("mediaType", mediaType == null ? "application/octet-stream" : mediaType);
            meta.setProperty("name", name == null ? key : name);
            meta.setProperty("size", Long.toString(bytes.length));
            StringWriter w = new StringWriter();
            meta.store(w, null);
            // The description first: a reader goes by the content, which is never there without one.
            write(target.resolve("meta.properties"), w.toString().getBytes(StandardCharsets.UTF_8));
            write(target.resolve("content"), bytes);
            if (syncDirectories) {
                force(target);
                // Whoever made the folder: one left by a failed put, or made at once by another replica's put of
                // the same key, was never forced into its parent, and a power cut could lose an acknowledged blob.
                force(dir);
            }
        } catch (IOException e) {
            throw new StoreException("cannot store the original of " + key + " in " + dir + ": " + e.getMessage(), e);
        }
    }

    private static void write(Path file, byte[] bytes) throws IOException {
        // A name of its own per write: replicas sharing the directory may put one key at once.
        Path tmp = file.resolveSibling(file.getFileName() + "." + UUID.randomUUID() + ".tmp");
        boolean moved = false;
        try {
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                // One write(2) may write less than asked (a disk filling mid-file): go on until all of it is written.
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                while (buffer.hasRemaining()) {
                    ch.write(buffer);
                }
                ch.force(true);
            }
            try {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
            moved = true;
        } finally {
            if (!moved) {
                // A failed write (a full disk) left its part: nothing lists a folder without content, so nothing
                // else would ever delete it, and it held what space had been free.
                Files.deleteIfExists(tmp);
            }
        }
    }

    /** Forces a directory's entries to the disk (Linux and macOS; Windows cannot open a directory, nor needs to). */
    private static void force(Path directory) throws IOException {
        try (FileChannel ch = FileChannel.open(directory, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (AccessDeniedException e) {
            if (!System.getProperty("os.name", "").startsWith("Windows")) {
                throw e;
            }
        }
    }

    @Override
    public Optional<Blob> get(String key) {
        Optional<Path> folder = folder(key);
        if (folder.isEmpty() || !Files.isRegularFile(folder.get().resolve("content"))) {
            return Optional.empty();
        }
        // The content opened first and its size read from the open file: a delete or a new put (a rename) between
        // a size read by name and the open gave a 500, or a length that did not match the bytes sent.
        FileChannel ch;
        try {
            ch = FileChannel.open(folder.get().resolve("content"), StandardOpenOption.READ);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the original of " + key, e);
        }
        try {
            Properties meta = new Properties();
            Path described = folder.get().resolve("meta.properties");
            // Content without its description (written by a release that wrote the content first, and stopped
            // between the two): the bytes, described generically, not a failure at every read.
            try (var r = Files.newBufferedReader(described, StandardCharsets.UTF_8)) {
                meta.load(r);
            } catch (NoSuchFileException e) {
                // described generically
            }
            return Optional.of(new Blob(Channels.newInputStream(ch), ch.size(),
                    meta.getProperty("mediaType", "application/octet-stream"), meta.getProperty("name", key)));
        } catch (IOException e) {
            try {
                ch.close();
            } catch (IOException ignored) {
                // the first error is the one to report
            }
            throw new UncheckedIOException("cannot read the original of " + key, e);
        }
    }

    @Override
    public boolean delete(String key) {
        Optional<Path> folder = folder(key);
        if (folder.isEmpty() || !Files.isDirectory(folder.get())) {
            return false;
        }
        // Renamed away first, atomically: of two deletes of one key (two ingests claiming one staged id, on one
        // server or on replicas sharing the folder) exactly one is told it deleted it; both were, and the loser
        // of a listing race failed with a 500. A rename cut short by a kill leaves a dot-folder the next open clears.
        Path doomed = dir.resolve("." + key + "." + System.currentTimeMillis() + "-" + UUID.randomUUID() + DOOMED);
        try {
            try {
                Files.move(folder.get(), doomed, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(folder.get(), doomed); // a rename in one folder all the same
            }
        } catch (NoSuchFileException e) {
            return false;
        } catch (IOException e) {
            throw new StoreException("cannot delete the original of " + key + ": " + e.getMessage(), e);
        }
        try {
            removeFolder(doomed);
            if (syncDirectories) {
                force(dir);
            }
            return true;
        } catch (IOException e) {
            throw new StoreException("cannot delete the original of " + key + ": " + e.getMessage(), e);
        }
    }

    private static final String DOOMED = ".deleted";
    private static final Pattern DOOMED_AT = Pattern.compile("\\.(\\d{13})-[0-9a-f-]{36}\\.deleted$");

    private static void removeFolder(Path folder) throws IOException {
        try (var files = Files.list(folder)) {
            for (Path f : files.toList()) {
                Files.deleteIfExists(f);
            }
        } catch (NoSuchFileException e) {
            return; // removed meanwhile (another replica's start clearing what a kill left): deleted all the same
        }
        Files.deleteIfExists(folder);
    }

    /**
     * Folders a delete renamed away and was killed before removing: those older than a minute, so a replica starting
     * on a shared folder does not remove one another replica is removing now.
     */
    private void clearDeleted() {
        long before = System.currentTimeMillis() - 60_000;
        try (var entries = Files.newDirectoryStream(dir, e -> e.getFileName().toString().startsWith(".")
                && e.getFileName().toString().endsWith(DOOMED))) {
            for (Path f : entries) {
                // When it was renamed away is in its name (a rename keeps the folder's own time: the blob's write).
                Matcher at = DOOMED_AT.matcher(f.getFileName().toString());
                if (!at.find() || Long.parseLong(at.group(1)) < before) {
                    removeFolder(f);
                }
            }
        } catch (IOException e) {
            System.getLogger(FileBlobStore.class.getName()).log(System.Logger.Level.DEBUG,
                    "deleted blobs left in " + dir + ": " + e.getMessage());
        }
    }

    @Override
    public List<Listed> list(String prefix) {
        List<Listed> out = new ArrayList<>();
        try (var entries = Files.newDirectoryStream(dir, e -> e.getFileName().toString().startsWith(prefix))) {
            for (Path f : entries) {
                Path content = f.resolve("content");
                if (!KEY.matcher(f.getFileName().toString()).matches() || !Files.isDirectory(f)) {
                    continue;
                }
                // A folder a put never finished (a kill between its description and its content, or mid-write of
                // the content) is listed too, dated by its newest file: it was never listed, so no sweep ever
                // deleted it, and it held up to a whole upload's space for good.
                try {
                    boolean whole = Files.isRegularFile(content);
                    out.add(new Listed(f.getFileName().toString(), whole ? Files.getLastModifiedTime(content)
                            .toInstant() : newest(f), whole ? Files.size(content) : 0));
                } catch (NoSuchFileException gone) {
                    // Deleted while it was listed (a staged upload taken): not listed, where it failed the listing.
                }
            }
        } catch (IOException e) {
            throw new StoreException("cannot list the blobs in " + dir + ": " + e.getMessage(), e);
        }
        return out;
    }

    private static Instant newest(Path folder) throws IOException {
        Instant newest = Files.getLastModifiedTime(folder).toInstant();
        try (var files = Files.list(folder)) {
            for (Path f : files.toList()) {
                Instant t = Files.getLastModifiedTime(f).toInstant();
                newest = t.isAfter(newest) ? t : newest;
            }
        }
        return newest;
    }

    private Optional<Path> folder(String key) {
        return key != null && KEY.matcher(key).matches() ? Optional.of(dir.resolve(key)) : Optional.empty();
    }

    @Override
    public void close() {
    }
}
