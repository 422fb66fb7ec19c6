package io.polyrag.replicas;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/**
 * One polyrag server process, started as users start it ({@code io.polyrag.cli.Main serve} on the cli's jar and its
 * libraries), on a free loopback port, with its own data directory; its output goes to a log file beside it.
 * {@link #kill()} sends SIGKILL.
 */
final class Replica implements AutoCloseable {
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    final String name;
    final Path log;
    private final Map<String, String> env;
    private final Path dataDir;
    private Process process;
    private int port;

    Replica(String name, Path dataDir, Map<String, String> env) {
        this.name = name;
        this.dataDir = dataDir;
        this.log = dataDir.resolveSibling(name + ".log");
        this.env = env;
    }

    /** Starts the process (again, after a kill, over the same data directory). */
    Replica start() throws IOException {
        Path target = Path.of(System.getProperty("polyrag.cli.target", "../cli/target"));
        if (!Files.isRegularFile(target.resolve("polyrag.jar")) || !Files.isDirectory(target.resolve("lib"))) {
            // ./mvnw verify packages the cli before this module's tests; ./mvnw test does not.
            io.polyrag.testing.TestServices.require("no packaged cli in " + target.toAbsolutePath() + " to start "
                    + "servers from: run ./mvnw verify (or package the cli first)");
        }
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "--add-modules", "jdk.incubator.vector",
                "--enable-native-access=ALL-UNNAMED", "-Xmx1g", "-cp", target.resolve("polyrag.jar") + ":"
                + target.resolve("lib") + "/*", "io.polyrag.cli.Main", "serve");
        Map<String, String> e = pb.environment();
        e.keySet().removeIf(k -> k.startsWith("POLYRAG_"));
        e.putAll(env);
        e.put("POLYRAG_DATA_DIR", dataDir.toString());
        e.put("POLYRAG_HTTP_PORT", Integer.toString(port));
        pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        process = pb.start();
        return this;
    }

    /** Waits until {@code /ready} answers 200. */
    Replica awaitReady(Duration within) throws Exception {
        long deadline = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with " + process.exitValue() + ":\n" + tail());
            }
            try {
                if (get("/ready").statusCode() == 200) {
                    return this;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException(name + " not ready within " + within + ":\n" + tail());
    }

    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(30)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** {@code POST /v1/ingest/files} with one text file; returns the response. */
    HttpResponse<String> ingest(String kb, String fileName, String text) throws IOException, InterruptedException {
        String boundary = "polyrag-" + UUID.randomUUID();
        String body = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"kb\"\r\n\r\n" + kb + "\r\n"
                + "--" + boundary + "\r\nContent-Disposition: form-data; name=\"files\"; filename=\"" + fileName
                + "\"\r\nContent-Type: text/plain\r\n\r\n" + text + "\r\n--" + boundary + "--\r\n";
        return HTTP.send(HttpRequest.newBuilder(uri("/v1/ingest/files")).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** SIGKILL: no shutdown hook, no flush, no goodbye. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    String tail() {
        try {
            String all = Files.readString(log);
            return all.length() > 4000 ? all.substring(all.length() - 4000) : all;
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    static Map<String, String> env(Map<String, String> shared) {
        return new HashMap<>(shared);
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }
}
