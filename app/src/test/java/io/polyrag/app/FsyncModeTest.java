package io.polyrag.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.testing.TestServices;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code POLYRAG_DURABILITY=fsync}, seen from the system calls: a child JVM ({@link CrashChild}) runs under
 * {@code strace} with every embedded store on, ingests, updates, uploads (a job), waits for the job, ingests and
 * deletes, and prints an ACK the moment each is acknowledged. Before each ACK, every log a store recovers from (the
 * catalog's file, the RDF journal, the graph's write-ahead log) must have been forced to the disk after its last
 * write, and every directory in which a file was renamed into place (originals, staged uploads, index commit points)
 * must have been forced after the rename. In the default mode the same trace shows the catalog's commits
 * acknowledged from the page cache — what the mode changes, and proof that the check can fail.
 *
 * <p>The check reads the trace as a whole, so at each ACK nothing may be writing that the ACK does not depend on:
 * the upload is acknowledged by a child that runs no jobs ({@code ingest.workers=0}; its job would otherwise start
 * writing at once, in the background), and a second child, opening the same data, runs the job — the restart a
 * server may take between the two — while the first waits for it by reading its status. That read must not answer
 * "succeeded" before the job's last commit is on the disk.
 */
class FsyncModeTest {
    @TempDir
    Path tmp;

    @Test
    void in_fsync_mode_every_acknowledged_write_is_on_the_disk_before_the_answer() throws Exception {
        requireStrace();
        TraceCheck trace = run("fsync");
        assertThat(trace.violations).as("writes acknowledged before they reached the disk").isEmpty();
        assertThat(trace.acks).as("every step acknowledged and checked").isEqualTo(6);
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

    /**
     * Runs the steps under strace in {@code mode}: two children one after the other on the same data directory, the
     * first running no jobs. Returns what their traces show acknowledged too early.
     */
    private TraceCheck run(String mode) throws Exception {
        Path data = tmp.resolve(mode);
        TraceCheck check = new TraceCheck(data.toString());
        String job;
        try (Child first = new Child(mode, data, "first", "0")) {
            first.send("text\tdoc-a\tMarta Lindqvist founded Borealis Instruments in Uppsala in 1994.", "ACK text");
            first.send("text\tdoc-a\tMarta Lindqvist founded Borealis Instruments in Uppsala, Sweden.", "ACK text");
            job = first.send("upload\tkestrel.txt\tBorealis Instruments manufactures the Kestrel-9 seismometer.",
                    "ACK upload").substring("ACK upload ".length());
        } finally {
            check.read(tmp.resolve(mode + ".first.trace"));
        }
        try (Child second = new Child(mode, data, "second", "1")) {
            assertThat(second.send("wait\t" + job, "ACK wait")).isEqualTo("ACK wait succeeded");
            String added = second.send("text\tdoc-b\tThe Kestrel-9 was installed at the observatory in Kiruna.",
                    "ACK text");
            assertThat(added).contains("added=1");
            String id = added.substring(added.indexOf(" id=") + " id=".length());
            assertThat(second.send("delete\t" + id, "ACK delete")).isEqualTo("ACK delete 1");
        } finally {
            check.read(tmp.resolve(mode + ".second.trace"));
        }
        return check;
    }

    /** A {@link CrashChild} under strace, its trace written to {@code <mode>.<name>.trace}. */
    private final class Child implements AutoCloseable {
        private final CrashChildProcess p;

        Child(String mode, Path data, String name, String workers) throws Exception {
            Path trace = tmp.resolve(mode + "." + name + ".trace");
            p = new CrashChildProcess(List.of("strace", "-f", "-qq", "-y", "-s", "16", "-o", trace.toString(), "-e",
                    "trace=write,pwrite64,pwritev,pwritev2,writev,fsync,fdatasync,rename,renameat,renameat2"),
                    List.of("--enable-native-access=ALL-UNNAMED", "-Xmx512m"),
                    Map.of("data.dir", data.toString(), "durability", mode, "vector.enabled", "false",
                            "graph.enabled", "true", "rdf.enabled", "true", "ingest.workers", workers));
        }

        /** Sends one command and returns the line that acknowledged it. */
        String send(String command, String ack) throws InterruptedException {
            p.send(command);
            return p.await(ack);
        }

        @Override
        public void close() throws InterruptedException {
            p.stop();
        }
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
        /** ACKs seen in the traces read. */
        int acks;
        /** Files and directories forced to the disk, relative to the data directory. */
        final Set<String> forced = new java.util.TreeSet<>();
        /** Directories a file was renamed into, relative to the data directory. */
        final Set<String> renamedInto = new java.util.TreeSet<>();

        TraceCheck(String data) {
            this.data = data;
        }

        /**
         * Reads one process's trace; what it left dirty stays dirty for the next (a process that ended does not
         * force its files on the way out unless the trace shows it).
         */
        void read(Path trace) throws IOException {
            pendingSync.clear();
            Files.readAllLines(trace, StandardCharsets.UTF_8).forEach(this::line);
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
                acks++;
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
