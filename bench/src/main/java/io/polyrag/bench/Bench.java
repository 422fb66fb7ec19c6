package io.polyrag.bench;

import io.polyrag.app.Polyrag;
import io.polyrag.core.config.Config;
import io.polyrag.core.config.Settings;
import io.polyrag.core.model.Chunk;
import io.polyrag.core.model.IngestReport;
import io.polyrag.core.model.KnowledgeBase;
import io.polyrag.core.model.Modality;
import io.polyrag.core.model.SearchRequest;
import io.polyrag.core.port.Embedder;
import io.polyrag.core.port.ProgressListener;
import io.polyrag.eval.BeirDataset;
import io.polyrag.eval.Evaluation;
import io.polyrag.model.onnx.CrossEncoderReranker;
import io.polyrag.model.onnx.OnnxEmbedderProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import tools.jackson.databind.json.JsonMapper;

/**
 * Ingest and search throughput and latency of the embedded stack, each beside a named baseline measured in the same
 * run on the same data:
 * <ul>
 *   <li><b>ingest</b> against <i>embedder only</i>: the same model and threads over each document's text, and over
 *       exactly the chunk texts the pipeline embedded, in the same lists (recorded from its embedder), with nothing
 *       parsed, chunked, stored or committed — the floor the pipeline's overhead is measured from; the measured
 *       ingest follows a warm-up ingest of other documents, so the JIT has compiled the pipeline (the warm-up's own
 *       rate is printed as the fresh-JVM figure); the same documents with vectors off (BM25 only, after one
 *       unmeasured pass); with {@code --graph true} also against the same documents into vector and full text
 *       only;</li>
 *   <li><b>search</b> against the <i>floor</i>: the query embedded by the same model, the data directory's own Lucene
 *       indexes searched directly for the top 10 (HNSW, BM25) and fused by a ten-line RRF — what the searcher adds
 *       (deeper legs, catalog join, fusion, dedup) is the difference; full text alone against BM25 alone. Rounds
 *       alternate every run (warmed on other queries first); each figure is the median over the rounds. The query
 *       vector cache is off for all of them, and measured apart: the same queries asked again.</li>
 * </ul>
 * Usage: {@code bench/run --dataset DIR [--docs N] [--queries N] [--rounds 5] [--work DIR] [--graph true]
 * [--rerank-model DIR] [--json FILE]}; {@code --json} also writes the figures, their ratios and the machine;
 * with {@code --graph true} the graph and RDF arms are on (offline extraction at ingest, their legs in the hybrid
 * search) and timed alone too; with {@code --rerank-model} a cross-encoder (model.onnx, tokenizer.json) reranks the
 * fused candidates of the first 50 queries, its pairs spread over the cores against the baseline of one pair at a
 * time, and the search with reranking is timed through the facade.
 */
public final class Bench {
    private static final JsonMapper JSON =
            JsonMapper.builder().build();
    /** Documents of the warm-up ingest that runs before the measured one (see {@link #main}). */
    private static final int WARM_UP_DOCS = 1000;
    private Bench() {
    }

    /**
     * The folder {@code --work} names, or a new temporary one: refused when it already holds files, as every
     * document ingested into it again is "unchanged" and the ingest figures would measure nothing (0 docs/s, or a
     * rate of skipped documents).
     */
    static Path freshWork(String work, String prefix) throws IOException {
        if (work == null) {
            return Files.createTempDirectory(prefix);
        }
        Path dir = Path.of(work);
        if (Files.isDirectory(dir)) {
            try (var entries = Files.list(dir)) {
                if (entries.findAny().isPresent()) {
                    throw new IllegalArgumentException("--work " + dir + " is not empty: the ingest figures are of "
                            + "fresh folders; name a new or empty folder (or delete this one)");
                }
            }
        }
        return dir;
    }

