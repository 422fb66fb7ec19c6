package io.polyrag.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code bench/startup [--runs 5] [--work DIR]}: how long each command takes as a whole process, started the way a
 * user starts it (the {@code polyrag} launcher), median of several runs, beside two baselines measured in the same
 * run — {@code java -version} and a hello-world picocli program on the same JDK — so the ratios travel between
 * machines. Commands run against an index of the samples made first; {@code serve} is timed to its first
 * {@code /health} 200 and {@code /ready} 200, the MCP adapter ({@code --backend-url}) and the self-contained MCP
 * server to their answers to {@code initialize}, {@code tools/list} and a {@code tools/call hybrid_search}. The same
 * commands without the class-data archive ({@code POLYRAG_CDS=off}) are measured beside them.
 */
public final class StartupBench {
    private final Path root;
    private final Path work;
    private final int runs;
    private final Path java;
    private final Map<String, Double> results = new LinkedHashMap<>();

    private StartupBench(Path root, Path work, int runs) {
        this.root = root;
        this.work = work;
        this.runs = runs;
        this.java = Path.of(System.getProperty("java.home"), "bin", "java");
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(".").toAbsolutePath().normalize();
        Path work = null;
        int runs = 5;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--root" -> root = Path.of(args[++i]).toAbsolutePath().normalize();
                case "--work" -> work = Path.of(args[++i]).toAbsolutePath().normalize();
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                default -> {
                    System.err.println("usage: bench/startup [--runs N] [--work DIR]");
                    System.exit(2);
                }
            }
        }
        if (work == null) {
            work = Files.createTempDirectory("polyrag-startup");
        }
        Files.createDirectories(work);
        new StartupBench(root, work, runs).run();
    }

    private void run() throws Exception {
        Path index = work.resolve("samples-index");
        if (!Files.isDirectory(index)) {
            exec(List.of(polyrag(), "--data-dir", index.toString(), "ingest", root.resolve("samples").toString()),
                    Map.of());
        }
        exec(List.of(polyrag(), "--version"), Map.of()); // builds if needed, makes the class-data archive
        Path hello = helloWorld();
        String picocli = Files.list(root.resolve("cli/target/lib")).map(Path::toString)
                .filter(p -> p.contains("picocli")).findFirst().orElseThrow();
        String data = index.toString();
        time("java -version", List.of(java.toString(), "-version"), Map.of());
        time("hello-world picocli", List.of(java.toString(), "-cp", hello + ":" + picocli, "Hello", "--help"),
                Map.of());
        for (String cds : List.of("on", "off")) {
            Map<String, String> env = Map.of("POLYRAG_CDS", cds);
            String tag = cds.equals("on") ? "" : "  [no class-data archive]";
            time("polyrag --help" + tag, List.of(polyrag(), "--help"), env);
            time("polyrag config" + tag, List.of(polyrag(), "--data-dir", data, "config"), env);
            time("polyrag keys list" + tag, List.of(polyrag(), "--data-dir", data, "keys", "list"), env);
            time("polyrag search (default legs)" + tag, List.of(polyrag(), "--data-dir", data, "search",
                    "how long does the levain ferment"), env);
            time("polyrag search --modalities fulltext" + tag, List.of(polyrag(), "--data-dir", data, "search",
                    "--modalities", "fulltext", "how long does the levain ferment"), env);
            serve(data, env, tag);
        }
        print();
    }

    private String polyrag() {
        return root.resolve("polyrag").toString();
    }

    /** A picocli program with one option, compiled here: the floor for a picocli command on this JDK. */
    private Path helloWorld() throws Exception {
        Path dir = work.resolve("hello");
        if (Files.isRegularFile(dir.resolve("Hello.class"))) {
            return dir;
        }
        Files.createDirectories(dir);
        // style(7): a picocli program's source, written out for the JVM to compile, names its types in full
        Files.writeString(dir.resolve("Hello.java"), """
                @picocli.CommandLine.Command(name = "hello", mixinStandardHelpOptions = true)
                public class Hello implements Runnable {
                    @picocli.CommandLine.Option(names = "--name") String name = "world";
                    public void run() { System.out.println("hello " + name); }
                    public static void main(String[] a) { System.exit(new picocli.CommandLine(new Hello()).execute(a)); }
                }
                """);
        String picocli = Files.list(root.resolve("cli/target/lib")).map(Path::toString)
                .filter(p -> p.contains("picocli")).findFirst().orElseThrow();
        exec(List.of(Path.of(System.getProperty("java.home"), "bin", "javac").toString(), "-cp", picocli, "-d",
                dir.toString(), dir.resolve("Hello.java").toString()), Map.of());
        return dir;
    }

    private void time(String name, List<String> command, Map<String, String> env) throws Exception {
        List<Double> seconds = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            long start = System.nanoTime();
            exec(command, env);
            seconds.add((System.nanoTime() - start) / 1e9);
        }
        results.put(name, median(seconds));
    }

    /**
     * A server on the index: to /health 200, to /ready 200; then the MCP adapter against it; then, with the server
     * stopped, the self-contained MCP server (no backend URL: it opens the data directory and serves the REST API to
     * itself).
     */
    private void serve(String data, Map<String, String> env, String tag) throws Exception {
        List<Double> health = new ArrayList<>();
        List<Double> ready = new ArrayList<>();
        List<double[]> adapter = new ArrayList<>();
        List<double[]> contained = new ArrayList<>();
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(200)).build();
        for (int i = 0; i < runs; i++) {
            int port = freePort();
            String base = "http://127.0.0.1:" + port;
            long start = System.nanoTime();
            Process server = start(List.of(polyrag(), "--data-dir", data, "serve", "--port", String.valueOf(port)),
                    env, true);
            try {
                health.add(until(http, base + "/health", start));
                ready.add(until(http, base + "/ready", start));
                adapter.add(mcp(List.of(polyrag(), "mcp", "--backend-url", base), env));
            } finally {
                server.destroy();
                if (!server.waitFor(60, TimeUnit.SECONDS)) {
                    server.destroyForcibly();
                }
            }
            contained.add(mcp(List.of(polyrag(), "--data-dir", data, "mcp"), env));
        }
        results.put("polyrag serve: /health 200" + tag, median(health));
        results.put("polyrag serve: /ready 200" + tag, median(ready));
        String[] steps = {"initialize", "tools/list", "tools/call hybrid_search"};
        for (int k = 0; k < steps.length; k++) {
            int step = k;
            results.put("polyrag mcp --backend-url: " + steps[k] + tag, median(adapter.stream().map(t -> t[step])
                    .toList()));
        }
        for (int k = 0; k < steps.length; k++) {
            int step = k;
            results.put("polyrag mcp (self-contained): " + steps[k] + tag, median(contained.stream()
                    .map(t -> t[step]).toList()));
        }
    }

    /** An MCP server over stdio, from its start: seconds to its answers to initialize, tools/list and a search. */
    private double[] mcp(List<String> command, Map<String, String> env) throws Exception {
        long start = System.nanoTime();
        double[] at = new double[3];
        Process mcp = start(command, env, false);
        try (OutputStream in = mcp.getOutputStream(); BufferedReader out = new BufferedReader(
                new InputStreamReader(mcp.getInputStream(), StandardCharsets.UTF_8))) {
            in.write(("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                    + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"bench\",\"version\":\"1\"}}}\n")
                    .getBytes(StandardCharsets.UTF_8));
            in.flush();
            awaitId(out, 1);
            at[0] = (System.nanoTime() - start) / 1e9;
            in.write(("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n{\"jsonrpc\":\"2.0\","
                    + "\"id\":2,\"method\":\"tools/list\"}\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
            awaitId(out, 2);
            at[1] = (System.nanoTime() - start) / 1e9;
            in.write(("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":"
                    + "\"hybrid_search\",\"arguments\":{\"query\":\"how long does the levain ferment\"}}}\n")
                    .getBytes(StandardCharsets.UTF_8));
            in.flush();
            awaitId(out, 3);
            at[2] = (System.nanoTime() - start) / 1e9;
        } finally {
            mcp.destroy();
            mcp.waitFor(30, TimeUnit.SECONDS);
        }
        return at;
    }

    private static void awaitId(BufferedReader out, int id) throws IOException {
        for (String line = out.readLine(); line != null; line = out.readLine()) {
            if (line.contains("\"id\":" + id + ",") || line.contains("\"id\":" + id + "}")) {
                return;
            }
        }
        throw new IOException("the MCP adapter ended before answering request " + id);
    }

    private static double until(HttpClient http, String url, long start) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            try {
                HttpResponse<Void> r = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(2))
                        .build(), HttpResponse.BodyHandlers.discarding());
                if (r.statusCode() == 200) {
                    return (System.nanoTime() - start) / 1e9;
                }
            } catch (IOException e) {
                // Not listening yet.
            }
            Thread.sleep(10);
        }
        throw new IllegalStateException(url + " did not answer 200 within two minutes");
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private Process start(List<String> command, Map<String, String> env, boolean discardOutput) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command).directory(work.toFile());
        pb.environment().putAll(env);
        pb.redirectError(ProcessBuilder.Redirect.DISCARD);
        if (discardOutput) {
            pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        }
        return pb.start();
    }

    private void exec(List<String> command, Map<String, String> env) throws Exception {
        Process p = start(command, env, true);
        if (!p.waitFor(600, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IllegalStateException("failed: " + String.join(" ", command));
        }
    }

    private static double median(List<Double> xs) {
        List<Double> s = xs.stream().sorted().toList();
        return s.size() % 2 == 1 ? s.get(s.size() / 2) : (s.get(s.size() / 2 - 1) + s.get(s.size() / 2)) / 2;
    }

    private void print() {
        double floor = results.get("java -version");
        System.out.printf("start-up, median of %d runs (JDK %s, %d cores)%n", runs, System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors());
        System.out.printf("%-58s %8s %10s%n", "command", "seconds", "x java -v");
        results.forEach((name, s) -> System.out.printf("%-58s %8.2f %10.1f%n", name, s, s / floor));
    }
}
