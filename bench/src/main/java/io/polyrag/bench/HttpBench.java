package io.polyrag.bench;

import io.polyrag.core.InvalidInputException;
import io.polyrag.core.config.Config;
import io.polyrag.core.config.Settings;
import io.polyrag.eval.BeirDataset;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import tools.jackson.databind.json.JsonMapper;

/**
 * Search over HTTP against the raw-library floor, in one run: {@code bench/http --data DIR --dataset DIR}.
 *
 * <p>The floor is measured first, in this process, on the data directory's own indexes with the libraries called
 * directly: the query embedded by the same model, Lucene BM25 (English analysis, the configured k1 and b) and Lucene
 * HNSW searched for the top 10, the two lists fused by a ten-line RRF. Then {@code polyrag serve} is started over the
 * same directory and driven by {@code wrk} (Debian's package) on loopback, GET {@code /v1/search}, at each
 * concurrency, for full text alone, vectors alone, hybrid and (over a directory built with the graph arms) all four
 * legs; every request a different query (the dataset's queries,
 * then the same with words of the next query appended, so none repeats within a measured run), after a warm-up.
 * With {@code --repeats N} each figure is run N times, the concurrencies alternating, and its median printed.
 * Prints a table with each figure's ratio to its floor and writes {@code --json FILE} when asked.
 */
public final class HttpBench {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private HttpBench() {
    }

    public static void main(String[] args) throws Exception {
        try {
            run(options(args));
        } catch (IllegalArgumentException | IllegalStateException | InvalidInputException e) {
            System.err.println("bench/http: " + e.getMessage());
            System.exit(2);
        }
    }