    // style: a benchmark script: options, then each phase in order, as its usage line reads
    public static void main(String[] args) throws IOException {
        Map<String, String> opts = options(args);
        Path dataset = Path.of(opts.getOrDefault("dataset", ""));
        int docs = Integer.parseInt(opts.getOrDefault("docs", "1000"));
        int queries = Integer.parseInt(opts.getOrDefault("queries", "200"));
        Path work = freshWork(opts.get("work"), "polyrag-bench");
        BeirDataset ds = BeirDataset.load(dataset);
        List<BeirDataset.Doc> corpus = ds.corpus().values().stream().limit(docs).toList();
        List<String> qs = ds.queries().values().stream().limit(queries).toList();
        boolean graph = Boolean.parseBoolean(opts.getOrDefault("graph", "false"));
        Map<String, String> settings = Map.of(Settings.DATA_DIR.key(), work.toString(),
                Settings.INGEST_WORKERS.key(), "0", Settings.GRAPH_ENABLED.key(), Boolean.toString(graph),
                Settings.RDF_ENABLED.key(), Boolean.toString(graph), Settings.INGEST_DUPLICATES.key(), "allow",
                // The timed searches warm up on queries they then measure: none may come from remembered vectors.
                Settings.EMBEDDING_QUERY_CACHE.key(), "0");
        Config config = Config.load(Map.of(), settings);
        System.out.printf(Locale.ROOT, "polyrag bench: %s, %d documents, %d queries, %d cores, work dir %s%n%n",
                ds.name(), corpus.size(), qs.size(), Runtime.getRuntime().availableProcessors(), work);

        double embedOnly = embedderOnly(config, corpus);
        // A fresh JVM compiles the pipeline's code while it runs its first documents (parsing, chunking, the stores,
        // the catalog): about nine core-seconds of JIT on two cores, taken from the model. A first ingest of other
        // documents into a throwaway directory does that first, so the figures are the pipeline's steady state; its
        // own rate is printed too.
        List<BeirDataset.Doc> warm = ds.corpus().values().stream().skip(docs).limit(WARM_UP_DOCS).toList();
        IngestReport cold = ingest(settings, work.resolve("warm-up"), warm.isEmpty()
                ? corpus.stream().limit(WARM_UP_DOCS).toList() : warm, Map.of());
        // The cost of the graph and RDF arms at ingest: the same documents into vector and full text only, once
        // before and once after the measured ingest (the JIT is still warming either way: the mean is fair to both).
        Map<String, String> twoStores = Map.of(Settings.GRAPH_ENABLED.key(), "false", Settings.RDF_ENABLED.key(),
                "false");
        IngestReport twoBefore = graph ? ingest(settings, work.resolve("two-stores-1"), corpus, twoStores) : null;
        IngestReport ingest;
        // The pipeline's embedder records the passage lists it is given (the same model, nothing else changed), so
        // the second baseline embeds exactly the texts the pipeline embedded, in the same lists.
        List<List<String>> recorded = Collections.synchronizedList(new ArrayList<>());
        ReplayEmbedderProvider.recorded = recorded;
        try {
            ingest = ingest(settings, work, corpus, Map.of(Settings.EMBEDDING_PROVIDER.key(), "bench-replay"));
        } finally {
            ReplayEmbedderProvider.recorded = null;
        }
        double sameTexts = embedderOnly(config, recorded);
        System.out.println("ingest                                   docs/s   chunks/s");
        System.out.printf(Locale.ROOT, "  baseline: embedder only, documents  %8.1f%n", embedOnly);
        System.out.printf(Locale.ROOT, "  baseline: embedder only, the pipeline's chunk texts %10.1f%n", sameTexts);
        System.out.printf(Locale.ROOT, "  polyrag pipeline                    %8.1f %10.1f   (%d chunks; %.0f%% of the "
                + "same-texts baseline)%n", docsPerSecond(ingest), chunksPerSecond(ingest), ingest.chunks(),
                100 * chunksPerSecond(ingest) / sameTexts);
        System.out.printf(Locale.ROOT, "  the first %d other documents, fresh JVM %4.1f %10.1f   (compiling as it goes)%n",
                cold.documents(), docsPerSecond(cold), chunksPerSecond(cold));
        // Full text alone, vectors off: the same documents into two fresh directories, the second measured (the
        // first compiles the write path, which no model time hides here).
        Map<String, String> textOnly = Map.of(Settings.VECTOR_ENABLED.key(), "false", Settings.GRAPH_ENABLED.key(),
                "false", Settings.RDF_ENABLED.key(), "false");
        ingest(settings, work.resolve("text-only-1"), corpus, textOnly);
        IngestReport textIngest = ingest(settings, work.resolve("text-only-2"), corpus, textOnly);
        System.out.printf(Locale.ROOT, "  polyrag pipeline, vectors off (BM25 only) %6.1f %10.1f%n",
                docsPerSecond(textIngest), chunksPerSecond(textIngest));
        if (graph) {
            IngestReport twoAfter = ingest(settings, work.resolve("two-stores-2"), corpus, twoStores);
            double two = (docsPerSecond(twoBefore) + docsPerSecond(twoAfter)) / 2;
            System.out.printf(Locale.ROOT, "  polyrag pipeline, vector + full text only, before and after: %.1f, %.1f "
                    + "docs/s (with graph and RDF: %.0f%% of their mean)%n", docsPerSecond(twoBefore),
                    docsPerSecond(twoAfter), 100 * docsPerSecond(ingest) / two);
        }
        System.out.println();

        int rounds = Integer.parseInt(opts.getOrDefault("rounds", "5"));
        // Warm-up queries are others than the measured ones, so no measured query is one the JIT or a cache saw.
        List<String> warmQueries = ds.queries().values().stream().skip(queries).limit(100).toList();
        if (warmQueries.isEmpty()) {
            warmQueries = qs;
        }
        Map<String, Object> searchJson = new LinkedHashMap<>();
        System.out.printf(Locale.ROOT, "search, top 10, median of %d rounds    p50 ms   p99 ms      qps   p50/floor%n",
                rounds);
        try (Polyrag p = Polyrag.open(config); ScaleBench.Floor floor = new ScaleBench.Floor(config, work)) {
            Map<String, Consumer<String>> runs = new LinkedHashMap<>();
            runs.put("floor: embed + HNSW + BM25 + RRF", floor::hybrid);
            runs.put("polyrag hybrid (facade)", q -> p.search().run(SearchRequest.of(q, 10)));
            List<Modality> alone = new ArrayList<>(List.of(Modality.VECTOR, Modality.FULLTEXT));
            if (graph) {
                alone.addAll(List.of(Modality.GRAPH, Modality.RDF));
            }
            for (Modality m : alone) {
                runs.put("polyrag " + m.wireName() + " only", q -> p.search().run(new SearchRequest(q, 10, List.of(),
                        Set.of(m), null)));
            }
            runs.put("floor: BM25 alone", floor::bm25);
            List<String> warming = warmQueries;
            // Until the JIT has settled, the floor with the rest (Warmth says why a fixed warm-up misleads).
            Warmth.untilQuiet("every run", () -> runs.values().forEach(warming::forEach), Warmth::thisJvm, 1, 180);
            // Rounds alternate every run, so a machine whose speed drifts during the benchmark drifts for all.
            Map<String, List<long[]>> times = new LinkedHashMap<>();
            for (int r = 0; r < rounds; r++) {
                runs.forEach((name, run) -> times.computeIfAbsent(name, k -> new ArrayList<>())
                        .add(ScaleBench.timed(qs, run)));
            }
            double floorP50 = ScaleBench.median(times.get("floor: embed + HNSW + BM25 + RRF"), 0.5);
            double bm25P50 = ScaleBench.median(times.get("floor: BM25 alone"), 0.5);
            times.forEach((name, ts) -> {
                double p50 = ScaleBench.median(ts, 0.5);
                double p99 = ScaleBench.median(ts, 0.99);
                double qps = ScaleBench.medianQps(ts);
                String ratio = name.startsWith("floor") ? "" : name.contains("fulltext")
                        ? String.format(Locale.ROOT, "(+%.2f ms over BM25 alone)", p50 - bm25P50)
                        : String.format(Locale.ROOT, "%.2f", p50 / floorP50);
                System.out.printf(Locale.ROOT, "  %-36s %8.2f %8.2f %8.1f   %s%n", name, p50, p99, qps, ratio);
                searchJson.put(name, Map.of("p50Ms", p50, "p99Ms", p99, "qps", qps, "p50OverFloorP50",
                        name.contains("fulltext") ? p50 / bm25P50 : p50 / floorP50));
            });
        }
        // Reported apart from the figures above, never in their place: the same queries asked a second time with the
        // query vector cache on (the default), so the model runs for none of them.
        Map<String, String> remembering = new HashMap<>(settings);
        remembering.remove(Settings.EMBEDDING_QUERY_CACHE.key());
        try (Polyrag p = Polyrag.open(Config.load(Map.of(), remembering))) {
            qs.forEach(q -> p.search().run(SearchRequest.of(q, 10)));
            long[] again = ScaleBench.timed(qs, q -> p.search().run(SearchRequest.of(q, 10)));
            System.out.printf(Locale.ROOT, "  %-36s %8.2f %8.2f %8.1f   (query vectors remembered)%n",
                    "polyrag hybrid, query asked again", pct(again, 0.5), pct(again, 0.99),
                    again.length / (Arrays.stream(again).sum() / 1e9));
            searchJson.put("polyrag hybrid, query asked again", Map.of("p50Ms", pct(again, 0.5), "p99Ms",
                    pct(again, 0.99)));
        }
        if (opts.containsKey("json")) {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("machine", Map.of("cores", Runtime.getRuntime().availableProcessors(), "cpu", HttpBench.cpu(),
                    "java", System.getProperty("java.version"), "memoryGb", Math.round(ScaleBench.totalMemoryGb())));
            out.put("dataset", ds.name());
            out.put("documents", corpus.size());
            out.put("queries", qs.size());
            out.put("rounds", rounds);
            out.put("ingest", Map.of("embedderOnlyDocsPerSecond", embedOnly, "embedderOnlySameTextsChunksPerSecond",
                    sameTexts, "pipelineDocsPerSecond", docsPerSecond(ingest), "pipelineChunksPerSecond",
                    chunksPerSecond(ingest), "pipelineOverSameTexts", chunksPerSecond(ingest) / sameTexts,
                    "vectorsOffDocsPerSecond", docsPerSecond(textIngest), "vectorsOffChunksPerSecond",
                    chunksPerSecond(textIngest)));
            out.put("search", searchJson);
            Files.writeString(Path.of(opts.get("json")), JSON.writerWithDefaultPrettyPrinter().writeValueAsString(out));
            System.out.println("wrote " + opts.get("json"));
        }
        if (opts.containsKey("rerank-model")) {
            rerank(settings, Path.of(opts.get("rerank-model")), qs.stream().limit(50).toList());
        }
    }

