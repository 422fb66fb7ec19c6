package io.polyrag.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every benchmark in one run, each in a fresh JVM, then every performance target checked against the figures:
 * {@code bench/run --all --dataset DIR [--chunks 10000,100000] [--work DIR] [--json FILE]}.
 * <ol>
 *   <li>ingest and search on the dataset's first {@code --docs} documents ({@link Bench}: the pipeline against the
 *       model alone on the same texts, vectors on and off; search against the raw-library floor);</li>
 *   <li>search in process at each corpus size ({@link ScaleBench}: hybrid, vector and full text against the floor,
 *       LangChain4j's in-memory store beside them; build, open, memory and HNSW recall), corpora built once under
 *       {@code --work} and reused;</li>
 *   <li>search over HTTP at each size up to 100k chunks ({@link HttpBench}: {@code polyrag serve} driven by wrk at
 *       concurrency 1, 8 and 32, each figure the median of {@code --repeats} runs);</li>
 *   <li>with {@code --postgres-url}, the networked backends beside the embedded stack ({@link Backends}).</li>
 * </ol>
 * The last table lists each target, the figure measured and whether it is met; {@code --json FILE} writes every
 * figure of the run, the targets and the machine.
 */
public final class Suite {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** The largest corpus driven over HTTP: the HTTP targets are set at 10k and 100k chunks. */
    private static final long HTTP_MAX_CHUNKS = 100_000;

    private Suite() {
    }

    /** One target: what it bounds, the bound, the figure measured and whether the figure must stay below it. */
    record Target(String name, double bound, boolean atMost, double measured, String unit) {
        boolean met() {
            return atMost ? measured <= bound : measured >= bound;
        }
    }

    // style: a benchmark script: options, then each phase in order, as its usage line reads
    public static void main(String[] args) throws Exception {
        Map<String, String> opts = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            opts.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        if (!opts.containsKey("dataset")) {
            System.err.println("bench/run --all: --dataset DIR is required: bench/run --all --dataset DIR [--chunks "
                    + "10000,100000] [--docs 1000] [--queries 300] [--seconds 10] [--repeats 3] [--work DIR] "
                    + "[--postgres-url JDBC_URL] [--json FILE]");
            System.exit(2);
        }
        Path root = Path.of(opts.getOrDefault("root", ".")).toAbsolutePath();
        Path work = Path.of(opts.getOrDefault("work", Path.of(System.getProperty("java.io.tmpdir"), "polyrag-suite")
                .toString())).toAbsolutePath();
        Files.createDirectories(work);
        String dataset = Path.of(opts.get("dataset")).toAbsolutePath().toString();
        List<Long> sizes = Arrays.stream(opts.getOrDefault("chunks", "10000,100000").split(",")).map(String::strip)
                .map(s -> s.toLowerCase(Locale.ROOT).replace("k", "000").replace("m", "000000")).map(Long::valueOf)
                .toList();
        long start = System.nanoTime();

        Path ingestDir = work.resolve("ingest");
        deleteTree(ingestDir); // the ingest figures are of fresh directories
        Path runJson = work.resolve("run.json");
        child(Bench.class, "4g", "--dataset", dataset, "--docs", opts.getOrDefault("docs", "1000"), "--queries",
                opts.getOrDefault("queries", "300"), "--work", ingestDir.toString(), "--json", runJson.toString());
        Path scaleJson = work.resolve("scale.json");
        child(ScaleBench.class, "1g", "--dataset", dataset, "--chunks", String.join(",", sizes.stream()
                .map(String::valueOf).toList()), "--work", work.toString(), "--heap", opts.getOrDefault("heap",
                sizes.stream().anyMatch(n -> n > HTTP_MAX_CHUNKS) ? "6g" : "4g"), "--json", scaleJson.toString());
        Map<Long, Path> httpJson = new LinkedHashMap<>();
        for (long n : sizes) {
            if (n <= HTTP_MAX_CHUNKS) {
                Path json = work.resolve("http-" + n + ".json");
                child(HttpBench.class, "1g", "--root", root.toString(), "--data", work.resolve("scale-" + n)
                        .toString(), "--dataset", dataset, "--seconds", opts.getOrDefault("seconds", "10"),
                        "--repeats", opts.getOrDefault("repeats", "3"), "--json", json.toString());
                httpJson.put(n, json);
            }
        }
        if (opts.containsKey("postgres-url")) {
            deleteTree(work.resolve("backends")); // as the ingest's: figures of fresh directories
            child(Backends.class, "4g", "--dataset", dataset, "--postgres-url", opts.get("postgres-url"), "--docs",
                    opts.getOrDefault("docs", "1000"), "--work", work.resolve("backends").toString());
        }

        JsonNode run = JSON.readTree(runJson.toFile());
        JsonNode scale = JSON.readTree(scaleJson.toFile());
        Map<Long, JsonNode> http = new LinkedHashMap<>();
        for (var e : httpJson.entrySet()) {
            http.put(e.getKey(), JSON.readTree(e.getValue().toFile()));
        }
        List<Target> targets = targets(run, scale, sizes, http);
        System.out.printf("%ntargets (2 cores; every ratio to the raw-library floor measured in the same run)%n");
        System.out.printf("  %-78s %10s %10s   met%n", "target", "bound", "measured");
        for (Target t : targets) {
            System.out.printf(Locale.ROOT, "  %-78s %s %7.2f%-1s %9.3f%-1s   %s%n", t.name(), t.atMost() ? "<=" : ">=",
                    t.bound(), t.unit(), t.measured(), t.unit(), t.met() ? "yes" : "NO");
        }
        // What bounds the concurrency target: the model runs one query per core, so not even the floor itself (the
        // libraries called directly on two threads) gains more than its cores allow over its own one-thread rate.
        // And by Little's law, 8 requests in flight at the floor's own two-thread rate wait 8 / rate on average:
        // that mean, over the floor's p50, is the least any server could show at concurrency 8 on these cores.
        http.forEach((n, h) -> {
            JsonNode two = h.path("floor").path("hybridTwoThreads");
            double leastMeanMs = 8 / two.path("qps").asDouble() * 1000;
            System.out.printf(Locale.ROOT, "  (%,d chunks: the floor itself on two threads makes %.2fx its one-thread "
                    + "rate; at concurrency 8 its mean latency would be at least %.1f ms, %.1fx its p50)%n", n,
                    two.path("overOneThread").asDouble(), leastMeanMs, leastMeanMs / h.path("floor").path("hybrid")
                    .path("p50Ms").asDouble());
        });
        long met = targets.stream().filter(Target::met).count();
        System.out.printf(Locale.ROOT, "%n%d of %d targets met; the whole run took %.0f minutes%n", met, targets.size(),
                (System.nanoTime() - start) / 60e9);
        if (opts.containsKey("json")) {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("machine", Map.of("cores", Runtime.getRuntime().availableProcessors(), "cpu", HttpBench.cpu(),
                    "java", System.getProperty("java.version"), "memoryGb", Math.round(ScaleBench.totalMemoryGb())));
            out.put("ingestAndSearch", run);
            out.put("scale", scale);
            Map<String, Object> h = new LinkedHashMap<>();
            http.forEach((n, j) -> h.put(String.valueOf(n), j));
            out.put("http", h);
            out.put("targets", targets.stream().map(t -> Map.of("target", t.name(), "bound", t.bound(), "atMost",
                    t.atMost(), "measured", t.measured(), "met", t.met())).toList());
            Files.writeString(Path.of(opts.get("json")), JSON.writerWithDefaultPrettyPrinter().writeValueAsString(out));
            System.out.println("wrote " + opts.get("json"));
        }
    }

    /**
     * Every target of the performance issue the run's figures can check: {@code sizes} are the corpus sizes asked
     * for, in the order of {@code scale}'s (whose own counts are the chunks actually built, a few more); those up to
     * 100k are checked against the 10k and 100k targets, those of 1M and more against the 1M ones.
     */
    static List<Target> targets(JsonNode run, JsonNode scale, List<Long> sizes, Map<Long, JsonNode> http) {
        List<Target> out = new ArrayList<>();
        JsonNode ingest = run.path("ingest");
        out.add(new Target("ingest with vectors / the model alone on the same texts", 0.90, false,
                ingest.path("pipelineOverSameTexts").asDouble(), "x"));
        out.add(new Target("ingest, vectors off (BM25 only), chunks/s", 5000, false,
                ingest.path("vectorsOffChunksPerSecond").asDouble(), ""));
        for (int i = 0; i < sizes.size(); i++) {
            long n = sizes.get(i);
            JsonNode size = scale.path("sizes").path(i);
            String at = String.format(Locale.ROOT, "%,d chunks: ", size.path("chunks").asLong());
            JsonNode s = size.path("search");
            double hybrid = s.path("polyrag hybrid").path("p50Ms").asDouble();
            double floor = s.path("floor hybrid").path("p50Ms").asDouble();
            double deep = s.path("floor hybrid at polyrag's depth").path("p50Ms").asDouble();
            if (n <= HTTP_MAX_CHUNKS) {
                out.add(new Target(at + "in-process hybrid p50 / floor p50 (floor at top 10)", 1.15, true,
                        hybrid / floor, "x"));
                out.add(new Target(at + "in-process hybrid p50 / floor p50 (floor at polyrag's depth)", 1.15, true,
                        hybrid / deep, "x"));
            } else if (n >= 1_000_000) {
                out.add(new Target(at + "in-process hybrid p99 / floor p50", 3, true,
                        s.path("polyrag hybrid").path("p99Ms").asDouble() / floor, "x"));
                out.add(new Target(at + "peak resident memory, GB", 6, true,
                        size.path("peakResidentMb").asDouble() / 1024, ""));
                out.add(new Target(at + "opening the data directory, s", 10, true,
                        size.path("openSeconds").asDouble(), ""));
                out.add(new Target(at + "HNSW recall@10 against exact search", 0.95, false,
                        size.path("recall").path("recallAt10Candidates100").asDouble(), ""));
            }
            JsonNode h = http.get(n);
            if (h == null) {
                continue;
            }
            JsonNode hybrid1 = row(h, "hybrid", 1);
            JsonNode hybrid8 = row(h, "hybrid", 8);
            JsonNode text1 = row(h, "fulltext", 1);
            out.add(new Target(at + "HTTP hybrid p50 / floor p50, concurrency 1 (floor at top 10)", 1.3, true,
                    hybrid1.path("p50OverFloorP50").asDouble(), "x"));
            out.add(new Target(at + "HTTP hybrid p50 / floor p50, concurrency 1 (at polyrag's depth)", 1.3, true,
                    hybrid1.path("p50OverDepthFloorP50").asDouble(), "x"));
            out.add(new Target(at + "HTTP hybrid p99 / floor p99, concurrency 1", 2, true,
                    hybrid1.path("p99OverFloorP99").asDouble(), "x"));
            out.add(new Target(at + "HTTP hybrid QPS / floor's one-thread rate, concurrency 8", 1.5, false,
                    hybrid8.path("qpsOverFloorQps").asDouble(), "x"));
            out.add(new Target(at + "HTTP hybrid p99 / floor p50, concurrency 8", 4, true,
                    hybrid8.path("p99OverFloorP50").asDouble(), "x"));
            out.add(new Target(at + "HTTP full text p50 - raw BM25 p50, ms", 2, true,
                    text1.path("p50MinusFloorP50Ms").asDouble(), ""));
        }
        return out;
    }

    private static JsonNode row(JsonNode http, String run, int concurrency) {
        for (JsonNode r : http.path("http")) {
            if (r.path("run").asString().equals(run) && r.path("concurrency").asInt() == concurrency) {
                return r;
            }
        }
        throw new IllegalStateException("the HTTP run has no " + run + " figure at concurrency " + concurrency);
    }

    /** Runs {@code main} of {@code cls} in a fresh JVM with this one's class path, printing as it goes. */
    private static void child(Class<?> cls, String heap, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED", "-Xmx" + heap, "-cp",
                System.getProperty("java.class.path"), cls.getName()));
        cmd.addAll(List.of(args));
        System.out.printf("%n== %s %s%n%n", cls.getSimpleName(), String.join(" ", args));
        Process p = new ProcessBuilder(cmd).inheritIO().start();
        if (p.waitFor() != 0) {
            throw new IllegalStateException(cls.getSimpleName() + " failed (exit " + p.exitValue() + ")");
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
