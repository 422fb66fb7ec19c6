package io.polyrag.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.testing.ProcessOutput;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code polyrag serve} as a process that is stopped the hard ways: kill -9 right after an upload was acknowledged
 * over HTTP (the job and its file are there after the restart, and it is indexed), and SIGTERM while the embedding
 * model runs (a clean stop: no crash in native code, no {@code hs_err} file, and the next start finishes the work).
 */
class ProcessStopTest {
    private static final Pattern SERVING = Pattern.compile("polyrag serving (http://127\\.0\\.0\\.1:\\d+)");
    @TempDir
    Path tmp;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void an_upload_acknowledged_with_202_survives_kill_9_and_is_indexed_after_the_restart() throws Exception {
        Path data = tmp.resolve("data");
        for (int cycle = 1; cycle <= 3; cycle++) {
            String job;
            try (Server s = new Server(data, List.of("--set", "vector.enabled=false", "--set", "graph.enabled=false",
                    "--set", "rdf.enabled=false"))) {
                String body = "# Note " + cycle + "\n\nThe keeper logged gale number " + cycle + " at Quillon Point.";
                HttpResponse<String> r = upload(s.base, "note-" + cycle + ".md", body);
                assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
                job = r.body().replaceAll(".*\"job_id\":\"([^\"]+)\".*", "$1");
                s.kill9();
            }
            try (Server s = new Server(data, List.of("--set", "vector.enabled=false", "--set", "graph.enabled=false",
                    "--set", "rdf.enabled=false"))) {
                HttpResponse<String> j = get(s.base + "/v1/jobs/" + job);
                assertThat(j.statusCode()).as("cycle " + cycle + ": job " + job + " after kill -9: " + j.body())
                        .isEqualTo(200);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (!get(s.base + "/v1/jobs/" + job).body().contains("\"status\":\"succeeded\"")) {
                    assertThat(System.nanoTime()).as("job " + job + " finishes").isLessThan(deadline);
                    Thread.sleep(100);
                }
                String hits = get(s.base + "/v1/search?q=gale+number+" + cycle).body();
                assertThat(hits).contains("note-" + cycle + ".md");
                s.kill9();
            }
        }
    }

    @Test
    void sigterm_while_the_model_embeds_stops_cleanly_and_the_next_start_finishes() throws Exception {
        Path docs = Files.createDirectories(tmp.resolve("docs"));
        for (int i = 0; i < 30; i++) {
            StringBuilder text = new StringBuilder("# Report " + i + "\n\n");
            for (int p = 0; p < 12; p++) {
                text.append("Section ").append(p).append(" of report ").append(i).append(" describes how the harbour ")
                        .append("crews at Quillon Point measured the tide, trimmed the lamp and logged every ship ")
                        .append("that passed the breakwater during the winter storms of the year.\n\n");
            }
            Files.writeString(docs.resolve("report-" + i + ".md"), text);
        }
        Path data = null;
        for (long delay : new long[] {100, 500, 1000}) {
            data = tmp.resolve("data-" + delay);
            Server s = new Server(data, List.of(docs.toString(), "--set", "graph.enabled=false", "--set",
                    "rdf.enabled=false"));
            s.awaitLine("ingest: embedding");
            Thread.sleep(delay);
            int code = s.terminate();
            assertThat(code).as("exit after SIGTERM %d ms into embedding; output:%n%s", delay, s.output())
                    .isNotEqualTo(134).isIn(0, 143);
            assertThat(s.output()).doesNotContain("SIGSEGV").doesNotContain("A fatal error has been detected");
            try (Stream<Path> files = Files.list(s.workDir)) {
                assertThat(files.map(Path::getFileName).map(Path::toString)).noneMatch(n -> n.startsWith("hs_err"));
            }
        }
        try (Server s = new Server(data, List.of(docs.toString(), "--set", "graph.enabled=false", "--set",
                "rdf.enabled=false"))) {
            s.awaitLine("ingested 30 documents");
            assertThat(get(s.base + "/v1/search?q=breakwater+winter+storms&top_k=3").body()).contains("report-");
            s.kill9();
        }
    }