    /**
     * The cross-encoder reranking the 30 best fused candidates of each query: its pairs spread over the cores
     * (polyrag) against the baseline of one pair after another with every core inside each run; then the whole
     * search with reranking through the facade.
     */
    private static void rerank(Map<String, String> settings, Path model, List<String> qs) {
        Config config = Config.load(Map.of(), settings);
        int depth = config.get(Settings.RERANK_CANDIDATES);
        Map<String, List<String>> candidates = new LinkedHashMap<>();
        try (Polyrag p = Polyrag.open(config)) {
            for (String q : qs) {
                candidates.put(q, p.search().run(new SearchRequest(q, depth, List.of(), Set.of(), null)).hits().stream()
                        .map(h -> Chunk.indexText(h.title(), h.headingPath(), h.text()))
                        .toList());
            }
        }
        System.out.printf(Locale.ROOT, "%nrerank %d candidates, %d queries      p50 ms   p99 ms      qps%n", depth,
                qs.size());
        int cores = Runtime.getRuntime().availableProcessors();
        try (CrossEncoderReranker one = new CrossEncoderReranker(model, 512, 1);
                CrossEncoderReranker spread = new CrossEncoderReranker(model, 512, cores)) {
            print("baseline: one pair at a time", time(qs, q -> one.score(q, candidates.get(q))));
            print("polyrag: " + cores + " pairs at a time", time(qs, q -> spread.score(q, candidates.get(q))));
        }
        Map<String, String> withRerank = new HashMap<>(settings);
        withRerank.put(Settings.RERANK_PROVIDER.key(), "onnx");
        withRerank.put(Settings.RERANK_MODEL_DIR.key(), model.toString());
        try (Polyrag p = Polyrag.open(Config.load(Map.of(), withRerank))) {
            print("polyrag hybrid + rerank (facade)", time(qs, q -> p.search().run(SearchRequest.of(q, 10))));
        }
    }

