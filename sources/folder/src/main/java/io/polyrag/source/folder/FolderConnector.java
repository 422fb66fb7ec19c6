package io.polyrag.source.folder;

import io.polyrag.core.InvalidInputException;
import io.polyrag.core.config.Settings;
import io.polyrag.core.fs.Confinement;
import io.polyrag.core.fs.Globs;
import io.polyrag.core.model.ItemError;
import io.polyrag.core.port.SourceConnector;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * Sources of type {@code filesystem}: a folder on the server. Items are the regular files below the root (hidden ones
 * left out, the include and exclude globs applied), by their path below it; the change token is the modification
 * time and size, so an unchanged file is never read. Links are followed only when the source says so and only to
 * where the tenant's confinement allows; every read goes through that confinement at the moment the file is opened.
 * The server watches the folder and syncs within seconds of a change.
 */
public final class FolderConnector implements SourceConnector {
    public static final String TYPE = "filesystem";
    static final List<String> KEYS = List.of("root", "include", "exclude", "follow_symlinks", "skip_graph");

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public boolean resumable() {
        return true;
    }

    @Override
    public Optional<Path> watched(Map<String, Object> config) {
        return Optional.of(Path.of((String) config.get("root")));
    }

    @Override
    public Map<String, Object> checked(Map<String, Object> given, Host host) {
        Map<String, Object> config = new LinkedHashMap<>(given);
        SourceConnector.onlyKeys(config, "a filesystem setting", KEYS);
        Path root = root(config.get("root"), host);
        config.put("root", root.toString());
        config.put("include", Globs.checked(config.get("include"), "include"));
        config.put("exclude", Globs.checked(config.get("exclude"), "exclude"));
        SourceConnector.flag(config, "follow_symlinks", false);
        SourceConnector.flag(config, "skip_graph", false);
        return config;
    }

