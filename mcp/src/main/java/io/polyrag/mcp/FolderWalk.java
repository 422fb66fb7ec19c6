package io.polyrag.mcp;

import io.polyrag.core.fs.Confinement;
import io.polyrag.core.fs.Globs;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

/** The files of a folder named to start_document_ingest, and the data directories never read. */
final class FolderWalk {
    private FolderWalk() {
    }

    /**
     * Where a folder named by a link leads (the walk does not follow links), checked there: a link into a data
     * directory is the data directory.
     */
    static Path realFolder(Path path) throws IOException, Args.Bad {
        Path real = path.toRealPath();
        if (insideDataDirectory(real)) {
            throw new Args.Bad("paths", path + " leads inside a polyrag data directory (stored originals, indexes): "
                    + "never read");
        }
        return real;
    }

    /**
     * A folder's files as the send will check them (a file refused or unreadable there failed the whole upload):
     * hidden folders and any polyrag data directory inside left out without being walked (the adapter's own is not
     * the only one: with --backend-url the server's lies elsewhere), a folder that cannot be read left out instead of
     * failing the call (a lost+found, another user's), and no more than {@code most} files gathered.
     */
    static List<Path> walk(Path root, int most, Confinement confinement) throws IOException {
        List<Path> out = new ArrayList<>();
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                return dir.equals(root) || !Globs.hidden(root.relativize(dir)) && !insideDataDirectory(dir)
                        ? FileVisitResult.CONTINUE : FileVisitResult.SKIP_SUBTREE;
            }

            @Override
            public FileVisitResult visitFile(Path f, BasicFileAttributes attrs) {
                // A link to a file counts as the file (the send opens it, and refuses one leading out); a link to a
                // folder is not walked (a cycle, a tree elsewhere), as before.
                boolean file = attrs.isRegularFile() || attrs.isSymbolicLink() && Files.isRegularFile(f);
                if (file && Files.isReadable(f) && confinement.refusal(f).isEmpty()
                        && !Globs.hidden(root.relativize(f)) && !(attrs.isSymbolicLink() && leadsInsideDataDirectory(f))) {
                    out.add(f);
                }
                return out.size() >= most ? FileVisitResult.TERMINATE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path f, IOException e) throws IOException {
                if (f.equals(root)) {
                    throw e; // the folder asked for: the call says it cannot be read, not that it is empty
                }
                return FileVisitResult.CONTINUE;
            }
        });
        out.sort(null);
        return out;
    }

    /**
     * Whether a path, or where it leads (a file link), is inside a polyrag data directory: a link to another data
     * directory's stored original was sent, only the path itself was checked.
     */
    static boolean leadsInsideDataDirectory(Path p) {
        if (insideDataDirectory(p)) {
            return true;
        }
        try {
            return insideDataDirectory(p.toRealPath());
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Whether {@code p} lies in a polyrag data directory: a folder holding the data directory's lock file beside one
     * of its stores. Its files (other tenants' originals, the indexes) are never sent, wherever it is.
     */
    static boolean insideDataDirectory(Path p) {
        for (Path d = p.toAbsolutePath().normalize(); d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve(".lock")) && (Files.isDirectory(d.resolve("catalog"))
                    || Files.isDirectory(d.resolve("blobs")) || Files.isDirectory(d.resolve("fulltext")))) {
                return true;
            }
        }
        return false;
    }

    /**
     * The name a file is sent under: its real path from the home folder ({@code notes/2024/summary.md}), else from the
     * file system's root ({@code srv/docs/README.md}). The server keeps a relative name's folders, so one file is one
     * document however it was named (a folder, a file in it, a link), and two folders' files of one name are two.
     */
    static String sentName(Path file) {
        Path real = realOrNormal(file);
        Path home = realOrNormal(Path.of(System.getProperty("user.home", "/")));
        if (real.startsWith(home) && !real.equals(home)) {
            return home.relativize(real).toString().replace('\\', '/');
        }
        // Outside it, from the root, a drive or share named first (C:\notes\a.md and D:\notes\a.md were one name).
        String root = real.getRoot() == null ? "" : real.getRoot().toString().replaceAll("[:\\\\/]+", " ").strip()
                .replace(' ', '-');
        Path relative = real.getRoot() == null ? real : real.getRoot().relativize(real);
        return (root.isEmpty() ? "" : root + "/") + relative.toString().replace('\\', '/');
    }

    private static Path realOrNormal(Path p) {
        try {
            return p.toRealPath();
        } catch (IOException e) {
            return p.toAbsolutePath().normalize();
        }
    }
}