    /** One ingest of {@code docs} through the facade into {@code dir}, with {@code overrides} on the run's settings. */
    private static IngestReport ingest(Map<String, String> settings, Path dir, List<BeirDataset.Doc> docs,
            Map<String, String> overrides) {
        Map<String, String> s = new HashMap<>(settings);
        s.putAll(overrides);
        s.put(Settings.DATA_DIR.key(), dir.toString());
        try (Polyrag p = Polyrag.open(Config.load(Map.of(), s))) {
            return p.ingest().items(docs.stream().map(Evaluation::item).toList(),
                    KnowledgeBase.of("bench"), ProgressListener.NONE);
        }
    }

    private static double docsPerSecond(IngestReport r) {
        return (r.added() + r.updated()) / (r.tookMs() / 1000.0);
    }

    private static double chunksPerSecond(IngestReport r) {
        return r.chunks() / (r.tookMs() / 1000.0);
    }

    /** Chunks per second of the model alone over the same passage lists the pipeline embedded. */
    private static double embedderOnly(Config config, Iterable<List<String>> lists) {
        try (Embedder e = OnnxEmbedderProvider.open(config)) {
            e.embedPassages(List.of("warm up", "the model", "before timing"));
            long t0 = System.nanoTime();
            long n = 0;
            for (List<String> texts : lists) {
                e.embedPassages(texts);
                n += texts.size();
            }
            return n / ((System.nanoTime() - t0) / 1e9);
        }
    }