    // style: a benchmark script: servers, rounds and the report, in the order they run
    private static void run(Map<String, String> opts) throws Exception {
        Path data = Path.of(require(opts, "data"));
        BeirDataset ds = BeirDataset.load(Path.of(require(opts, "dataset")));
        int seconds = Integer.parseInt(opts.getOrDefault("seconds", "10"));
        List<Integer> concurrency = Arrays.stream(opts.getOrDefault("concurrency", "1,8,32").split(","))
                .map(String::strip).map(Integer::valueOf).toList();
        int port = Integer.parseInt(opts.getOrDefault("port", "18099"));
        int repeats = Integer.parseInt(opts.getOrDefault("repeats", "1"));
        if (repeats < 1 || seconds < 1) {
            throw new IllegalArgumentException("--repeats and --seconds must be at least 1");
        }
        List<String> queries = distinct(new ArrayList<>(ds.queries().values()), 12_000);
        Path work = Files.createTempDirectory("polyrag-http-bench");
        Path queryFile = work.resolve("queries.txt");
        Files.write(queryFile, queries.stream().map(q -> URLEncoder.encode(q, StandardCharsets.UTF_8)).toList());
        Path lua = work.resolve("search.lua");
        Files.writeString(lua, LUA.replace("QUERIES", queryFile.toString()));
        Config config = Config.load(Map.of(), Map.of(Settings.DATA_DIR.key(), data.toString()));
        String cpu = cpu();
        System.out.printf(Locale.ROOT, "polyrag bench/http: %s over %s, %d distinct queries, %d cores (%s), wrk "
                + "%d s per figure%n%n", ds.name(), data, queries.size(), Runtime.getRuntime().availableProcessors(), cpu,
                seconds);

        Map<String, long[]> floors = floors(config, data, queries.subList(0, Math.min(1000, queries.size())));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("machine", Map.of("cores", Runtime.getRuntime().availableProcessors(), "cpu", cpu, "java",
                System.getProperty("java.version")));
        out.put("dataset", ds.name());
        Map<String, Object> floorOut = new LinkedHashMap<>();
        System.out.println("floor (in process, libraries called directly)   p50 ms   p99 ms      qps");
        floors.forEach((name, t) -> {
            System.out.printf(Locale.ROOT, "  %-44s %8.2f %8.2f %8.1f%n", name, Bench.pct(t, 0.5), Bench.pct(t, 0.99),
                    t.length / (Arrays.stream(t).sum() / 1e9));
            floorOut.put(name, Map.of("p50Ms", Bench.pct(t, 0.5), "p99Ms", Bench.pct(t, 0.99), "qps",
                    t.length / (Arrays.stream(t).sum() / 1e9)));
        });
        long[] oneThread = floors.get("hybrid");
        double oneThreadQps = oneThread.length / (Arrays.stream(oneThread).sum() / 1e9);
        System.out.printf(Locale.ROOT, "  %-44s %8s %8s %8.1f   (%.2fx its one-thread rate)%n", "hybrid, two threads",
                "", "", twoThreadQps, twoThreadQps / oneThreadQps);
        floorOut.put("hybridTwoThreads", Map.of("qps", twoThreadQps, "overOneThread", twoThreadQps / oneThreadQps));
        out.put("floor", floorOut);

        Process server = serve(Path.of(opts.getOrDefault("root", ".")), data, port);
        List<Map<String, Object>> rows = new ArrayList<>();
        try {
            awaitHealth(port);
            System.out.printf("%npolyrag over HTTP (wrk, GET /v1/search, top 10)%n");
            System.out.println("  run          conc   p50 ms   p95 ms   p99 ms      qps   p50/floor p50   p99/floor p99");
            boolean first = true;
            List<String> modes = new ArrayList<>(List.of("fulltext", "vector", "vector,fulltext"));
            if (hasArms(data)) {
                // Every leg, graph and RDF included (no modalities parameter): what a user who turns the arms on gets.
                modes.add("all");
            }
            for (String mode : modes) {
                String floor = mode.equals("fulltext") ? "bm25" : mode.equals("vector") ? "vector" : "hybrid";
                // Warm-up, not reported, in slices of 5 s until the server's compilers are quiet: at least 30 s for
                // the first run, which meets a cold JIT, and 10 s for each after it.
                Warmth.untilQuiet(mode, () -> warmSlice(lua, port, mode), () -> Warmth.process(server.pid()),
                        first ? 6 : 2, 180);
                first = false;
                // Repeats alternate the concurrencies, so a drift of the machine's speed reaches each of them.
                Map<Integer, List<Map<String, Double>>> runs = new LinkedHashMap<>();
                for (int r = 0; r < repeats; r++) {
                    for (int c : concurrency) {
                        runs.computeIfAbsent(c, k -> new ArrayList<>()).add(wrk(lua, port, mode, c, seconds));
                    }
                }
                for (int c : concurrency) {
                    Map<String, Double> r = medians(runs.get(c));
                    long[] f = floors.get(floor);
                    double fp50 = Bench.pct(f, 0.5);
                    double fp99 = Bench.pct(f, 0.99);
                    String name = mode.equals("vector,fulltext") ? "hybrid" : mode.equals("all") ? "four legs" : mode;
                    System.out.printf(Locale.ROOT, "  %-12s %4d %8.2f %8.2f %8.2f %8.1f %13.2f %15.2f%n", name, c,
                            r.get("p50"), r.get("p95"), r.get("p99"), r.get("qps"), r.get("p50") / fp50,
                            r.get("p99") / fp99);
                    if (r.getOrDefault("errors", 0.0) > 0) {
                        // A refused query (400 for its length, 414 for its URL) answers in a millisecond: figures
                        // with failures in them look better than the searches they stand for.
                        System.out.printf(Locale.ROOT, "  ! %s at concurrency %d: %.0f requests failed (not 2xx, or "
                                + "timed out); its figures include them%n", name, c, r.get("errors"));
                    }
                    Map<String, Object> row = new LinkedHashMap<>();
                    row.put("run", name);
                    row.put("concurrency", c);
                    row.put("repeats", repeats);
                    row.putAll(Map.of("p50Ms", r.get("p50"), "p95Ms", r.get("p95"), "p99Ms", r.get("p99"), "qps",
                            r.get("qps"), "errors", r.get("errors"), "p50OverFloorP50", r.get("p50") / fp50,
                            "p99OverFloorP99", r.get("p99") / fp99, "p99OverFloorP50", r.get("p99") / fp50,
                            "qpsOverFloorQps", r.get("qps") / (f.length / (Arrays.stream(f).sum() / 1e9)),
                            "p50MinusFloorP50Ms", r.get("p50") - fp50));
                    if (floor.equals("hybrid")) {
                        row.put("p50OverDepthFloorP50", r.get("p50") / Bench.pct(floors.get("hybrid at polyrag's depth"),
                                0.5));
                    }
                    rows.add(row);
                }
            }
        } finally {
            server.destroy();
            server.waitFor();
        }
        out.put("http", rows);
        if (opts.containsKey("json")) {
            Files.writeString(Path.of(opts.get("json")), JSON.writerWithDefaultPrettyPrinter().writeValueAsString(out));
        }
    }

    /** Each figure's median over the repeated runs (errors: their sum). */
    private static Map<String, Double> medians(List<Map<String, Double>> runs) {
        Map<String, Double> out = new HashMap<>();
        for (String k : runs.getFirst().keySet()) {
            double[] v = runs.stream().mapToDouble(r -> r.get(k)).sorted().toArray();
            out.put(k, k.equals("errors") ? Arrays.stream(v).sum() : v.length % 2 == 1 ? v[v.length / 2]
                    : (v[v.length / 2 - 1] + v[v.length / 2]) / 2);
        }
        return out;
    }

