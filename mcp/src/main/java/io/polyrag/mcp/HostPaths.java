package io.polyrag.mcp;

import io.polyrag.core.fs.Confinement;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;

/** The paths a tool call names on the adapter's host, read as the user meant them. */
final class HostPaths {
    private HostPaths() {
    }

    /**
     * The call's 'paths': one string naming an existing file or folder is that path, commas or brackets in its name
     * included ("Smith, J. - Paper.pdf", "[2024] report.pdf" were split, or read as JSON); the file system is asked
     * that only inside the allowed folders, so the answer is no probe of the host. Otherwise a list, as
     * {@link Args#list} reads one.
     */
    static List<String> given(Args a, Tools.HostFiles files, int max) throws Args.Bad {
        Object raw = a.raw("paths");
        return raw instanceof String one && files.refusal() == null && (one.contains(",") || one.strip()
                .startsWith("[")) && exists(one, files.confinement()) ? List.of(one.strip()) : a.list("paths", max);
    }

    /** Whether {@code p} names an existing path inside the roots (outside them, the file system is not asked). */
    private static boolean exists(String p, Confinement confinement) {
        try {
            Path path = path(p.strip());
            Path real = real(path);
            return (!confinement.confined() || confinement.roots().stream().anyMatch(real::startsWith))
                    && Files.exists(path);
        } catch (Args.Bad e) {
            return false;
        }
    }

    /** A path as given ({@code ~/} the user's home), absolute; one the file system cannot hold is a bad 'paths'. */
    static Path path(String p) throws Args.Bad {
        try {
            return Path.of(p.startsWith("~/") ? System.getProperty("user.home") + p.substring(1) : p)
                    .toAbsolutePath().normalize();
        } catch (InvalidPathException e) {
            throw new Args.Bad("paths", "not a valid path (" + e.getReason() + "): " + p.replace("\u0000",
                    "\\u0000"));
        }
    }

    /** {@code path} with its nearest existing folder resolved to its real path; as given when none resolves. */
    static Path real(Path path) {
        Path existing = path;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            return path;
        }
        try {
            return existing.toRealPath().resolve(existing.relativize(path));
        } catch (IOException e) {
            return path;
        }
    }
}