    private static double embedderOnly(Config config, List<BeirDataset.Doc> corpus) {
        try (Embedder e = OnnxEmbedderProvider.open(config)) {
            e.embedPassages(List.of("warm up", "the model", "before timing"));
            List<String> texts = corpus.stream().map(d -> d.title() + "\n" + d.text()).toList();
            long t0 = System.nanoTime();
            for (int i = 0; i < texts.size(); i += 16) {
                e.embedPassages(texts.subList(i, Math.min(texts.size(), i + 16)));
            }
            return texts.size() / ((System.nanoTime() - t0) / 1e9);
        }
    }

    /** Runs every query once to warm up, then again timed; returns the sorted latencies in nanoseconds. */
    static long[] time(List<String> qs, Consumer<String> search) {
        qs.stream().limit(20).forEach(search);
        long[] t = new long[qs.size()];
        for (int i = 0; i < qs.size(); i++) {
            long t0 = System.nanoTime();
            search.accept(qs.get(i));
            t[i] = System.nanoTime() - t0;
        }
        Arrays.sort(t);
        return t;
    }

    /**
     * Searches per second with {@code threads} threads searching at once, {@code passes} times over the queries
     * (thread t takes every threads-th query from the t-th): the throughput of a saturated process.
     */
    static double concurrent(List<String> queries, Consumer<String> search, int threads, int passes) {
        long t0 = System.nanoTime();
        try (var pool = Executors.newFixedThreadPool(threads)) {
            List<Future<?>> parts = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int first = t;
                parts.add(pool.submit(() -> {
                    for (int pass = 0; pass < passes; pass++) {
                        for (int i = first; i < queries.size(); i += threads) {
                            search.accept(queries.get(i));
                        }
                    }
                }));
            }
            for (var part : parts) {
                part.get();
            }
        } catch (InterruptedException | ExecutionException e) {
            throw new IllegalStateException("a run on " + threads + " threads failed: " + e, e);
        }
        return (double) queries.size() * passes / ((System.nanoTime() - t0) / 1e9);
    }

    private static void print(String name, long[] sorted) {
        double total = Arrays.stream(sorted).sum() / 1e9;
        System.out.printf(Locale.ROOT, "  %-34s %8.2f %8.2f %8.1f%n", name, pct(sorted, 0.5), pct(sorted, 0.99),
                sorted.length / total);
    }

    static double pct(long[] sorted, double p) {
        return sorted[Math.max(0, (int) Math.ceil(p * sorted.length) - 1)] / 1e6;
    }

    private static Map<String, String> options(String[] args) {
        String usage = "usage: bench/run --dataset DIR [--docs N] [--queries N] [--rounds 5] [--work DIR] "
                + "[--graph true] [--rerank-model DIR] [--json FILE]";
        Map<String, String> m = new HashMap<>();
        List<String> rest = new ArrayList<>(List.of(args));
        for (int i = 0; i < rest.size(); i += 2) {
            if (!rest.get(i).startsWith("--") || i + 1 >= rest.size()) {
                System.err.println("bench/run: expected --name value pairs, got '" + rest.get(i) + "'\n" + usage);
                System.exit(2);
            }
            m.put(rest.get(i).substring(2), rest.get(i + 1));
        }
        if (!m.containsKey("dataset")) {
            System.err.println(usage);
            System.exit(2);
        }
        // Checked before anything runs: a bad number found after the ingests would waste minutes.
        for (String k : List.of("docs", "queries", "rounds")) {
            if (m.containsKey(k) && !m.get(k).matches("[1-9]\\d{0,8}")) {
                System.err.println("bench/run: --" + k + " takes a whole number of at least 1, was '" + m.get(k)
                        + "'\n" + usage);
                System.exit(2);
            }
        }
        return m;
    }
}
