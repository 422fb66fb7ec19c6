// style(file): one benchmark's whole procedure (corpora, rounds, floor), read top to bottom beside the numbers it prints
package io.polyrag.bench;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.store.embedding.EmbeddingSearchRequest;
import dev.langchain4j.store.embedding.inmemory.InMemoryEmbeddingStore;
import io.polyrag.app.Polyrag;
import io.polyrag.core.ConfigException;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.config.Config;
import io.polyrag.core.config.Settings;
import io.polyrag.core.model.IngestReport;
import io.polyrag.core.model.KnowledgeBase;
import io.polyrag.core.model.Modality;
import io.polyrag.core.model.SearchRequest;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.SourceItem;
import io.polyrag.core.model.StoreRecord;
import io.polyrag.core.port.Embedder;
import io.polyrag.core.port.ProgressListener;
import io.polyrag.eval.BeirDataset;
import io.polyrag.model.onnx.OnnxEmbedderProvider;
import io.polyrag.store.lucene.LuceneVectorStore;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.KnnVectorValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.Bits;
import tools.jackson.databind.json.JsonMapper;

/**
 * Search through the facade against the raw-library floor at 10k, 100k and 1M chunks, in one run:
 * {@code bench/scale --dataset DIR --chunks 10000,100000 [--work DIR] [--queries 500] [--rounds 3] [--threads 4]
 * [--json FILE]}.
 *
 * <p>Each size's corpus is generated deterministically from the dataset ({@link ScaleCorpus}: real passages spliced,
 * their real vectors mixed) and ingested through the facade once into {@code <work>/scale-<N>}, then reused by later
 * runs. Its search figures are taken in a fresh JVM: the time to open the data directory, then, in rounds that
 * alternate floor and polyrag, BM25 / vector / hybrid top 10 — the floor being the query embedded by the same model,
 * Lucene BM25 and Lucene HNSW searched directly on the same index files and a ten-line RRF; polyrag being
 * {@code Polyrag.search()} with the default settings — each over the same distinct queries, after a warm-up pass over
 * other queries; each figure is the median over the rounds. Then the throughput of a saturated process ({@code
 * --threads} searching at once, the floor and polyrag alternating), HNSW recall@10 against an exact scan, and the
 * process's resident memory.
 */
public final class ScaleBench {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String KB = "bench";
    private static final String USAGE = "bench/scale --dataset DIR --chunks 10000,100000[,1000000] [--work DIR] "
            + "[--queries 500] [--rounds 3] [--threads 4] [--heap 4g] [--quantization none,int7,int4,int1] [--seed 18] "
            + "[--set key=value,…] [--json FILE]";
    /** The LangChain4j peer scans every vector in plain Java for each query: measured up to this size. */
    private static final long PEER_MAX_CHUNKS = 200_000;

    private ScaleBench() {
    }