    @Test
    void sigterm_while_polyrag_ingest_embeds_stops_cleanly() throws Exception {
        // The commands that load a model and are not servers (ingest, reindex, ask, eval…) had no stop of their own:
        // ONNX Runtime's hook freed its environment under the embedding, a crash in native code.
        Path docs = Files.createDirectories(tmp.resolve("cli-docs"));
        for (int i = 0; i < 30; i++) {
            Files.writeString(docs.resolve("log-" + i + ".md"), ("# Log " + i + "\n\n" + ("The keepers of Quillon "
                    + "Point logged the tide, the lamp and every ship that passed the breakwater. ").repeat(40)));
        }
        for (long delay : new long[] {100, 800}) {
            Path work = Files.createTempDirectory(tmp, "cli-work");
            Process p = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED", "-Xmx1g", "-cp",
                    System.getProperty("java.class.path"), Main.class.getName(), "--data-dir",
                    tmp.resolve("cli-data-" + delay).toString(), "ingest", docs.toString(), "--set",
                    "graph.enabled=false", "--set", "rdf.enabled=false")).directory(work.toFile())
                    .redirectErrorStream(true).start();
            ProcessOutput out = new ProcessOutput(p);
            try {
                out.await(l -> l.contains("ingest: embedding"), "'ingest: embedding'", Duration.ofSeconds(120));
                Thread.sleep(delay);
                p.destroy();
                assertThat(p.waitFor(90, TimeUnit.SECONDS)).as("stopped within 90 s of SIGTERM").isTrue();
                assertThat(p.exitValue()).as("exit after SIGTERM %d ms into embedding; output:%n%s", delay, out.all())
                        .isIn(0, 143);
                assertThat(out.all()).doesNotContain("SIGSEGV").doesNotContain("A fatal error has been detected");
                try (Stream<Path> files = Files.list(work)) {
                    assertThat(files.map(Path::getFileName).map(Path::toString)).noneMatch(n -> n.startsWith("hs_err"));
                }
            } finally {
                p.destroyForcibly();
            }
        }
    }

    private HttpResponse<String> upload(String base, String name, String content) throws Exception {
        String boundary = "----polyrag" + System.nanoTime();
        String body = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"files\"; filename=\"" + name
                + "\"\r\nContent-Type: text/markdown\r\n\r\n" + content + "\r\n--" + boundary + "--\r\n";
        return http.send(HttpRequest.newBuilder(URI.create(base + "/v1/ingest/files")).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** {@code polyrag serve} in a child JVM on a free port, its working directory its own (for hs_err files). */
    private final class Server implements AutoCloseable {
        final Process process;
        final Path workDir;
        final String base;
        private final ProcessOutput output;

        Server(Path data, List<String> args) throws IOException, InterruptedException {
            workDir = Files.createTempDirectory(tmp, "work");
            List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                    .toString(), "--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED",
                    "-Xmx1g", "-cp", System.getProperty("java.class.path"), Main.class.getName(), "--data-dir",
                    data.toString(), "serve", "--port", "0"));
            cmd.addAll(args);
            process = new ProcessBuilder(cmd).directory(workDir.toFile()).redirectErrorStream(true).start();
            output = new ProcessOutput(process);
            Matcher m = SERVING.matcher(awaitLine("polyrag serving"));
            assertThat(m.find()).isTrue();
            base = m.group(1);
        }

        /** The next output line containing {@code text}; fails with the output so far when none comes. */
        String awaitLine(String text) throws InterruptedException {
            return output.await(l -> l.contains(text), "'" + text + "'", Duration.ofSeconds(120));
        }

        String output() {
            return output.all();
        }

        /** SIGTERM, and the exit code once the process has stopped. */
        int terminate() throws InterruptedException {
            process.destroy();
            assertThat(process.waitFor(90, TimeUnit.SECONDS)).as("stopped within 90 s of SIGTERM").isTrue();
            Thread.sleep(200);
            return process.exitValue();
        }

        void kill9() throws InterruptedException {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }

        @Override
        public void close() throws InterruptedException {
            if (process.isAlive()) {
                kill9();
            }
        }
    }
}