    /** The queries, then each with the first words of the next appended, until {@code max} distinct ones. */
    static List<String> distinct(List<String> base, int max) {
        LinkedHashSet<String> out = new LinkedHashSet<>(base);
        for (int words = 1; out.size() < max && words <= 8; words++) {
            for (int i = 0; i < base.size() && out.size() < max; i++) {
                String[] next = base.get((i + words) % base.size()).split("\\s+");
                out.add(base.get(i) + " " + String.join(" ", Arrays.copyOf(next, Math.min(words,
                        next.length))));
            }
        }
        return List.copyOf(out);
    }

    /** BM25, vector (embed + HNSW) and hybrid (both, one after the other, and RRF) with the libraries themselves. */
    private static Map<String, long[]> floors(Config config, Path data, List<String> queries) throws IOException {
        Map<String, long[]> out = new LinkedHashMap<>();
        try (ScaleBench.Floor floor = new ScaleBench.Floor(config, data)) {
            int depth = config.get(Settings.SEARCH_CANDIDATES);
            Map<String, Consumer<String>> runs = new LinkedHashMap<>();
            runs.put("bm25", floor::bm25);
            runs.put("vector", floor::vector);
            runs.put("hybrid", floor::hybrid);
            runs.put("hybrid at polyrag's depth", q -> floor.hybridAtDepth(q, depth));
            // Warmed, as the server is, until the JIT has settled (a full pass each at least), so that it flatters
            // neither side.
            Warmth.untilQuiet("the floor", () -> runs.values().forEach(queries::forEach), Warmth::thisJvm, 1, 180);
            runs.forEach((name, run) -> out.put(name, Bench.time(queries, run)));
            twoThreadQps = Bench.concurrent(queries, runs.get("hybrid"), 2, 1);
        }
        return out;
    }

    /** Set by {@link #floors}: the floor's hybrid queries per second on two threads. */
    private static double twoThreadQps;

    static Path vectorDir(Path data) throws IOException {
        Path models = data.resolve("vectors");
        if (Files.isDirectory(models)) {
            try (var dirs = Files.list(models)) {
                var newest = dirs.filter(Files::isDirectory).max(Comparator.comparingLong(p -> p.toFile()
                        .lastModified()));
                if (newest.isPresent()) {
                    return newest.get();
                }
            }
        }
        return data.resolve("vector");
    }