    /** Settings given with {@code --set key=value[,key=value…]}, over the defaults polyrag is measured with. */
    private static final Map<String, String> SET = new LinkedHashMap<>();

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = options(args);
        try {
            for (String kv : opts.getOrDefault("set", "").split(",")) {
                if (!kv.isBlank()) {
                    int eq = kv.indexOf('=');
                    if (eq < 1) {
                        throw new IllegalArgumentException("--set takes key=value[,key=value…], was " + kv);
                    }
                    SET.put(kv.substring(0, eq).strip(), kv.substring(eq + 1).strip());
                }
            }
            // Checked here, before any phase starts: a setting that does not exist fails in one line.
            Config.load(Map.of(), SET);
            switch (opts.getOrDefault("phase", "all")) {
                case "build" -> build(opts, Long.parseLong(opts.get("chunks")));
                case "search" -> search(opts, Long.parseLong(opts.get("chunks")));
                default -> all(opts);
            }
        } catch (NumberFormatException e) {
            System.err.println("bench/scale: --chunks, --queries, --rounds, --threads and --seed take whole numbers (--chunks also "
                    + "10k, 1m): " + e.getMessage());
            System.exit(2);
        } catch (IllegalArgumentException | IllegalStateException | InvalidInputException
                | ConfigException e) {
            System.err.println("bench/scale: " + e.getMessage());
            System.exit(2);
        }
    }

    private static void all(Map<String, String> opts) throws Exception {
        List<Long> sizes = Arrays.stream(require(opts, "chunks").split(",")).map(String::strip)
                .map(s -> s.toLowerCase(Locale.ROOT).replace("k", "000").replace("m", "000000"))
                .map(Long::valueOf).toList();
        Path work = work(opts);
        // Checked here, before any phase starts: a bad dataset or count fails in one line, not after a build.
        BeirDataset.load(Path.of(require(opts, "dataset")));
        for (String k : List.of("queries", "rounds")) {
            if (opts.containsKey(k) && Integer.parseInt(opts.get(k)) < 1) {
                throw new IllegalArgumentException("--" + k + " must be at least 1, was " + opts.get(k));
            }
        }
        if (opts.containsKey("threads") && Integer.parseInt(opts.get("threads")) < 0) {
            throw new IllegalArgumentException("--threads must be 0 (skip) or more, was " + opts.get("threads"));
        }
        List<Map<String, Object>> results = new ArrayList<>();
        for (long n : sizes) {
            if (!built(work, n)) {
                child(opts, "build", n, null);
            }
            Path part = work.resolve("scale-" + n + ".json");
            child(opts, "search", n, part);
            @SuppressWarnings("unchecked")
            Map<String, Object> r = JSON.readValue(part.toFile(), Map.class);
            results.add(r);
        }
        summary(results);
        if (opts.containsKey("json")) {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("machine", Map.of("cores", Runtime.getRuntime().availableProcessors(), "cpu", HttpBench.cpu(),
                    "java", System.getProperty("java.version"), "memoryGb", Math.round(totalMemoryGb())));
            out.put("sizes", results);
            Files.writeString(Path.of(opts.get("json")), JSON.writerWithDefaultPrettyPrinter().writeValueAsString(out));
        }
    }

    /** Runs one phase in a fresh JVM with this one's options, printing as it goes. */
    private static void child(Map<String, String> opts, String phase, long n, Path json) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED",
                "-Xmx" + opts.getOrDefault("heap", "4g"), "-cp", System.getProperty("java.class.path"),
                ScaleBench.class.getName()));
        Map<String, String> o = new LinkedHashMap<>(opts);
        o.put("phase", phase);
        o.put("chunks", Long.toString(n));
        o.put("work", work(opts).toString());
        o.remove("json");
        if (json != null) {
            o.put("json", json.toString());
        }
        o.forEach((k, v) -> cmd.addAll(List.of("--" + k, v)));
        Process p = new ProcessBuilder(cmd).inheritIO().start();
        if (p.waitFor() != 0) {
            throw new IllegalStateException("the " + phase + " phase at " + n + " chunks failed (exit " + p.exitValue()
                    + ")");
        }
    }

    private static Path work(Map<String, String> opts) {
        return Path.of(opts.getOrDefault("work", Path.of(System.getProperty("java.io.tmpdir"), "polyrag-scale")
                .toString())).toAbsolutePath();
    }

    private static boolean built(Path work, long n) throws IOException {
        return Files.exists(work.resolve("scale-" + n).resolve("polyrag-scale.properties"));
    }

    /**
     * The product's defaults but for what a benchmark must not measure (the query cache, background workers); the
     * graph and RDF stores on with {@code arms} (the default build, to measure them beside two legs), else off.
     */
    private static Config config(Path data, boolean replay, boolean arms) {
        Map<String, String> s = new LinkedHashMap<>(Map.of(Settings.DATA_DIR.key(), data.toString(),
                Settings.INGEST_WORKERS.key(), "0", Settings.INGEST_DUPLICATES.key(), "allow",
                Settings.EMBEDDING_QUERY_CACHE.key(), "0"));
        s.put(Settings.GRAPH_ENABLED.key(), Boolean.toString(arms));
        s.put(Settings.RDF_ENABLED.key(), Boolean.toString(arms));
        if (replay) {
            s.put(Settings.EMBEDDING_PROVIDER.key(), "bench-replay");
        }
        s.putAll(SET);
        return Config.load(Map.of(), s);
    }

    private static ScaleCorpus corpus(Map<String, String> opts, Config config) {
        BeirDataset ds = BeirDataset.load(Path.of(require(opts, "dataset")));
        long seed = Long.parseLong(opts.getOrDefault("seed", "18"));
        try (Embedder model = OnnxEmbedderProvider.open(config)) {
            return ScaleCorpus.of(ds, model, work(opts).resolve("base-" + ds.name() + "-"
                    + Integer.toHexString(model.modelId().hashCode()) + ".f32"), seed);
        }
    }

    /** Ingests the generated corpus of {@code n} documents (one chunk each) through the facade. */
    private static void build(Map<String, String> opts, long n) throws IOException {
        Path data = work(opts).resolve("scale-" + n);
        if (Files.exists(data)) {
            try (var files = Files.walk(data)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
        boolean arms = !"false".equals(opts.get("arms"));
        Config config = config(data, true, arms);
        ReplayEmbedderProvider.corpus = corpus(opts, config);
        System.out.printf(Locale.ROOT, "building %,d chunks in %s (%,d base passages)%n", n, data,
                ReplayEmbedderProvider.corpus.basePassages());
        int slice = 20_000;
        long chunks = 0;
        long failed = 0;
        long t0 = System.nanoTime();
        try (Polyrag p = Polyrag.open(config)) {
            for (long from = 0; from < n; from += slice) {
                List<SourceItem> items = new ArrayList<>();
                for (long i = from; i < Math.min(n, from + slice); i++) {
                    items.add(ReplayEmbedderProvider.corpus.item(i));
                }
                IngestReport r = p.ingest().items(items, KnowledgeBase.of(KB), ProgressListener.NONE);
                chunks += r.chunks();
                failed += r.failed();
                double s = (System.nanoTime() - t0) / 1e9;
                System.out.printf(Locale.ROOT, "  %,d documents, %,d chunks, %.0f s, %.0f chunks/s%n",
                        Math.min(n, from + slice), chunks, s, chunks / s);
            }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        Properties props = new Properties();
        props.setProperty("documents", Long.toString(n));
        props.setProperty("arms", Boolean.toString(arms));
        props.setProperty("chunks", Long.toString(chunks));
        props.setProperty("failed", Long.toString(failed));
        props.setProperty("seconds", String.format(Locale.ROOT, "%.1f", seconds));
        props.setProperty("bytes", Long.toString(size(data)));
        try (Writer w = Files.newBufferedWriter(data.resolve("polyrag-scale.properties"), StandardCharsets.UTF_8)) {
            props.store(w, "bench/scale: a complete build");
        }
    }

    // style: one measured phase: the floor and every mode interleaved in rounds, then the medians
    private static void search(Map<String, String> opts, long n) throws IOException {
        Path data = work(opts).resolve("scale-" + n);
        Properties built = new Properties();
        try (Reader r = Files.newBufferedReader(data.resolve("polyrag-scale.properties"), StandardCharsets.UTF_8)) {
            built.load(r);
        }
        BeirDataset ds = BeirDataset.load(Path.of(require(opts, "dataset")));
        int q = Integer.parseInt(opts.getOrDefault("queries", "500"));
        int rounds = Integer.parseInt(opts.getOrDefault("rounds", "3"));
        List<String> all = HttpBench.distinct(new ArrayList<>(ds.queries().values()), 12_000);
        if (q < 1 || rounds < 1 || 2 * q + 200 > all.size()) {
            throw new IllegalArgumentException("--queries must be in [1, " + (all.size() - 200) / 2 + "] for this "
                    + "dataset's " + all.size() + " distinct queries (measured, warm-up and recall sets never "
                    + "overlap), and --rounds at least 1");
        }
        List<String> warm = all.subList(all.size() - q, all.size());
        List<String> measured = all.subList(0, q);
        boolean arms = !"false".equals(built.getProperty("arms", "false"));
        Config config = config(data, false, arms);

        Map<String, Object> out = new LinkedHashMap<>();
        out.put("chunks", Long.parseLong(built.getProperty("chunks")));
        out.put("buildSeconds", Double.parseDouble(built.getProperty("seconds")));
        out.put("buildChunksPerSecond", Long.parseLong(built.getProperty("chunks"))
                / Double.parseDouble(built.getProperty("seconds")));
        out.put("diskMb", Long.parseLong(built.getProperty("bytes")) / 1e6);
        long t0 = System.nanoTime();
        try (Polyrag p = Polyrag.open(config)) {
            out.put("openSeconds", (System.nanoTime() - t0) / 1e9);
            long t1 = System.nanoTime();
            p.search().run(SearchRequest.of(warm.get(0), 10));
            out.put("firstSearchMs", (System.nanoTime() - t1) / 1e6);
            try (Floor floor = new Floor(config, data)) {
                Map<String, Consumer<String>> runs = new LinkedHashMap<>();
                runs.put("floor bm25", floor::bm25);
                runs.put("polyrag fulltext", s -> p.search().run(request(s, Set.of(Modality.FULLTEXT))));
                runs.put("floor vector", floor::vector);
                runs.put("polyrag vector", s -> p.search().run(request(s, Set.of(Modality.VECTOR))));
                runs.put("floor hybrid", floor::hybrid);
                int depth = config.get(Settings.SEARCH_CANDIDATES);
                runs.put("floor hybrid at polyrag's depth", s -> floor.hybridAtDepth(s, depth));
                runs.put("polyrag hybrid", s -> p.search().run(request(s, Set.of(Modality.VECTOR,
                        Modality.FULLTEXT))));
                List<String> named = List.of();
                if (arms) {
                    // Every leg, graph and RDF included, as a user who turns the arms on gets. Over the dataset's
                    // queries (few name an entity the graph knows) and over queries naming one, made from the graph's
                    // own entities.
                    runs.put("polyrag four legs", s -> p.search().run(request(s, Set.of())));
                    named = entityQueries(p, 2 * q);
                    out.put("entityQueries", named.size());
                }
                List<String> namedMeasured = named.subList(0, named.size() / 2);
                List<String> namedWarm = named.subList(named.size() / 2, named.size());
                if (n <= PEER_MAX_CHUNKS) {
                    // LangChain4j's in-memory store (an exact scan in plain Java) over the same vectors, the query
                    // embedded by the same model: the vector search most JVM RAG applications start from.
                    var peer = floor.langchain4j();
                    runs.put("langchain4j vector", s -> peer.search(EmbeddingSearchRequest
                            .builder().queryEmbedding(Embedding.from(
                                    floor.model.embedQuery(s))).maxResults(10).build()));
                }
                Map<String, Consumer<String>> namedRuns = new LinkedHashMap<>();
                if (!namedMeasured.isEmpty()) {
                    namedRuns.put("floor hybrid, entity queries", floor::hybrid);
                    namedRuns.put("polyrag hybrid, entity queries", runs.get("polyrag hybrid"));
                    namedRuns.put("polyrag four legs, entity queries", runs.get("polyrag four legs"));
                    namedRuns.put("polyrag graph leg, entity queries", s -> p.search().run(request(s, Set.of(
                            Modality.GRAPH))));
                    namedRuns.put("polyrag rdf leg, entity queries", s -> p.search().run(request(s, Set.of(
                            Modality.RDF))));
                }
                // Until the JIT has settled (polyrag's search runs far more code than the floor's library calls).
                Warmth.untilQuiet("every run", () -> {
                    runs.values().forEach(warm::forEach);
                    namedRuns.values().forEach(namedWarm::forEach);
                }, Warmth::thisJvm, 1, 180);
                Map<String, List<long[]>> times = new LinkedHashMap<>();
                for (int r = 0; r < rounds; r++) {
                    runs.forEach((name, run) -> times.computeIfAbsent(name, k -> new ArrayList<>())
                            .add(timed(measured, run)));
                    namedRuns.forEach((name, run) -> times.computeIfAbsent(name, k -> new ArrayList<>())
                            .add(timed(namedMeasured, run)));
                }
                Map<String, Object> figures = new LinkedHashMap<>();
                times.forEach((name, ts) -> figures.put(name, Map.of("p50Ms", median(ts, 0.5), "p99Ms",
                        median(ts, 0.99), "qps", medianQps(ts))));
                out.put("search", figures);
                int threads = Integer.parseInt(opts.getOrDefault("threads", "4"));
                if (threads > 0) {
                    // A saturated process: the floor and polyrag each searched by `threads` threads at once, in
                    // rounds that alternate them; the medians of the rounds.
                    Map<String, Consumer<String>> busy = new LinkedHashMap<>();
                    busy.put("floor hybrid", floor::hybrid);
                    busy.put("polyrag hybrid", runs.get("polyrag hybrid"));
                    if (arms) {
                        busy.put("polyrag four legs", runs.get("polyrag four legs"));
                    }
                    Map<String, List<Double>> rates = new LinkedHashMap<>();
                    for (int r = 0; r < rounds; r++) {
                        busy.forEach((name, run) -> rates.computeIfAbsent(name, k -> new ArrayList<>())
                                .add(Bench.concurrent(measured, run, threads, 5)));
                    }
                    Map<String, Object> saturated = new LinkedHashMap<>(Map.of("threads", threads));
                    rates.forEach((name, qps) -> saturated.put(name, qps.stream().sorted().toList()
                            .get(qps.size() / 2)));
                    out.put("saturated", saturated);
                }
                out.put("recall", floor.recall(all.subList(q, q + 200)));
                if (opts.containsKey("quantization")) {
                    out.put("quantization", floor.quantized(work(opts).resolve("quantized-" + n), opts.get(
                            "quantization").split(","), all.subList(q, q + 200)));
                }
            }
            out.put("residentMb", status("VmRSS"));
            out.put("peakResidentMb", status("VmHWM"));
            System.gc();
            out.put("heapUsedMb", (Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory()) / 1e6);
        }
        Files.writeString(Path.of(require(opts, "json")), JSON.writeValueAsString(out));
    }

    /**
     * Questions naming the graph's entities ("What is known about Borealis Instruments?"): the names most mentioned,
     * from the graph itself, up to {@code n}, in a seeded order.
     */
    static List<String> entityQueries(Polyrag p, int n) {
        LinkedHashSet<String> names = new LinkedHashSet<>();
        for (char c : "aeioun".toCharArray()) {
            p.graph().find(String.valueOf(c), 1000).forEach(h -> names.add(h.entity().name()));
        }
        List<String> out = new ArrayList<>();
        String[] forms = {"What is known about %s?", "Who is behind %s?", "Where is %s?", "%s and its work"};
        int i = 0;
        for (String name : names) {
            out.add(String.format(Locale.ROOT, forms[i++ % forms.length], name));
        }
        Collections.shuffle(out, new Random(18));
        return out.subList(0, Math.min(n, out.size()) / 2 * 2);
    }

    private static SearchRequest request(String q, Set<Modality> modalities) {
        return new SearchRequest(q, 10, List.of(), modalities, null);
    }

    static long[] timed(List<String> qs, Consumer<String> run) {
        long[] t = new long[qs.size()];
        for (int i = 0; i < t.length; i++) {
            long t0 = System.nanoTime();
            run.accept(qs.get(i));
            t[i] = System.nanoTime() - t0;
        }
        Arrays.sort(t);
        return t;
    }

    static double median(List<long[]> rounds, double pct) {
        double[] v = rounds.stream().mapToDouble(t -> Bench.pct(t, pct)).sorted().toArray();
        return v[v.length / 2];
    }

    static double medianQps(List<long[]> rounds) {
        double[] v = rounds.stream().mapToDouble(t -> t.length / (Arrays.stream(t).sum() / 1e9)).sorted().toArray();
        return v[v.length / 2];
    }

    /** The raw libraries on the data directory's own index files, as bench/http's floor. */
    static final class Floor implements AutoCloseable {
        private final DirectoryReader text;
        private final DirectoryReader vectors;
        final Embedder model;
        private final IndexSearcher bm25;
        private final IndexSearcher knn;
        private final Analyzer analyzer = new EnglishAnalyzer();

        Floor(Config config, Path data) throws IOException {
            text = DirectoryReader.open(FSDirectory.open(data.resolve("fulltext")));
            vectors = DirectoryReader.open(FSDirectory.open(HttpBench.vectorDir(data)));
            model = OnnxEmbedderProvider.open(config);
            bm25 = new IndexSearcher(text);
            bm25.setSimilarity(new BM25Similarity(config.get(Settings.BM25_K1).floatValue(),
                    config.get(Settings.BM25_B).floatValue()));
            knn = new IndexSearcher(vectors);
        }

        List<String> bm25(String q) {
            return HttpBench.ids(bm25, HttpBench.bm25(analyzer, q), 10);
        }

        List<String> vector(String q) {
            return HttpBench.ids(knn, new KnnFloatVectorQuery("vector", model.embedQuery(q), 20), 10);
        }

        List<String> hybrid(String q) {
            return HttpBench.rrf(vector(q), bm25(q));
        }

        /**
         * The floor with polyrag's parameters: each leg's top {@code depth} (HNSW asked for {@code depth}), their ids
         * from doc values, the two lists fused by the same RRF and cut to the top 10.
         */
        List<String> hybridAtDepth(String q, int depth) {
            List<String> fused = HttpBench.rrf(HttpBench.idsFromDocValues(knn, new KnnFloatVectorQuery("vector",
                    model.embedQuery(q), depth), depth), HttpBench.idsFromDocValues(bm25, HttpBench.bm25(analyzer, q),
                    depth));
            return fused.subList(0, Math.min(10, fused.size()));
        }

        /** HNSW top 10 against an exact scan's, with the floor's 20 candidates and polyrag's 100. */
        Map<String, Object> recall(List<String> queries) throws IOException {
            double[] sums = new double[2];
            int[] ks = {20, 100};
            for (String q : queries) {
                float[] v = model.embedQuery(q);
                Set<Integer> exact = exact(v, 10);
                for (int i = 0; i < ks.length; i++) {
                    int found = 0;
                    for (ScoreDoc d : knn.search(new KnnFloatVectorQuery("vector", v, ks[i]), 10).scoreDocs) {
                        found += exact.contains(d.doc) ? 1 : 0;
                    }
                    sums[i] += found / 10.0;
                }
            }
            return Map.of("queries", queries.size(), "recallAt10Candidates20", sums[0] / queries.size(),
                    "recallAt10Candidates100", sums[1] / queries.size());
        }

        /** Every live vector of the index with its chunk id. */
        private List<StoreRecord> records() throws IOException {
            List<StoreRecord> records = new ArrayList<>();
            for (LeafReaderContext leaf : vectors.leaves()) {
                FloatVectorValues values = leaf.reader().getFloatVectorValues("vector");
                if (values == null) {
                    continue;
                }
                Bits live = leaf.reader().getLiveDocs();
                var fields = leaf.reader().storedFields();
                KnnVectorValues.DocIndexIterator it = values.iterator();
                for (int doc = it.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = it.nextDoc()) {
                    if (live == null || live.get(doc)) {
                        String id = fields.document(doc, Set.of("chunk_id")).get("chunk_id");
                        records.add(new StoreRecord(id, id, 1, "kb", "",
                                values.vectorValue(it.index()).clone()));
                    }
                }
            }
            return records;
        }

        /** LangChain4j's in-memory embedding store holding this index's vectors (under its own ids). */
        InMemoryEmbeddingStore<TextSegment>
                langchain4j() throws IOException {
            var store = new InMemoryEmbeddingStore<
                    TextSegment>();
            List<StoreRecord> records = records();
            store.addAll(records.stream().map(r -> Embedding.from(r.vector())).toList());
            return store;
        }

        /**
         * The product's vector store ({@code LuceneVectorStore}, HNSW always) built from this index's vectors with
         * each quantisation: build time, size on disk, recall@10 against the exact scan, search p50 (query vectors
         * embedded beforehand, so the figure is the store's alone).
         */
        Map<String, Object> quantized(Path root, String[] kinds, List<String> queries) throws IOException {
            List<StoreRecord> records = records();
            List<float[]> qv = queries.stream().map(model::embedQuery).toList();
            List<Set<String>> exact = new ArrayList<>();
            var stored = vectors.storedFields();
            for (float[] v : qv) {
                Set<String> ids = new HashSet<>();
                for (int doc : exact(v, 10)) {
                    ids.add(stored.document(doc, Set.of("chunk_id")).get("chunk_id"));
                }
                exact.add(ids);
            }
            Map<String, Object> out = new LinkedHashMap<>();
            for (String kind : kinds) {
                var q = LuceneVectorStore.Quantization.of(kind.strip());
                Path dir = root.resolve(kind.strip());
                // A folder is reused only when its build finished (a crashed run's is built again).
                boolean fresh = !Files.exists(dir.resolve("complete"));
                if (fresh && Files.exists(dir)) {
                    try (var files = Files.walk(dir)) {
                        files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
                    }
                }
                long t0 = System.nanoTime();
                try (var store = new LuceneVectorStore(dir, model.dimension(),
                        model.modelId(), 0, q)) {
                    if (fresh) {
                        for (int i = 0; i < records.size(); i += 10_000) {
                            store.upsert(records.subList(i, Math.min(records.size(), i + 10_000)));
                        }
                        Files.writeString(dir.resolve("complete"), "");
                    }
                    double build = (System.nanoTime() - t0) / 1e9;
                    double recall = 0;
                    qv.forEach(v -> store.search(v, SearchScope.ALL, 10));
                    long[] t = new long[qv.size()];
                    for (int i = 0; i < qv.size(); i++) {
                        long s0 = System.nanoTime();
                        var hits = store.search(qv.get(i), SearchScope.ALL, 10);
                        t[i] = System.nanoTime() - s0;
                        Set<String> e = exact.get(i);
                        recall += hits.stream().filter(h -> e.contains(h.chunkId())).count() / 10.0;
                    }
                    Arrays.sort(t);
                    Map<String, Object> r = new LinkedHashMap<>();
                    if (fresh) {
                        r.put("buildSeconds", build);
                    }
                    r.put("diskMb", size(dir) / 1e6);
                    r.put("recallAt10", recall / qv.size());
                    r.put("searchP50Ms", Bench.pct(t, 0.5));
                    r.put("searchP99Ms", Bench.pct(t, 0.99));
                    out.put(kind.strip(), r);
                    System.out.printf(Locale.ROOT, "  vector store, %s: recall@10 %.3f, p50 %.2f ms, %.0f MB%n", kind,
                            recall / qv.size(), Bench.pct(t, 0.5), size(dir) / 1e6);
                }
            }
            return out;
        }

        private Set<Integer> exact(float[] query, int k) throws IOException {
            PriorityQueue<ScoreDoc> heap = new PriorityQueue<>((a, b) -> Float.compare(a.score,
                    b.score));
            for (LeafReaderContext leaf : vectors.leaves()) {
                FloatVectorValues values = leaf.reader().getFloatVectorValues("vector");
                if (values == null) {
                    continue;
                }
                Bits live = leaf.reader().getLiveDocs();
                KnnVectorValues.DocIndexIterator it = values.iterator();
                for (int doc = it.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = it.nextDoc()) {
                    if (live != null && !live.get(doc)) {
                        continue;
                    }
                    float s = VectorSimilarityFunction.COSINE.compare(query, values.vectorValue(it.index()));
                    if (heap.size() < k) {
                        heap.add(new ScoreDoc(leaf.docBase + doc, s));
                    } else if (s > heap.peek().score) {
                        heap.poll();
                        heap.add(new ScoreDoc(leaf.docBase + doc, s));
                    }
                }
            }
            Set<Integer> out = new HashSet<>();
            heap.forEach(d -> out.add(d.doc));
            return out;
        }

        @Override
        public void close() throws IOException {
            model.close();
            text.close();
            vectors.close();
        }
    }

    /** The throughput of a saturated process per size, against the floor's one-thread rate. */
    private static void saturated(List<Map<String, Object>> results) {
        for (Map<String, Object> r : results) {
            @SuppressWarnings("unchecked")
            Map<String, Object> busy = (Map<String, Object>) r.get("saturated");
            @SuppressWarnings("unchecked")
            Map<String, Map<String, Double>> s = (Map<String, Map<String, Double>>) r.get("search");
            if (busy == null || s == null) {
                continue;
            }
            double one = s.get("floor hybrid").get("qps");
            System.out.printf(Locale.ROOT, "%n  %,d chunks, %s threads searching at once (searches/s, median of the "
                    + "rounds; x the floor's one-thread rate %.1f)%n", ((Number) r.get("chunks")).longValue(),
                    busy.get("threads"), one);
            busy.forEach((name, qps) -> {
                if (!name.equals("threads")) {
                    System.out.printf(Locale.ROOT, "  %-31s %8.1f %8.2fx%n", name, ((Number) qps).doubleValue(),
                            ((Number) qps).doubleValue() / one);
                }
            });
        }
    }

    private static void summary(List<Map<String, Object>> results) {
        System.out.printf("%nsearch, top 10, in process (median of the rounds)%n");
        System.out.println("  chunks      run                 p50 ms   p99 ms      qps   p50/floor   p99/floor");
        for (Map<String, Object> r : results) {
            @SuppressWarnings("unchecked")
            Map<String, Map<String, Double>> s = (Map<String, Map<String, Double>>) r.get("search");
            for (String[] pair : new String[][] {{"fulltext", "bm25"}, {"vector", "vector"}, {"hybrid", "hybrid"}}) {
                Map<String, Double> f = s.get("floor " + pair[1]);
                Map<String, Double> p = s.get("polyrag " + pair[0]);
                System.out.printf(Locale.ROOT, "  %,10d  floor %-13s %8.2f %8.2f %8.1f%n", ((Number) r.get("chunks"))
                        .longValue(), pair[1], f.get("p50Ms"), f.get("p99Ms"), f.get("qps"));
                System.out.printf(Locale.ROOT, "  %10s  polyrag %-11s %8.2f %8.2f %8.1f %11.2f %11.2f%n", "", pair[0],
                        p.get("p50Ms"), p.get("p99Ms"), p.get("qps"), p.get("p50Ms") / f.get("p50Ms"),
                        p.get("p99Ms") / f.get("p99Ms"));
            }
            Map<String, Double> deep = s.get("floor hybrid at polyrag's depth");
            if (deep != null) {
                Map<String, Double> p = s.get("polyrag hybrid");
                System.out.printf(Locale.ROOT, "  %10s  floor hybrid, polyrag's depth %8.2f %8.2f %8.1f   (polyrag hybrid "
                        + "%.2f / %.2f of it)%n", "", deep.get("p50Ms"), deep.get("p99Ms"), deep.get("qps"),
                        p.get("p50Ms") / deep.get("p50Ms"), p.get("p99Ms") / deep.get("p99Ms"));
            }
            for (String[] pair : new String[][] {{"polyrag four legs", "floor hybrid"}, {"polyrag hybrid, entity queries",
                    "floor hybrid, entity queries"}, {"polyrag four legs, entity queries", "floor hybrid, entity queries"},
                    {"polyrag graph leg, entity queries", null}, {"polyrag rdf leg, entity queries", null}}) {
                Map<String, Double> p = s.get(pair[0]);
                if (p == null) {
                    continue;
                }
                Map<String, Double> f = pair[1] == null ? null : s.get(pair[1]);
                if (f != null && pair[1].endsWith("entity queries") && pair[0].startsWith("polyrag hybrid")) {
                    System.out.printf(Locale.ROOT, "  %10s  %-31s %8.2f %8.2f %8.1f%n", "", pair[1], f.get("p50Ms"),
                            f.get("p99Ms"), f.get("qps"));
                }
                System.out.printf(Locale.ROOT, "  %10s  %-31s %8.2f %8.2f %8.1f %11s %11s%n", "", pair[0],
                        p.get("p50Ms"), p.get("p99Ms"), p.get("qps"), f == null ? "" : String.format(Locale.ROOT,
                        "%.2f", p.get("p50Ms") / f.get("p50Ms")), f == null ? "" : String.format(Locale.ROOT, "%.2f",
                        p.get("p99Ms") / f.get("p99Ms")));
            }
            Map<String, Double> peer = s.get("langchain4j vector");
            if (peer != null) {
                Map<String, Double> f = s.get("floor vector");
                System.out.printf(Locale.ROOT, "  %10s  langchain4j vector  %8.2f %8.2f %8.1f %11.2f %11.2f%n", "",
                        peer.get("p50Ms"), peer.get("p99Ms"), peer.get("qps"), peer.get("p50Ms") / f.get("p50Ms"),
                        peer.get("p99Ms") / f.get("p99Ms"));
            }
        }
        saturated(results);
        System.out.printf("%n  chunks      build s  chunks/s   disk MB   open s   first search ms   RSS MB   "
                + "recall@10 (20 / 100 candidates)%n");
        for (Map<String, Object> r : results) {
            @SuppressWarnings("unchecked")
            Map<String, Number> rec = (Map<String, Number>) r.get("recall");
            System.out.printf(Locale.ROOT, "  %,10d %8.0f %9.0f %9.0f %8.2f %17.1f %8.0f   %.3f / %.3f%n",
                    ((Number) r.get("chunks")).longValue(), num(r, "buildSeconds"), num(r, "buildChunksPerSecond"),
                    num(r, "diskMb"), num(r, "openSeconds"), num(r, "firstSearchMs"), num(r, "peakResidentMb"),
                    rec.get("recallAt10Candidates20").doubleValue(), rec.get("recallAt10Candidates100").doubleValue());
        }
    }

    private static double num(Map<String, Object> r, String k) {
        return ((Number) r.get(k)).doubleValue();
    }

    private static double status(String field) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith(field + ":")) {
                return Long.parseLong(line.replaceAll("\\D", "")) / 1024.0;
            }
        }
        return -1;
    }

    static double totalMemoryGb() {
        try {
            return status("VmRSS") >= 0 ? Files.readAllLines(Path.of("/proc/meminfo")).stream()
                    .filter(l -> l.startsWith("MemTotal")).mapToLong(l -> Long.parseLong(l.replaceAll("\\D", "")))
                    .findFirst().orElse(0) / 1024.0 / 1024.0 : 0;
        } catch (IOException e) {
            return 0;
        }
    }

    private static long size(Path dir) throws IOException {
        try (var files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
        }
    }

    private static String require(Map<String, String> opts, String key) {
        String v = opts.get(key);
        if (v == null) {
            throw new IllegalArgumentException("--" + key + " is required: " + USAGE);
        }
        return v;
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            m.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        if (args.length % 2 != 0 || m.isEmpty() || args[0].equals("--help")) {
            System.err.println("usage: " + USAGE);
            System.exit(2);
        }
        return m;
    }
}
