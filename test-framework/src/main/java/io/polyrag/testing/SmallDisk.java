package io.polyrag.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A real, small file system (tmpfs) mounted for one test, to try what polyrag does when a disk fills up or turns
 * read-only: writes fail with the kernel's own ENOSPC and EROFS, as they would on a real disk. Mounting needs root
 * (CI runs as root); elsewhere the test is skipped, saying why.
 */
public final class SmallDisk implements AutoCloseable {
    private final Path mount;

    private SmallDisk(Path mount) {
        this.mount = mount;
    }

    /** Mounts a tmpfs of {@code megabytes} at a new folder under {@code parent}, or skips the calling test. */
    public static SmallDisk mount(Path parent, int megabytes) throws IOException, InterruptedException {
        Path dir = Files.createDirectories(parent.resolve("small-disk"));
        String why = run("mount", "-t", "tmpfs", "-o", "size=" + megabytes + "m", "tmpfs", dir.toString());
        Assumptions.assumeTrue(why == null, () -> "cannot mount a small tmpfs to fill up (needs root): " + why);
        return new SmallDisk(dir);
    }

    public Path path() {
        return mount;
    }

    /** Writes a filler file until the disk is full, leaving at most {@code leaveBytes} free. */
    public Path fill(long leaveBytes) throws IOException {
        Path filler = mount.resolve("filler");
        long free = Files.getFileStore(mount).getUsableSpace() - leaveBytes;
        byte[] block = new byte[64 * 1024];
        try (var out = Files.newOutputStream(filler)) {
            for (long written = 0; written < free; written += block.length) {
                out.write(block, 0, (int) Math.min(block.length, free - written));
            }
        } catch (IOException e) {
            // Full sooner than reported: that is what was asked.
        }
        return filler;
    }

    /** Frees what {@link #fill} took. */
    public void free() throws IOException {
        Files.deleteIfExists(mount.resolve("filler"));
    }

    /** Remounts the disk read-only, or writable again. */
    public void readOnly(boolean readOnly) throws IOException, InterruptedException {
        String why = run("mount", "-o", "remount," + (readOnly ? "ro" : "rw"), mount.toString());
        if (why != null) {
            throw new IOException("cannot remount " + mount + ": " + why);
        }
    }

    @Override
    public void close() throws IOException, InterruptedException {
        String why = run("umount", "-l", mount.toString());
        if (why != null) {
            throw new IOException("cannot unmount " + mount + ": " + why);
        }
    }

    /** Runs a command; returns null on success, else what went wrong. */
    private static String run(String... cmd) throws IOException, InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder(List.of(cmd)).redirectErrorStream(true).start();
        } catch (IOException e) {
            return e.getMessage();
        }
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return String.join(" ", cmd) + " did not finish";
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        return p.exitValue() == 0 ? null : String.join(" ", cmd) + ": " + out;
    }
}
