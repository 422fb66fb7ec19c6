package io.polyrag.bench;

import io.polyrag.app.Polyrag;
import io.polyrag.core.config.Config;
import io.polyrag.core.config.Settings;
import io.polyrag.core.model.IngestReport;
import io.polyrag.core.model.Modality;
import io.polyrag.core.model.SearchRequest;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.port.Embedder;
import io.polyrag.core.port.ProgressListener;
import io.polyrag.eval.BeirDataset;
import io.polyrag.eval.Evaluation;
import io.polyrag.model.onnx.CrossEncoderReranker;
import io.polyrag.model.onnx.OnnxEmbedderProvider;
import io.polyrag.store.lucene.LuceneFullTextStore;
import io.polyrag.store.lucene.LuceneVectorStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Ingest and search throughput and latency of the embedded stack, each beside a named baseline measured in the same
 * run on the same data:
 * <ul>
 *   <li><b>ingest</b> against <i>embedder only</i>: the same model and threads over each document's text, and over
 *       exactly the chunk texts the pipeline embedded, in the same lists (recorded from its embedder), with nothing
 *       parsed, chunked, stored or committed — the floor the pipeline's overhead is measured from; the measured
 *       ingest follows a warm-up ingest of other documents, so the JIT has compiled the pipeline (the warm-up's own
 *       rate is printed as the fresh-JVM figure); with {@code --graph true} also against the same documents into
 *       vector and full text only;</li>
 *   <li><b>search</b> against <i>stores only</i>: the query embedded and the same two Lucene indexes searched directly,
 *       one after the other — what the searcher adds (parallel legs, catalog join, fusion, dedup) is the difference.</li>
 * </ul>
 * Usage: {@code bench/run --dataset DIR [--docs N] [--queries N] [--work DIR] [--graph true] [--rerank-model DIR]};
 * with {@code --graph true} the graph and RDF arms are on (offline extraction at ingest, their legs in the hybrid
 * search) and timed alone too; with {@code --rerank-model} a cross-encoder (model.onnx, tokenizer.json) reranks the
 * fused candidates of the first 50 queries, its pairs spread over the cores against the baseline of one pair at a
 * time, and the search with reranking is timed through the facade.
 */
public final class Bench {
    /** Documents of the warm-up ingest that runs before the measured one (see {@link #main}). */
    private static final int WARM_UP_DOCS = 1000;
    private Bench() {
    }

