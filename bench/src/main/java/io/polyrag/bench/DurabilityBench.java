package io.polyrag.bench;

import io.polyrag.app.Polyrag;
import io.polyrag.app.api.TextIngest;
import io.polyrag.core.config.Config;
import io.polyrag.core.model.IngestReport;
import io.polyrag.core.model.KnowledgeBase;
import io.polyrag.core.model.SearchRequest;
import io.polyrag.core.port.ProgressListener;
import io.polyrag.eval.BeirDataset;
import io.polyrag.eval.Evaluation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What {@code POLYRAG_DURABILITY=fsync} costs against the default ({@code process}), in the same run: for each stack
 * (the default configuration, and full text only, where the catalog's commits weigh most) and each round, a fresh
 * data directory per mode ingests the first {@code --docs} documents of a BEIR dataset in one call, then makes
 * {@code --writes} acknowledged single writes (one short text each, as {@code POST /v1/ingest/text} does) and times
 * each; then runs {@code --searches} searches (the dataset's queries, top 10) while another thread keeps making
 * single writes — in fsync mode a read that ends while a commit is not yet forced waits for its sync, and this is
 * what that costs a search. The modes alternate which goes first from round to round; the figures are the medians
 * over rounds.
 *
 * <p>Usage: {@code bench/durability --dataset DIR [--docs 500] [--writes 200] [--searches 300] [--rounds 3]
 * [--work DIR]}.
 */
public final class DurabilityBench {
    private DurabilityBench() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> o = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            o.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        if (!o.containsKey("dataset")) {
            System.err.println("usage: bench/durability --dataset DIR [--docs 500] [--writes 200] [--searches 300] "
                    + "[--rounds 3] [--work DIR]");
            System.exit(2);
        }
        BeirDataset ds = BeirDataset.load(Path.of(o.get("dataset")));
        int docs = Integer.parseInt(o.getOrDefault("docs", "500"));
        int writes = Integer.parseInt(o.getOrDefault("writes", "200"));
        int rounds = Integer.parseInt(o.getOrDefault("rounds", "3"));
        int searches = Integer.parseInt(o.getOrDefault("searches", "300"));
        List<String> queries = ds.queries().values().stream().limit(searches).toList();
        List<BeirDataset.Doc> corpus = ds.corpus().values().stream().limit(docs).toList();
        Path work = Bench.freshWork(o.get("work"), "polyrag-durability");
        System.out.printf(Locale.ROOT, "polyrag durability bench: %s, %d documents, %d single writes, %d rounds, "
                + "%d cores, work dir %s%n%n", ds.name(), corpus.size(), writes, rounds,
                Runtime.getRuntime().availableProcessors(), work);

        Map<String, Map<String, String>> stacks = new LinkedHashMap<>();
        stacks.put("default (vector + full text)", Map.of());
        stacks.put("full text only", Map.of("vector.enabled", "false"));
        System.out.println("stack                          mode     ingest docs/s (rounds)      | single write p50 / p99 ms "
                + "| search p50 / p99 ms, writes going on");
        int n = 0;
        for (var stack : stacks.entrySet()) {
            Map<String, List<double[]>> byMode = new LinkedHashMap<>();
            byMode.put("process", new ArrayList<>());
            byMode.put("fsync", new ArrayList<>());
            for (int r = 0; r < rounds; r++) {
                List<String> order = r % 2 == 0 ? List.of("process", "fsync") : List.of("fsync", "process");
                for (String mode : order) {
                    Map<String, String> settings = new HashMap<>(stack.getValue());
                    settings.put("data.dir", work.resolve("d" + n++).toString());
                    settings.put("durability", mode);
                    settings.put("ingest.duplicates", "allow");
                    byMode.get(mode).add(round(settings, corpus, writes, queries));
                }
            }
            for (var m : byMode.entrySet()) {
                double[] rates = m.getValue().stream().mapToDouble(x -> x[0]).sorted().toArray();
                System.out.printf(Locale.ROOT, "%-30s %-8s %7.1f (%s) | %6.2f / %6.2f | %6.2f / %6.2f%n",
                        stack.getKey(), m.getKey(), median(rates), String.join(", ", Arrays.stream(rates)
                                .mapToObj(x -> String.format(Locale.ROOT, "%.1f", x)).toList()),
                        median(m.getValue().stream().mapToDouble(x -> x[1]).toArray()),
                        median(m.getValue().stream().mapToDouble(x -> x[2]).toArray()),
                        median(m.getValue().stream().mapToDouble(x -> x[3]).toArray()),
                        median(m.getValue().stream().mapToDouble(x -> x[4]).toArray()));
            }
        }
    }

    /**
     * One fresh directory: the ingest's rate (docs/s), the single writes' p50 and p99 in ms, then the searches' p50
     * and p99 in ms with single writes going on beside them.
     */
    private static double[] round(Map<String, String> settings, List<BeirDataset.Doc> corpus, int writes,
            List<String> queries) throws InterruptedException {
        try (Polyrag p = Polyrag.open(Config.load(Map.of(), settings))) {
            long t0 = System.nanoTime();
            IngestReport r = p.ingest().items(corpus.stream().map(Evaluation::item).toList(),
                    KnowledgeBase.of("bench"), ProgressListener.NONE);
            double rate = r.documents() / ((System.nanoTime() - t0) / 1e9);
            long[] took = new long[writes];
            for (int i = 0; i < writes; i++) {
                long s = System.nanoTime();
                p.ingest().text(new TextIngest("Acknowledged write number " + i + " of the durability bench, about "
                        + "the keeping of logs and the forcing of files.", null, "bench://write/" + i, "text",
                        KnowledgeBase.of("bench")));
                took[i] = System.nanoTime() - s;
            }
            Arrays.sort(took);
            AtomicBoolean searching = new AtomicBoolean(true);
            Thread writer = Thread.ofPlatform().name("bench-writer").start(() -> {
                for (int i = 0; searching.get(); i++) {
                    p.ingest().text(new TextIngest("A write beside the searches, number " + i + ".", null,
                            "bench://beside/" + (i % 50), "text", KnowledgeBase.of("bench")));
                }
            });
            long[] searched = new long[queries.size()];
            try {
                for (int i = 0; i < queries.size(); i++) {
                    long s = System.nanoTime();
                    p.search().run(SearchRequest.of(queries.get(i), 10));
                    searched[i] = System.nanoTime() - s;
                }
            } finally {
                searching.set(false);
                writer.join();
            }
            Arrays.sort(searched);
            return new double[] {rate, Bench.pct(took, 0.5), Bench.pct(took, 0.99), Bench.pct(searched, 0.5),
                Bench.pct(searched, 0.99)};
        }
    }

    private static double median(double[] xs) {
        double[] s = xs.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }
}