    static Query bm25(Analyzer analyzer, String q) {
        BooleanQuery.Builder b = new BooleanQuery.Builder();
        try (var ts = analyzer.tokenStream("body", q)) {
            CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
            ts.reset();
            while (ts.incrementToken()) {
                b.add(new TermQuery(new Term("body", term.toString())), BooleanClause.Occur.SHOULD);
            }
            ts.end();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return b.build();
    }

    static List<String> ids(IndexSearcher s, Query q, int k) {
        try {
            List<String> out = new ArrayList<>();
            var fields = s.storedFields();
            for (ScoreDoc d : s.search(q, k).scoreDocs) {
                out.add(fields.document(d.doc, Set.of("chunk_id")).get("chunk_id"));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The top {@code k} hits' chunk ids, read the fastest way the index offers: the binary doc values polyrag writes
     * (documents written before them fall back to the stored field).
     */
    static List<String> idsFromDocValues(IndexSearcher s, Query q, int k) {
        try {
            ScoreDoc[] docs = s.search(q, k).scoreDocs;
            String[] out = new String[docs.length];
            Integer[] order = new Integer[docs.length];
            for (int i = 0; i < order.length; i++) {
                order[i] = i;
            }
            Arrays.sort(order, Comparator.comparingInt(i -> docs[i].doc));
            var leaves = s.getIndexReader().leaves();
            for (int i : order) {
                int leaf = ReaderUtil.subIndex(docs[i].doc, leaves);
                var values = leaves.get(leaf).reader().getBinaryDocValues("chunk_id_bytes");
                int local = docs[i].doc - leaves.get(leaf).docBase;
                out[i] = values != null && values.advanceExact(local) ? values.binaryValue().utf8ToString()
                        : s.storedFields().document(docs[i].doc, Set.of("chunk_id")).get("chunk_id");
            }
            return Arrays.asList(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The ten-line RRF. */
    static List<String> rrf(List<String> a, List<String> b) {
        Map<String, Double> s = new HashMap<>();
        for (List<String> list : List.of(a, b)) {
            for (int r = 0; r < list.size(); r++) {
                s.merge(list.get(r), 1.0 / (61 + r), Double::sum);
            }
        }
        List<String> out = new ArrayList<>(s.keySet());
        out.sort((x, y) -> Double.compare(s.get(y), s.get(x)));
        return out;
    }

    /** Whether {@code data} was built with the graph arms. */
    private static boolean hasArms(Path data) {
        return Files.isDirectory(data.resolve("graph")) || Files.isDirectory(data.resolve("rdf"));
    }

    /** {@code polyrag serve} from the build in {@code root} (cli/target), over {@code data}. */
    private static Process serve(Path root, Path data, int port) throws IOException {
        return serve(root, data, port, Map.of());
    }

    /** Like {@link #serve(Path, Path, int)}, with {@code env} added to the server's environment. */
    static Process serve(Path root, Path data, int port, Map<String, String> env) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "--add-modules", "jdk.incubator.vector",
                "--enable-native-access=ALL-UNNAMED", "-cp", root.resolve("cli/target/polyrag.jar") + ":"
                        + root.resolve("cli/target/lib") + "/*", "io.polyrag.cli.Main", "serve", "--port",
                String.valueOf(port));
        pb.environment().put("POLYRAG_DATA_DIR", data.toString());
        // Every measured query is embedded by the model, as in the floor: no run is flattered by a remembered vector.
        pb.environment().put("POLYRAG_EMBEDDING_QUERY_CACHE", "0");
        // Over a directory built with the graph arms they are on (the "four legs" run; hybrid asks for vector and full
        // text, as in the floor); otherwise off, as the index has no graph or RDF records.
        String arms = Boolean.toString(hasArms(data));
        pb.environment().put("POLYRAG_GRAPH_ENABLED", arms);
        pb.environment().put("POLYRAG_RDF_ENABLED", arms);
        pb.environment().putAll(env);
        pb.redirectErrorStream(true).redirectOutput(Path.of(System.getProperty("java.io.tmpdir"),
                "polyrag-http-bench-server.log").toFile());
        return pb.start();
    }

    static void awaitHealth(int port) throws InterruptedException {
        HttpClient http = HttpClient.newHttpClient();
        for (int i = 0; i < 240; i++) {
            try {
                if (http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/ready")).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(500);
        }
        throw new IllegalStateException("the server did not become ready on port " + port);
    }

    /** Five seconds of {@code modalities} searches, one at a time, not reported. */
    private static void warmSlice(Path lua, int port, String modalities) {
        try {
            wrk(lua, port, modalities, 1, 5);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while warming up", e);
        }
    }

    /** One wrk run; its done() prints a JSON line with the percentiles (in ms) and the rate. */
    static Map<String, Double> wrk(Path lua, int port, String modalities, int connections, int seconds)
            throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("wrk", "-t", String.valueOf(Math.min(connections, 2)), "-c",
                String.valueOf(connections), "-d", seconds + "s", "--timeout", "10s", "-s", lua.toString(),
                "http://127.0.0.1:" + port);
        pb.environment().put("MODALITIES", modalities);
        pb.redirectErrorStream(true);
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new IllegalStateException("wrk is not installed: apt-get install wrk", e);
        }
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        String line = output.lines().filter(l -> l.startsWith("{\"p50\"")).findFirst()
                .orElseThrow(() -> new IllegalStateException("wrk printed no result:\n" + output));
        Map<String, Double> r = new HashMap<>();
        JSON.readTree(line).properties().forEach(e -> r.put(e.getKey(), e.getValue().asDouble()));
        return r;
    }

    static String cpu() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .findFirst().map(l -> l.substring(l.indexOf(':') + 1).strip()).orElse("unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static String require(Map<String, String> opts, String key) {
        String v = opts.get(key);
        if (v == null) {
            throw new IllegalArgumentException("--" + key + " is required: bench/http --data DIR --dataset DIR "
                    + "[--seconds N] [--repeats N] [--concurrency 1,8,32] [--port N] [--json FILE]");
        }
        return v;
    }

    static Map<String, String> options(String[] args) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            m.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        return m;
    }

    /** wrk's script: a different query each request, each thread from its own offset; a JSON summary at the end. */
    static final String LUA = """
            local queries = {}
            for line in io.lines("QUERIES") do queries[#queries + 1] = line end
            local mode = os.getenv("MODALITIES") or "fulltext"
            local counter = 0
            function setup(thread)
              thread:set("start", counter * math.floor(#queries / 2))
              counter = counter + 1
            end
            local i = 0
            request = function()
              i = i + 1
              local q = queries[((i + (start or 0)) % #queries) + 1]
              local legs = ""
              if mode ~= "all" then legs = "&modalities=" .. mode end
              return wrk.format("GET", "/v1/search?top_k=10" .. legs .. "&q=" .. q)
            end
            done = function(summary, latency, requests)
              local errors = summary.errors.status + summary.errors.timeout + summary.errors.connect
                + summary.errors.read + summary.errors.write
              io.write(string.format('{"p50": %.3f, "p95": %.3f, "p99": %.3f, "qps": %.1f, "errors": %d}\\n',
                latency:percentile(50) / 1000, latency:percentile(95) / 1000, latency:percentile(99) / 1000,
                summary.requests / (summary.duration / 1e6), errors))
            end
            """;
}
