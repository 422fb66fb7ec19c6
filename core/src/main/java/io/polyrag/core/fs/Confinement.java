package io.polyrag.core.fs;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Which files on this machine a reader acting for someone else (a tenant's sync source, a networked MCP client) may
 * open: those whose real path lies inside one of the allowed roots and outside every forbidden folder (the data
 * directory: other tenants' originals, the catalog, the indexes).
 *
 * <p>The check is made where the file is opened, not where it was listed, and the open cannot be redirected after
 * the check: the real path (every link resolved) is checked, then opened from the allowed root one component at a
 * time, each relative to the directory opened before it and none followed if it is a link ({@code openat} with
 * {@code O_NOFOLLOW}, through {@link SecureDirectoryStream}). Swapping a folder or the file for a link between the
 * check and the open makes the open fail; it never reaches the link's target. Where the platform has no secure
 * directory streams the real path is opened without following a final link and checked again after the open.
 *
 * <p>Hard links are not links: a hard link inside an allowed root to a file elsewhere on the same file system is
 * that file. Only someone who can already write into the root and read the target can make one.
 *
 * <p>Immutable and safe for concurrent use.
 */
public final class Confinement {
    /** No confinement: the caller's own files (a command the user typed). */
    public static final Confinement NONE = new Confinement(null, List.of(), List.of());

    private final List<Path> roots;
    private final List<Path> forbidden;
    /** The roots as written (absolute): a root named through a link is below it as written, not as real. */
    private final List<Path> written;

    private Confinement(List<Path> roots, List<Path> forbidden, List<Path> written) {
        this.roots = roots;
        this.forbidden = forbidden;
        this.written = written;
    }

    /**
     * Files inside {@code roots} and outside {@code forbidden}, each taken at its real path (a root that does not
     * exist allows nothing).
     */
    public static Confinement of(List<Path> roots, List<Path> forbidden) {
        List<Path> r = new ArrayList<>();
        for (Path p : roots) {
            real(p).ifPresent(r::add);
        }
        List<Path> f = new ArrayList<>();
        for (Path p : forbidden) {
            f.add(real(p).orElse(p.toAbsolutePath().normalize()));
        }
        List<Path> w = new ArrayList<>();
        for (Path p : roots) {
            if (real(p).isPresent()) {
                w.add(p.toAbsolutePath().normalize());
            }
        }
        return new Confinement(List.copyOf(r), List.copyOf(f), List.copyOf(w));
    }

    /** Whether this confinement limits anything. */
    public boolean confined() {
        return roots != null;
    }

    /** The allowed roots, real paths (empty for {@link #NONE}). */
    public List<Path> roots() {
        return roots == null ? List.of() : roots;
    }

    /**
     * Why {@code file} may not be read, or empty when it may: its real path (links resolved) must exist and lie
     * inside an allowed root and outside every forbidden folder. Says nothing of what a link points to beyond
     * "outside", so a refusal does not tell a client what exists elsewhere.
     */
    public Optional<String> refusal(Path file) {
        if (roots == null) {
            return Optional.empty();
        }
        // Outside every root as written: refused before the file system is asked, whether it exists or not.
        Path abs = file.toAbsolutePath().normalize();
        Path under = below(abs);
        if (under == null) {
            // Written outside: allowed only when it resolves inside (a link to a root); any failure, one answer.
            try {
                return refusalOfReal(file, file.toRealPath()).isEmpty() ? Optional.empty()
                        : Optional.of(file + OUTSIDE);
            } catch (IOException e) {
                return Optional.of(file + OUTSIDE);
            }
        }
        Path real;
        try {
            real = file.toRealPath();
        } catch (IOException e) {
            // Through a link below the root, "no such file" against "outside" told a tenant whether any path on the
            // machine exists (another tenant's originals by their document ids): one answer for both.
            return Optional.of(file + (linked(under, abs) ? OUTSIDE : ": cannot be resolved (" + reason(e) + ")"));
        }
        Optional<String> refused = refusalOfReal(file, real);
        return refused.isPresent() && linked(under, abs) ? Optional.of(file + OUTSIDE) : refused;
    }

    /** One answer for every way out: which of them it was would say what exists there. */
    private static final String OUTSIDE = ": resolves outside the folders this reader may open, into polyrag's data "
            + "directory, or to nothing readable; skipped";

    /** The root {@code abs} lies below, as written or as real; null for none. */
    private Path below(Path abs) {
        for (List<Path> each : List.of(written, roots)) {
            for (Path root : each) {
                if (abs.startsWith(root)) {
                    return root;
                }
            }
        }
        return null;
    }

    /** Whether a name along {@code abs} below {@code root} is a link. */
    private static boolean linked(Path root, Path abs) {
        Path at = root;
        for (Path name : root.relativize(abs)) {
            at = at.resolve(name);
            if (Files.isSymbolicLink(at)) {
                return true;
            }
        }
        return false;
    }

    private Optional<String> refusalOfReal(Path file, Path real) {
        if (roots.stream().noneMatch(real::startsWith)) {
            return Optional.of(file + OUTSIDE);
        }
        if (forbidden.stream().anyMatch(real::startsWith)) {
            return Optional.of(file + ": resolves into polyrag's data directory, which no source may read; skipped");
        }
        return Optional.empty();
    }

    /** A refusal to read a file, with the reason users see. */
    public static final class Refused extends IOException {
        public Refused(String reason) {
            super(reason);
        }
    }

    /**
     * Opens a regular file for reading, confined as the class describes.
     *
     * @throws Refused when the file lies outside what this confinement allows, or is not a regular file
     * @throws IOException when it cannot be read
     */
    public InputStream open(Path file) throws IOException {
        if (roots == null) {
            return Files.newInputStream(file);
        }
        Path real;
        try {
            real = file.toRealPath();
        } catch (IOException e) {
            Optional<String> why = refusal(file);
            if (why.isPresent() && why.get().endsWith(OUTSIDE)) {
                throw new Refused(why.get()); // as the refusal says it: no probe of the machine through a link
            }
            throw e;
        }
        Optional<String> refused = refusalOfReal(file, real);
        if (refused.isPresent()) {
            Path abs = file.toAbsolutePath().normalize();
            Path under = below(abs);
            throw new Refused(under == null || linked(under, abs) ? file + OUTSIDE : refused.get());
        }
        Path root = roots.stream().filter(real::startsWith).findFirst().orElseThrow();
        Path rel = root.relativize(real);
        if (rel.getNameCount() == 0 || rel.toString().isEmpty()) {
            throw new Refused(file + ": not a regular file");
        }
        try (DirectoryStream<Path> top = Files.newDirectoryStream(root)) {
            if (top instanceof SecureDirectoryStream<Path> secure) {
                return Channels.newInputStream(openBelow(secure, rel, file));
            }
        }
        return Channels.newInputStream(openChecked(file, real));
    }

    /** Reads a whole file through {@link #open}; at most {@code maxBytes} (a larger file fails, saying so). */
    public byte[] read(Path file, long maxBytes) throws IOException {
        try (InputStream in = open(file)) {
            byte[] bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBytes + 1));
            if (bytes.length > maxBytes) {
                throw new IOException(file + ": larger than " + maxBytes + " bytes");
            }
            return bytes;
        }
    }

    /** Walks {@code rel} down from an opened root, never following a link, and opens its last name. */
    private static SeekableByteChannel openBelow(SecureDirectoryStream<Path> root, Path rel, Path file)
            throws IOException {
        List<SecureDirectoryStream<Path>> opened = new ArrayList<>();
        try {
            SecureDirectoryStream<Path> dir = root;
            for (int i = 0; i < rel.getNameCount() - 1; i++) {
                dir = dir.newDirectoryStream(rel.getName(i), LinkOption.NOFOLLOW_LINKS);
                opened.add(dir);
            }
            Path name = rel.getFileName();
            BasicFileAttributes a = dir.getFileAttributeView(name, BasicFileAttributeView.class,
                    LinkOption.NOFOLLOW_LINKS).readAttributes();
            if (!a.isRegularFile()) {
                throw new Refused(file + ": not a regular file; skipped");
            }
            return dir.newByteChannel(name, Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS));
        } catch (FileSystemException e) {
            if (e instanceof NoSuchFileException) {
                throw e;
            }
            // ELOOP and ENOTDIR: a component became a link (or something else) after the check.
            throw new Refused(file + ": changed while it was being opened (" + reason(e) + "); skipped");
        } finally {
            for (SecureDirectoryStream<Path> d : opened) {
                d.close();
            }
        }
    }

    /** Without secure directory streams: the real path, no final link followed, and the same file after the open. */
    private SeekableByteChannel openChecked(Path file, Path real) throws IOException {
        Object before = Files.readAttributes(real, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
        SeekableByteChannel ch = Files.newByteChannel(real, Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS));
        try {
            Path again = file.toRealPath();
            Object after = Files.readAttributes(again, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
            if (!again.equals(real) || before != null && !before.equals(after)
                    || refusalOfReal(file, again).isPresent()) {
                throw new Refused(file + ": changed while it was being opened; skipped");
            }
            ch.read(ByteBuffer.allocate(0));
            return ch;
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    private static Optional<Path> real(Path p) {
        try {
            return Optional.of(p.toAbsolutePath().normalize().toRealPath());
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static String reason(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "no such file";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    @Override
    public String toString() {
        return roots == null ? "unconfined" : "inside " + roots + ", outside " + forbidden;
    }
}