    /** The folder's identity on its volume (file key: device and inode; else creation time); null when gone. */
    private static Object rootKey(Path root) {
        try {
            BasicFileAttributes a = Files.readAttributes(root, BasicFileAttributes.class);
            return !a.isDirectory() ? null : a.fileKey() != null ? a.fileKey() : a.creationTime();
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    public Listing list(Map<String, Object> config, Host host) throws Unavailable {
        Path root = Path.of((String) config.get("root"));
        Confinement confinement = host.confinement();
        Optional<String> refused = confinement.refusal(root);
        if (!Files.isDirectory(root) || refused.isPresent()) {
            throw new Unavailable(refused.isPresent() && Files.isDirectory(root) ? "the folder " + root + " is no "
                    + "longer inside the folders this tenant's sources may read (" + confinement.roots() + "): "
                    + "nothing was changed in the index" : "the folder " + root + " is gone or unreadable: nothing was "
                    + "changed in the index");
        }
        ArrayDeque<Found> ready = new ArrayDeque<>();
        AtomicBoolean partial = new AtomicBoolean();
        Object rootKey = rootKey(root);
        Stream<Map.Entry<String, Path>> walk;
        try {
            walk = walk(root, config, confinement, e -> ready.add(new Failed(null, e)), partial);
        } catch (IOException e) {
            throw new Unavailable("cannot list " + root + ": " + e.getMessage() + "; nothing was changed in the index");
        }
        Iterator<Map.Entry<String, Path>> files = walk.iterator();
        return new Listing() {
            @Override
            public boolean hasNext() {
                while (ready.isEmpty() && files.hasNext()) {
                    Map.Entry<String, Path> e = files.next();
                    ready.add(listed(e.getKey(), e.getValue()));
                }
                return !ready.isEmpty();
            }

            @Override
            public Found next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                return ready.poll();
            }

            // A folder or file that could not be read (no permission, a stale mount, too many open files) hides
            // what is below it, not that it is gone: the sync then deletes nothing it did not find.
            // A volume unmounted (or remounted) during the walk: the files not reached yet were "gone since
            // listed", each as deleted, and the listing whole; a share dropped at 60% deleted 40% of the documents.
            @Override
            public boolean complete() {
                return !partial.get() && sameRoot();
            }

            private boolean sameRoot() {
                Object now = rootKey(root);
                return now != null && now.equals(rootKey);
            }

            @Override
            public List<String> warnings() {
                return partial.get() ? List.of("part of the folder could not be read (see the errors): nothing was "
                        + "removed from the index this time") : sameRoot() ? List.of() : List.of("the folder " + root
                        + " went away or was mounted again during the scan: nothing was removed from the index this "
                        + "time");
            }

            @Override
            public void close() {
                walk.close();
            }
        };
    }

    private static Found listed(String item, Path file) {
        try {
            BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
            return new Listed(item, a.lastModifiedTime().toMillis(), a.size(), "", null);
        } catch (IOException x) {
            return new Failed(item, new ItemError(item, item + ": cannot be read (" + x.getMessage() + ")"));
        }
    }

    @Override
    public Content read(Map<String, Object> config, Listed item, Host host) throws IOException {
        Path file;
        try {
            file = Path.of((String) config.get("root")).resolve(item.item());
        } catch (InvalidPathException e) {
            // A name the server's file-name encoding cannot write (LANG unset, a Latin-1 name on a UTF-8 server):
            // this item fails, named; thrown on, it failed the whole sync at that file, at every interval.
            throw new IOException(item.item() + ": its name is not valid in the server's file-name encoding (run "
                    + "the server with LANG=C.UTF-8, or rename the file)", e);
        }
        try {
            return Content.file(file, sha256(host.confinement(), file));
        } catch (Confinement.Refused e) {
            throw e;
        } catch (IOException e) {
            throw new IOException(item.item() + ": cannot be read (" + e.getMessage() + ")", e);
        }
    }

    private static Path root(Object value, Host host) {
        if (!(value instanceof String s) || s.isBlank()) {
            throw new InvalidInputException("'config.root' is required: the absolute path of a folder on the server");
        }
        Path root;
        try {
            root = Path.of(s.strip());
        } catch (InvalidPathException e) {
            throw new InvalidInputException("'config.root' is not a path: " + e.getMessage());
        }
        if (!root.isAbsolute()) {
            throw new InvalidInputException("'config.root' must be an absolute path, was '" + s + "'");
        }
        root = root.normalize();
        Confinement confinement = host.confinement();
        boolean operator = host.tenant().isEmpty();
        if (confinement.roots().isEmpty()) {
            throw new InvalidInputException("'config.root': no folder on this server is open to " + (operator
                    ? "sources: add one to " + Settings.SYNC_ALLOWED_ROOTS.env() + ", or give it on the command line "
                    + "(polyrag serve --watch DIR)" : "this tenant's sources: the operator names them in "
                    + Settings.SYNC_TENANT_ROOTS.env() + " (e.g. " + host.tenant() + "=/srv/" + host.tenant() + ")"));
        }
        Optional<String> refused = confinement.refusal(root);
        Path lexical = root;
        if (refused.isPresent() && confinement.roots().stream().anyMatch(lexical::startsWith)) {
            // Inside the tenant's own folders: the reason may be told (missing, a link leading out, the data dir).
            throw new InvalidInputException("'config.root' " + refused.get().replace("; skipped", "")
                    + ": give a folder inside " + confinement.roots());
        }
        if (refused.isPresent()) {
            throw new InvalidInputException("'config.root' " + root + " is not inside a folder this server lets "
                    + (operator ? "sources" : "this tenant's sources") + " read (" + confinement.roots()
                    + "), or lies in polyrag's data directory: " + (operator ? "add it to "
                    + Settings.SYNC_ALLOWED_ROOTS.env() + ", or give it on the command line (polyrag serve --watch "
                    + "DIR)" : "the operator names each tenant's folders in " + Settings.SYNC_TENANT_ROOTS.env()));
        }
        if (!Files.isDirectory(root)) {
            throw new InvalidInputException("'config.root' " + root + " is not a folder this server can read");
        }
        return root;
    }

    /**
     * The files of a folder source as a lazy stream (close it), by item id (the path below the root, with {@code /}):
     * regular files only (no FIFOs or devices), hidden ones left out, the include and exclude globs applied, links
     * followed only when the source says so and only to where {@code confinement} allows, and never into polyrag's
     * data directory. Links that lead outside the allowed folders, and link cycles, are told to {@code skipped}.
     */
    static Stream<Map.Entry<String, Path>> walk(Path root, Map<String, Object> config, Confinement confinement,
            Consumer<ItemError> skipped, AtomicBoolean partial) throws IOException {
        return walk(root, config, confinement, skipped, partial, Files::list);
    }

    /** How a folder's entries are read: {@link Files#list}, or a test's stand-in that fails where it is told to. */
    interface Lister {
        Stream<Path> list(Path dir) throws IOException;
    }

    /** {@link #walk(Path, Map, Confinement, Consumer, AtomicBoolean)} reading folders with {@code lister}. */
    static Stream<Map.Entry<String, Path>> walk(Path root, Map<String, Object> config, Confinement confinement,
            Consumer<ItemError> skipped, AtomicBoolean partial, Lister lister) throws IOException {
        boolean follow = Boolean.TRUE.equals(config.get("follow_symlinks"));
        Globs globs = Globs.of(config.get("include"), config.get("exclude"));
        if (!Files.isDirectory(root)) {
            throw new NotDirectoryException(root.toString());
        }
        Walker walker = new Walker(root, follow, confinement, skipped, partial, lister, globs, new HashSet<>());
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(walker.below(root, Set.of(root.toRealPath()),
                0), Spliterator.ORDERED | Spliterator.NONNULL), false)
                .map(f -> Map.entry(root.relativize(f), f))
                .filter(e -> globs.selects(e.getKey()))
                .map(e -> Map.entry(e.getKey().toString().replace('\\', '/'), e.getValue()));
    }

