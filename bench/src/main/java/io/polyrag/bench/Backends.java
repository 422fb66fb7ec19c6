package io.polyrag.bench;

import io.polyrag.app.Polyrag;
import io.polyrag.app.api.ReceivedFile;
import io.polyrag.core.config.Config;
import io.polyrag.core.model.IngestReport;
import io.polyrag.core.model.KnowledgeBase;
import io.polyrag.core.model.Modality;
import io.polyrag.core.model.SearchRequest;
import io.polyrag.core.port.ProgressListener;
import io.polyrag.eval.BeirDataset;
import io.polyrag.eval.Evaluation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The networked backends beside the embedded stack, through the facade, on the same corpus and the same queries in
 * one run: ingest throughput, and hybrid, vector-only and full-text-only search latency, for embedded Lucene + H2,
 * pgvector + PostgreSQL full text (+ PostgreSQL catalog), and pgvector + OpenSearch; then ingest throughput of the
 * PostgreSQL stack's job queue with 1, 2 and 4 workers.
 *
 * <p>The corpus is the dataset's documents, replicated {@code --replicate} times with a deterministic perturbation
 * (each copy's sentences rotated by its number and its title numbered), so the index grows with realistic text and
 * term statistics while every copy embeds to a vector of its own; the queries are the dataset's, each asked once.
 *
 * <p>Usage: {@code bench/backends --dataset DIR --postgres-url JDBC_URL [--opensearch-url URL] [--replicate N]
 * [--docs N] [--queries N] [--job-docs N] [--vectors false] [--work DIR]}; with {@code --vectors false} the stacks
 * hold full text only (fast to build at scale; the hybrid and vector columns are then full text and zero), and
 * {@code --job-docs 0} skips the job queue. Each stack gets an empty schema of its own
 * ({@code bench_<stack>}, dropped first) and, for OpenSearch, an index of its own.
 */
public final class Backends {
    private Backends() {
    }

    // style: a benchmark script: options, then each phase in order, as its usage line reads
    public static void main(String[] args) throws Exception {
        Map<String, String> o = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            o.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        if (!o.containsKey("dataset") || !o.containsKey("postgres-url")) {
            System.err.println("usage: bench/backends --dataset DIR --postgres-url JDBC_URL [--opensearch-url URL] "
                    + "[--replicate N] [--docs N] [--queries N] [--job-docs N] [--work DIR]");
            System.exit(2);
        }
        BeirDataset ds = BeirDataset.load(Path.of(o.get("dataset")));
        int replicate = Integer.parseInt(o.getOrDefault("replicate", "1"));
        int docs = Integer.parseInt(o.getOrDefault("docs", "1000000"));
        List<BeirDataset.Doc> base = ds.corpus().values().stream().limit(docs).toList();
        List<BeirDataset.Doc> corpus = new ArrayList<>();
        for (int k = 0; k < replicate; k++) {
            for (BeirDataset.Doc d : base) {
                corpus.add(k == 0 ? d : new BeirDataset.Doc(d.id() + "~" + k, d.title() + " (" + k + ")",
                        rotate(d.text(), k)));
            }
        }
        List<String> qs = ds.queries().values().stream().limit(Integer.parseInt(o.getOrDefault("queries", "300")))
                .toList();
        Path work = Bench.freshWork(o.get("work"), "polyrag-backends");
        String pg = o.get("postgres-url");
        System.out.printf(Locale.ROOT, "polyrag backends bench: %s x%d = %d documents, %d queries, %d cores%n%n",
                ds.name(), replicate, corpus.size(), qs.size(), Runtime.getRuntime().availableProcessors());

        boolean vectors = Boolean.parseBoolean(o.getOrDefault("vectors", "true"));
        Map<String, Map<String, String>> stacks = new LinkedHashMap<>();
        stacks.put("embedded: Lucene + H2", Map.of());
        stacks.put("pgvector + PostgreSQL FTS", Map.of("catalog.backend", "postgres", "vector.backend", "pgvector",
                "fulltext.backend", "postgres", "postgres.url", schema(pg, "bench_pg")));
        if (o.containsKey("opensearch-url")) {
            stacks.put("pgvector + OpenSearch", Map.of("catalog.backend", "postgres", "vector.backend", "pgvector",
                    "fulltext.backend", "opensearch", "postgres.url", schema(pg, "bench_os"), "opensearch.url",
                    o.get("opensearch-url"), "opensearch.index", "bench-" + ProcessHandle.current().pid()));
        }
        System.out.println("stack                          ingest chunks/s | hybrid p50/p99 ms | vector p50/p99 | "
                + "fulltext p50/p99");
        int n = 0;
        for (var s : stacks.entrySet()) {
            Map<String, String> settings = new HashMap<>(s.getValue());
            settings.put("data.dir", work.resolve("stack-" + n++).toString());
            settings.put("ingest.workers", "0");
            settings.put("ingest.duplicates", "allow");
            settings.put("embedding.query.cache", "0");
            // The stacks differ in where vectors and full text live; the graph and RDF arms are not compared here.
            settings.put("graph.enabled", "false");
            settings.put("rdf.enabled", "false");
            if (!vectors) {
                settings.put("vector.enabled", "false");
                settings.remove("vector.backend");
            }
            try (Polyrag p = Polyrag.open(Config.load(Map.of(), settings))) {
                IngestReport r = p.ingest().items(corpus.stream().map(Evaluation::item).toList(),
                        KnowledgeBase.of("bench"), ProgressListener.NONE);
                double rate = r.chunks() / (r.tookMs() / 1000.0);
                long[] hybrid = time(qs, q -> p.search().run(SearchRequest.of(q, 10)));
                long[] vector = vectors ? time(qs, q -> p.search().run(new SearchRequest(q, 10, List.of(),
                        Set.of(Modality.VECTOR), null))) : new long[] {0};
                long[] text = time(qs, q -> p.search().run(new SearchRequest(q, 10, List.of(),
                        Set.of(Modality.FULLTEXT), null)));
                System.out.printf(Locale.ROOT, "%-28s %8.0f (%,d) | %7.2f / %7.2f | %6.2f / %6.2f | %6.2f / %6.2f%n",
                        s.getKey(), rate, r.chunks(), ms(hybrid, 0.5), ms(hybrid, 0.99), ms(vector, 0.5),
                        ms(vector, 0.99), ms(text, 0.5), ms(text, 0.99));
            }
        }

        int jobDocs = Integer.parseInt(o.getOrDefault("job-docs", "2000"));
        if (jobDocs == 0) {
            return;
        }
        List<BeirDataset.Doc> jobCorpus = base.stream().limit(jobDocs).toList();
        System.out.printf(Locale.ROOT, "%njob queue on PostgreSQL: %d documents in jobs of 20 files%n", jobCorpus.size());
        for (int workers : new int[] {1, 2, 4}) {
            Map<String, String> settings = Map.of("catalog.backend", "postgres", "vector.backend", "pgvector",
                    "fulltext.backend", "postgres", "postgres.url", schema(pg, "bench_jobs_" + workers),
                    "data.dir", work.resolve("jobs-" + workers).toString(), "ingest.workers",
                    Integer.toString(workers), "ingest.duplicates", "allow");
            try (Polyrag p = Polyrag.open(Config.load(Map.of(), settings))) {
                long t0 = System.nanoTime();
                List<String> ids = new ArrayList<>();
                for (int i = 0; i < jobCorpus.size(); i += 20) {
                    Path dir = p.uploads().newStagingDir();
                    List<ReceivedFile> files = new ArrayList<>();
                    for (BeirDataset.Doc d : jobCorpus.subList(i, Math.min(jobCorpus.size(), i + 20))) {
                        var item = Evaluation.item(d);
                        Path f = dir.resolve(item.name());
                        Files.write(f, item.content());
                        files.add(new ReceivedFile(item.name(), f));
                    }
                    ids.add(p.uploads().submit(KnowledgeBase.of("bench"), dir, files, true));
                }
                for (String id : ids) {
                    while (!p.jobs().get(id).status().finished()) {
                        Thread.sleep(50);
                    }
                }
                double secs = (System.nanoTime() - t0) / 1e9;
                System.out.printf(Locale.ROOT, "  %d worker%s  %7.1f docs/s%n", workers, workers == 1 ? " " : "s",
                        jobCorpus.size() / secs);
            }
        }
    }

    /** The text with its sentences rotated by {@code k}: the same words, another order, another vector. */
    static String rotate(String text, int k) {
        String[] s = text.split("(?<=[.!?])\\s+");
        if (s.length < 2) {
            return text + " (" + k + ")";
        }
        int by = k % s.length;
        List<String> out = new ArrayList<>(Arrays.asList(s).subList(by, s.length));
        out.addAll(Arrays.asList(s).subList(0, by));
        return String.join(" ", out) + (by == 0 ? " (" + k + ")" : "");
    }

    /** The URL of an empty schema {@code name} (dropped and created again). */
    private static String schema(String url, String name) throws Exception {
        try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
            st.execute("DROP SCHEMA IF EXISTS " + name + " CASCADE");
            st.execute("CREATE SCHEMA " + name);
        }
        return url + (url.contains("?") ? "&" : "?") + "currentSchema=" + name + ",public";
    }

    private static long[] time(List<String> qs, Consumer<String> search) {
        return Bench.time(qs, search);
    }

    private static double ms(long[] sorted, double p) {
        return Bench.pct(sorted, p);
    }
}
