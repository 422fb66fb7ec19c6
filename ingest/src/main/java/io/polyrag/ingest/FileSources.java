package io.polyrag.ingest;

import io.polyrag.core.fs.Confinement;
import io.polyrag.core.fs.Globs;
import io.polyrag.core.model.ItemError;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Lists files to ingest from paths on the local disk. A named file is always taken; a directory is walked (hidden
 * files and folders skipped, links not followed) and a file in it is taken when it matches an include glob (by
 * default: a type the parser accepts) and no exclude glob. A glob without {@code /} matches the file name, one with
 * {@code /} the path relative to the directory walked. Files are read only when ingested.
 */
public final class FileSources {
    /**
     * @param inputs files to ingest, in path order
     * @param skipped files in walked directories left out by the globs or the parser's types
     * @param errors paths that do not exist or could not be listed
     */
    public record Listing(List<IngestInput> inputs, int skipped, List<ItemError> errors) {
    }

    private FileSources() {
    }

    public static Listing list(List<Path> paths, List<String> includes, List<String> excludes,
            Predicate<String> acceptsName) {
        return list(paths, includes, excludes, acceptsName, Confinement.NONE);
    }

    /**
     * Like {@link #list(List, List, List, Predicate)}, each file read only as {@code confinement} allows: a named file
     * outside it is an error, and every read opens the file through it (so a link swapped in after the listing is
     * not followed out of it).
     */
    public static Listing list(List<Path> paths, List<String> includes, List<String> excludes,
            Predicate<String> acceptsName, Confinement confinement) {
        return list(paths, includes, excludes, acceptsName, confinement, List.of());
    }

    /**
     * Like {@link #list(List, List, List, Predicate, Confinement)}, never walking into {@code unwalked} (polyrag's
     * own data and blob folders, when a folder given holds them: {@code ingest .} in a folder whose {@code ./data} is
     * the data directory indexed every blob's {@code meta.properties}, other tenants' file names among them). A file
     * named there on its own is still read.
     */
    public static Listing list(List<Path> paths, List<String> includes, List<String> excludes,
            Predicate<String> acceptsName, Confinement confinement, List<Path> unwalked) {
        // Each folder by its path as written and by its file key (device and inode): a root given through a link
        // spells the folder another way as the walk meets it.
        Set<Object> skip = new HashSet<>();
        for (Path u : unwalked) {
            Path abs = u.toAbsolutePath().normalize();
            skip.add(abs);
            try {
                Object key = Files.readAttributes(abs, BasicFileAttributes.class).fileKey();
                if (key != null) {
                    skip.add(key);
                }
            } catch (IOException e) {
                // not there (yet): its written form is all there is to compare
            }
        }
        List<IngestInput> inputs = new ArrayList<>();
        List<ItemError> errors = new ArrayList<>();
        int[] skipped = {0};
        Globs globs = Globs.of(includes, excludes);
        for (Path p : paths) {
            Path abs = p.toAbsolutePath().normalize();
            if (!Files.exists(abs, LinkOption.NOFOLLOW_LINKS) && !Files.exists(abs)) {
                errors.add(new ItemError(p.toString(), p + ": no such file or directory"));
            } else if (confinement.refusal(abs).isPresent()) {
                errors.add(new ItemError(p.toString(), confinement.refusal(abs).get()));
            } else if (Files.isDirectory(abs)) {
                // A folder given by a link is walked where the link leads: a walk does not follow the link it
                // starts from, and 'polyrag ingest ~/notes' (a link) found nothing at all.
                walk(Files.isSymbolicLink(abs) ? realOr(abs) : abs, abs, globs, acceptsName, new Found(inputs,
                        errors, skipped, skip), confinement);
            } else if (Files.isRegularFile(abs)) {
                inputs.add(input(abs, abs.getFileName().toString(), confinement));
            } else {
                errors.add(new ItemError(p.toString(), p + ": not a regular file or directory"));
            }
        }
        return new Listing(inputs, skipped[0], errors);
    }

    private static Path realOr(Path path) {
        try {
            return path.toRealPath();
        } catch (IOException e) {
            return path;
        }
    }

    /** What a walk adds to, and the folders it never enters. */
    private record Found(List<IngestInput> inputs, List<ItemError> errors, int[] skipped, Set<Object> unwalked) {
    }

    /**
     * Walks {@code root} (a link's target), naming each file under {@code given} (the path as the user gave it): a
     * document's uri stays the one a sync source of the same folder, or an earlier ingest, gives it.
     */
    private static void walk(Path root, Path given, Globs globs, Predicate<String> acceptsName, Found into,
            Confinement confinement) {
        List<IngestInput> inputs = into.inputs();
        List<ItemError> errors = into.errors();
        int[] skipped = into.skipped();
        List<Path> found = new ArrayList<>();
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                    return !dir.equals(root) && dir.getFileName().toString().startsWith(".")
                            || into.unwalked().contains(dir.toAbsolutePath().normalize())
                            || attrs.fileKey() != null && into.unwalked().contains(attrs.fileKey())
                            ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    String name = file.getFileName().toString();
                    if (!attrs.isRegularFile() || name.startsWith(".")) {
                        return FileVisitResult.CONTINUE;
                    }
                    Path rel = root.relativize(file);
                    if ((globs.includes() || acceptsName.test(name)) && globs.selects(rel)) {
                        found.add(file);
                    } else {
                        skipped[0]++;
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    errors.add(new ItemError(file.toString(), file + ": cannot be listed (" + e.getMessage() + ")"));
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            errors.add(new ItemError(root.toString(), root + ": cannot be walked (" + e.getMessage() + ")"));
        }
        found.sort(Comparator.naturalOrder());
        for (Path f : found) {
            Path rel = root.relativize(f);
            inputs.add(input(given.resolve(rel), rel.toString(), confinement));
        }
    }

    private static IngestInput input(Path file, String name, Confinement confinement) {
        long size;
        try {
            size = Files.size(file);
        } catch (IOException e) {
            size = -1;
        }
        return new IngestInput(file.toUri().toString(), name, size, null, new IngestInput.Content() {
            @Override
            public byte[] read() throws IOException {
                return read(Integer.MAX_VALUE - 8);
            }

            @Override
            public byte[] read(long maxBytes) throws IOException {
                try (InputStream in = confinement.confined() ? confinement.open(file) : Files.newInputStream(file)) {
                    return in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBytes));
                }
            }
        });
    }
}