    public static void main(String[] args) throws IOException {
        Map<String, String> opts = options(args);
        Path dataset = Path.of(opts.getOrDefault("dataset", ""));
        int docs = Integer.parseInt(opts.getOrDefault("docs", "1000"));
        int queries = Integer.parseInt(opts.getOrDefault("queries", "200"));
        Path work = opts.containsKey("work") ? Path.of(opts.get("work")) : Files.createTempDirectory("polyrag-bench");
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
        List<List<String>> recorded = java.util.Collections.synchronizedList(new ArrayList<>());
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
        if (graph) {
            IngestReport twoAfter = ingest(settings, work.resolve("two-stores-2"), corpus, twoStores);
            double two = (docsPerSecond(twoBefore) + docsPerSecond(twoAfter)) / 2;
            System.out.printf(Locale.ROOT, "  polyrag pipeline, vector + full text only, before and after: %.1f, %.1f "
                    + "docs/s (with graph and RDF: %.0f%% of their mean)%n", docsPerSecond(twoBefore),
                    docsPerSecond(twoAfter), 100 * docsPerSecond(ingest) / two);
        }
        System.out.println();

        System.out.println("search, top 10                        p50 ms   p99 ms      qps");
        print("baseline: stores only (embed + 2)", storesOnly(config, work, qs));
        try (Polyrag p = Polyrag.open(config)) {
            List<Set<Modality>> runs = new ArrayList<>(List.of(Set.<Modality>of(), Set.of(Modality.VECTOR),
                    Set.of(Modality.FULLTEXT)));
            if (graph) {
                runs.addAll(List.of(Set.of(Modality.GRAPH), Set.of(Modality.RDF)));
            }
            for (Set<Modality> mods : runs) {
                String name = mods.isEmpty() ? "polyrag hybrid (facade)" : "polyrag " + mods.iterator().next() + " only";
                print(name, time(qs, q -> p.search().run(new SearchRequest(q, 10, List.of(), mods, null))));
            }
        }
        // Reported apart from the figures above, never in their place: the same queries asked a second time with the
        // query vector cache on (the default), so the model runs for none of them.
        Map<String, String> remembering = new java.util.HashMap<>(settings);
        remembering.remove(Settings.EMBEDDING_QUERY_CACHE.key());
        try (Polyrag p = Polyrag.open(Config.load(Map.of(), remembering))) {
            qs.forEach(q -> p.search().run(SearchRequest.of(q, 10)));
            print("polyrag hybrid, query asked again", time(qs,
                    q -> p.search().run(SearchRequest.of(q, 10))));
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
        Map<String, List<String>> candidates = new java.util.LinkedHashMap<>();
        try (Polyrag p = Polyrag.open(config)) {
            for (String q : qs) {
                candidates.put(q, p.search().run(new SearchRequest(q, depth, List.of(), Set.of(), null)).hits().stream()
                        .map(h -> io.polyrag.core.model.Chunk.indexText(h.title(), h.headingPath(), h.text()))
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
        Map<String, String> withRerank = new java.util.HashMap<>(settings);
        withRerank.put(Settings.RERANK_PROVIDER.key(), "onnx");
        withRerank.put(Settings.RERANK_MODEL_DIR.key(), model.toString());
        try (Polyrag p = Polyrag.open(Config.load(Map.of(), withRerank))) {
            print("polyrag hybrid + rerank (facade)", time(qs, q -> p.search().run(SearchRequest.of(q, 10))));
        }
    }

    /** One ingest of {@code docs} through the facade into {@code dir}, with {@code overrides} on the run's settings. */
    private static IngestReport ingest(Map<String, String> settings, Path dir, List<BeirDataset.Doc> docs,
            Map<String, String> overrides) {
        Map<String, String> s = new java.util.HashMap<>(settings);
        s.putAll(overrides);
        s.put(Settings.DATA_DIR.key(), dir.toString());
        try (Polyrag p = Polyrag.open(Config.load(Map.of(), s))) {
            return p.ingest().items(docs.stream().map(Evaluation::item).toList(),
                    io.polyrag.core.model.KnowledgeBase.of("bench"), ProgressListener.NONE);
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

    private static long[] storesOnly(Config config, Path work, List<String> qs) {
        try (Embedder e = OnnxEmbedderProvider.open(config);
                LuceneVectorStore v = new LuceneVectorStore(work.resolve("vector"), e.dimension(), e.modelId(),
                        config.get(Settings.VECTOR_EXACT_THRESHOLD));
                LuceneFullTextStore f = new LuceneFullTextStore(work.resolve("fulltext"),
                        config.get(Settings.BM25_K1), config.get(Settings.BM25_B))) {
            return time(qs, q -> {
                v.search(e.embedQuery(q), SearchScope.ALL, 10);
                f.search(q, SearchScope.ALL, 10);
            });
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

    private static void print(String name, long[] sorted) {
        double total = Arrays.stream(sorted).sum() / 1e9;
        System.out.printf(Locale.ROOT, "  %-34s %8.2f %8.2f %8.1f%n", name, pct(sorted, 0.5), pct(sorted, 0.99),
                sorted.length / total);
    }

    static double pct(long[] sorted, double p) {
        return sorted[Math.max(0, (int) Math.ceil(p * sorted.length) - 1)] / 1e6;
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> m = new java.util.HashMap<>();
        List<String> rest = new ArrayList<>(List.of(args));
        for (int i = 0; i + 1 < rest.size(); i += 2) {
            if (!rest.get(i).startsWith("--")) {
                throw new IllegalArgumentException("expected --name value pairs, got " + rest.get(i));
            }
            m.put(rest.get(i).substring(2), rest.get(i + 1));
        }
        if (!m.containsKey("dataset")) {
            System.err.println("usage: bench/run --dataset DIR [--docs N] [--queries N] [--work DIR] [--graph true] "
                    + "[--rerank-model DIR]");
            System.exit(2);
        }
        return m;
    }
}
