package io.polyrag.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.testing.TestServices;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code POLYRAG_DURABILITY=fsync}, seen from the system calls: a child JVM ({@link CrashChild}) runs under
 * {@code strace} with every embedded store on, ingests, updates, uploads (a job) and deletes, and prints an ACK the
 * moment each is acknowledged. Before each ACK, every log a store recovers from (the catalog's file, the RDF journal,
 * the graph's write-ahead log) must have been forced to the disk after its last write, and every directory in which
 * a file was renamed into place (originals, staged uploads, index commit points) must have been forced after the
 * rename. In the default mode the same trace shows the catalog's commits acknowledged from the page cache — what the
 * mode changes, and proof that the check can fail.
 */
class FsyncModeTest {
    @TempDir
    Path tmp;

    @Test
    void in_fsync_mode_every_acknowledged_write_is_on_the_disk_before_the_answer() throws Exception {
        requireStrace();
        TraceCheck trace = run("fsync");
        assertThat(trace.violations).as("writes acknowledged before they reached the disk").isEmpty();
        // The check saw each kind of store at work: not an empty trace passing.
        assertThat(trace.forced).contains("catalog/polyrag.mv.db", "fulltext", "rdf/Data-0001/journal.jrnl")
                .anyMatch(f -> f.startsWith("blobs/job-")).anyMatch(f -> f.endsWith(".kuzu.wal"));
        assertThat(trace.renamedInto).contains("fulltext").anyMatch(f -> f.startsWith("blobs/"));
    }

    @Test
    void in_the_default_mode_the_catalog_is_acknowledged_from_the_page_cache() throws Exception {
        requireStrace();
        List<String> violations = run("process").violations;
        assertThat(violations).as("the default mode leaves the catalog's commits to the operating system")
                .anyMatch(v -> v.contains("catalog/polyrag.mv.db"));
    }

    private static void requireStrace() {
        TestServices.require(TestServices.runs("strace", "-f", "-qq", "-e", "trace=none", "true") ? null
                : "strace is not installed or may not trace here (apt-get install strace; in a container, "
                        + "ptrace must be allowed)");
    }

    /** Runs the child under strace in {@code mode} and returns what the trace shows acknowledged too early. */
    private TraceCheck run(String mode) throws Exception {
        Path data = tmp.resolve(mode);
        Path trace = tmp.resolve(mode + ".trace");
        List<String> cmd = new ArrayList<>(List.of("strace", "-f", "-qq", "-y", "-s", "16", "-o", trace.toString(),
                "-e", "trace=write,pwrite64,pwritev,pwritev2,writev,fsync,fdatasync,rename,renameat,renameat2",
                ProcessHandle.current().info().command().orElse("java"), "--enable-native-access=ALL-UNNAMED",
                "-Xmx512m", "-cp", System.getProperty("java.class.path"), CrashChild.class.getName()));
        Map<String, String> settings = new HashMap<>(Map.of("data.dir", data.toString(), "durability", mode,
                "vector.enabled", "false", "graph.enabled", "true", "rdf.enabled", "true"));
        settings.forEach((k, v) -> cmd.add(k + "=" + v));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread.ofVirtual().start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String l = r.readLine(); l != null; l = r.readLine()) {
                    lines.add(l);
                }
            } catch (IOException e) {
                lines.add("closed: " + e);
            }
        });
        List<String> seen = new ArrayList<>();
        PrintWriter in = new PrintWriter(p.getOutputStream(), true, StandardCharsets.UTF_8);
        try {
            await(lines, seen, p, "READY");
            in.println("text\tdoc-a\tMarta Lindqvist founded Borealis Instruments in Uppsala in 1994.");
            await(lines, seen, p, "ACK text");
            in.println("text\tdoc-a\tMarta Lindqvist founded Borealis Instruments in Uppsala, Sweden.");
            await(lines, seen, p, "ACK text");
            in.println("upload\tkestrel.txt\tBorealis Instruments manufactures the Kestrel-9 seismometer.");
            String job = await(lines, seen, p, "ACK upload").substring("ACK upload ".length());
            in.println("wait\t" + job);
            assertThat(await(lines, seen, p, "ACK wait")).isEqualTo("ACK wait succeeded");
            in.println("text\tdoc-b\tThe Kestrel-9 was installed at the observatory in Kiruna.");
            String added = await(lines, seen, p, "ACK text");
            assertThat(added).contains("added=1");
        } finally {
            in.close();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
        return TraceCheck.of(Files.readAllLines(trace, StandardCharsets.UTF_8), data.toString());
    }

    private static String await(BlockingQueue<String> lines, List<String> seen, Process p, String prefix)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            String l = lines.poll(100, TimeUnit.MILLISECONDS);
            if (l != null) {
                seen.add(l);
                if (l.startsWith(prefix)) {
                    return l;
                }
            } else if (!p.isAlive() && lines.isEmpty()) {
                break;
            }
        }
        throw new AssertionError("the child never printed '" + prefix + "'; its output:\n" + String.join("\n", seen));
    }

    /**
     * Reads an {@code strace -f -y} log in order. Logs a store recovers from become dirty when written and clean
     * when forced; a rename makes its target's directory dirty until that directory is forced. At each ACK written
     * to standard output, whatever is dirty is a violation.
     */
    static final class TraceCheck {
        private static final Pattern CALL = Pattern.compile(
                "^(\\d+)\\s+(write|pwrite64|pwritev2?|writev|fsync|fdatasync)\\((\\d+)<([^>]*)>(.*)$");
        private static final Pattern RENAME = Pattern.compile(
                "^(\\d+)\\s+rename(?:at2?)?\\((?:[^,]*,\\s*)?\"([^\"]+)\",\\s*(?:[^,]*,\\s*)?\"([^\"]+)\".*= 0");
        private static final Pattern RESUMED = Pattern.compile("^(\\d+)\\s+<\\.\\.\\. (fsync|fdatasync) resumed>.*= 0");

        private final String data;
        private final Set<String> dirty = new LinkedHashSet<>();
        private final Map<String, String> pendingSync = new HashMap<>();
        final List<String> violations = new ArrayList<>();
        /** Files and directories forced to the disk, relative to the data directory. */
        final Set<String> forced = new java.util.TreeSet<>();
        /** Directories a file was renamed into, relative to the data directory. */
        final Set<String> renamedInto = new java.util.TreeSet<>();

        private TraceCheck(String data) {
            this.data = data;
        }

        static TraceCheck of(List<String> trace, String data) {
            TraceCheck c = new TraceCheck(data);
            trace.forEach(c::line);
            return c;
        }

        private void forced(String path) {
            dirty.remove(path);
            if (path.startsWith(data + "/")) {
                forced.add(path.substring(data.length() + 1));
            }
        }

        private void line(String l) {
            Matcher resumed = RESUMED.matcher(l);
            if (resumed.find()) {
                String path = pendingSync.remove(resumed.group(1));
                if (path != null) {
                    forced(path);
                }
                return;
            }
            Matcher rename = RENAME.matcher(l);
            if (rename.find()) {
                String target = rename.group(3);
                if (target.startsWith(data + "/")) {
                    String dir = Path.of(target).getParent().toString();
                    dirty.add(dir);
                    renamedInto.add(dir.substring(data.length() + 1));
                }
                return;
            }
            Matcher call = CALL.matcher(l);
            if (!call.find()) {
                return;
            }
            String syscall = call.group(2);
            String path = call.group(4);
            if (syscall.startsWith("f")) {
                if (l.contains("<unfinished ...>")) {
                    pendingSync.put(call.group(1), path);
                } else if (l.trim().endsWith("= 0")) {
                    forced(path);
                }
            } else if (call.group(3).equals("1") && call.group(5).contains("\"ACK ")) {
                dirty.forEach(d -> violations.add(l.substring(l.indexOf("\"ACK ")) + ": " + d
                        + " not on the disk"));
            } else if (path.startsWith(data) && recoveryLog(path)) {
                dirty.add(path);
            }
        }

        /** The files a store replays or opens from after a crash, which must be durable at an answer. */
        private static boolean recoveryLog(String path) {
            return path.endsWith("/catalog/polyrag.mv.db") || path.endsWith("/journal.jrnl")
                    || path.endsWith(".kuzu.wal") || path.contains("/segments_");
        }
    }
}