    /**
     * A lazy walk that decides at every link: not followed unless the source says so; followed only when it resolves
     * inside the allowed folders (and outside the data directory), never round a cycle, at most 64 folders deep.
     */
    private record Walker(Path root, boolean follow, Confinement confinement, Consumer<ItemError> skipped,
            AtomicBoolean partial, Lister lister, Globs globs, Set<Path> listed) {
        private static final int MAX_DEPTH = 64;

        /**
         * The files below {@code dir}, one at a time: a folder is listed (and its entries sorted) when the walk
         * reaches it. As a stream of sorted, flat-mapped listings read through an iterator, the first file asked for
         * pushed the whole tree into the iterator's buffer (a share of millions of files held in memory before the
         * first was read).
         */
        Iterator<Path> below(Path dir, Set<Path> onPath, int depth) {
            List<Path> entries;
            try (Stream<Path> list = lister.list(dir)) {
                entries = list.sorted().toList();
            } catch (IOException e) {
                unreadable(dir, "cannot be listed", e);
                return Collections.emptyIterator();
            } catch (UncheckedIOException e) {
                unreadable(dir, "cannot be listed", e.getCause());
                return Collections.emptyIterator();
            }
            Iterator<Path> next = entries.iterator();
            return new Iterator<>() {
                private Iterator<Path> current = Collections.emptyIterator();

                @Override
                public boolean hasNext() {
                    while (!current.hasNext()) {
                        if (!next.hasNext()) {
                            return false;
                        }
                        current = entry(next.next(), onPath, depth);
                    }
                    return true;
                }

                @Override
                public Path next() {
                    if (!hasNext()) {
                        throw new NoSuchElementException();
                    }
                    return current.next();
                }
            };
        }

        private Iterator<Path> entry(Path p, Set<Path> onPath, int depth) {
            if (p.getFileName().toString().startsWith(".")) {
                return Collections.emptyIterator();
            }
            BasicFileAttributes a;
            try {
                a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            } catch (NoSuchFileException e) {
                return Collections.emptyIterator(); // gone since it was listed
            } catch (IOException e) {
                unreadable(p, "cannot be read", e);
                return Collections.emptyIterator();
            }
            if (a.isRegularFile()) {
                return List.of(p).iterator();
            }
            if (a.isDirectory()) {
                return descend(p, onPath, depth);
            }
            if (!a.isSymbolicLink() || !follow) {
                return Collections.emptyIterator();
            }
            Optional<String> refused = confinement.refusal(p);
            if (refused.isPresent()) {
                skipped.accept(new ItemError(rel(p), refused.get().replace(p.toString(), rel(p))));
                return Collections.emptyIterator();
            }
            if (Files.isRegularFile(p)) {
                return List.of(p).iterator();
            }
            return Files.isDirectory(p) ? descend(p, onPath, depth) : Collections.emptyIterator();
        }

        private Iterator<Path> descend(Path dir, Set<Path> onPath, int depth) {
            Path real;
            try {
                real = dir.toRealPath();
            } catch (NoSuchFileException e) {
                return Collections.emptyIterator(); // gone since it was listed
            } catch (IOException e) {
                unreadable(dir, "cannot be resolved", e);
                return Collections.emptyIterator();
            }
            if (confinement.refusal(dir).isPresent()) {
                return Collections.emptyIterator(); // the data directory inside a watched folder: never listed
            }
            if (globs.excludesAllBelow(root.relativize(dir))) {
                return Collections.emptyIterator(); // every file below it is excluded: not even listed
            }
            if (onPath.contains(real) || depth >= MAX_DEPTH) {
                skipped.accept(new ItemError(rel(dir), rel(dir) + ": " + (depth >= MAX_DEPTH ? "more than "
                        + MAX_DEPTH + " folders deep" : "a link back to a folder above it (a cycle)") + "; skipped"));
                return Collections.emptyIterator();
            }
            if (!listed.add(real)) {
                // Reached again through another link (links to one folder from many places, or a chain of them
                // doubling at each level): listed once, under the first path; the walk grew exponentially.
                skipped.accept(new ItemError(rel(dir), rel(dir) + ": a link to a folder already listed as another "
                        + "path; skipped"));
                return Collections.emptyIterator();
            }
            Set<Path> path = new HashSet<>(onPath);
            path.add(real);
            return below(dir, path, depth + 1);
        }

        /** Told as skipped, and the listing partial: what is below it may still be there. */
        private void unreadable(Path p, String what, IOException e) {
            partial.set(true);
            skipped.accept(new ItemError(rel(p), rel(p) + ": " + what + " (" + e.getMessage() + "); nothing below it "
                    + "was removed from the index, nor anything else this scan did not find (exclude it, \""
                    + rel(p) + "/**\", if it is not meant to be read)"));
        }

        private String rel(Path p) {
            return root.relativize(p).toString().replace('\\', '/');
        }
    }

    private static String sha256(Confinement confinement, Path file) throws IOException {
        try (InputStream in = confinement.open(file)) {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            byte[] buf = new byte[64 * 1024];
            for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
                d.update(buf, 0, n);
            }
            return HexFormat.of().formatHex(d.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
