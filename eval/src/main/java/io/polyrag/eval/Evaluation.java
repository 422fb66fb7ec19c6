package io.polyrag.eval;

import io.polyrag.app.Polyrag;
import io.polyrag.app.quality.Metrics;
import io.polyrag.app.quality.Significance;
import io.polyrag.core.config.Settings;
import io.polyrag.core.model.Chunk;
import io.polyrag.core.model.DocumentInfo;
import io.polyrag.core.model.Ids;
import io.polyrag.core.model.IngestReport;
import io.polyrag.core.model.KnowledgeBase;
import io.polyrag.core.model.Modality;
import io.polyrag.core.model.SearchHit;
import io.polyrag.core.model.SearchRequest;
import io.polyrag.core.model.SearchResponse;
import io.polyrag.core.model.SourceItem;
import io.polyrag.core.port.ProgressListener;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Runs an evaluation through the facade, exactly as users search: the corpus goes through the normal ingest pipeline
 * (one HTML document per corpus entry, so the title is the document title), each query through the normal search.
 * Chunk hits are turned into a document ranking by each document's first appearance. A retrieved document whose id
 * equals the query's id is skipped, as BEIR and Anserini do.
 */
public final class Evaluation {
    /** Knowledge base the corpus is indexed into. */
    public static final String KB = "eval";
    /**
     * Chunks asked for per query at least: enough for ten distinct documents, and for Recall@100 over one-chunk
     * documents. A search asks for {@code max(this, search.candidates)}: each leg's list is then as deep as a user's
     * search of any top-k up to it gets (a deeper request makes deeper legs, and the full-text leg's blend and the
     * vector index's approximate walk rank a deeper list's top a little differently).
     */
    public static final int DEPTH = 100;

    private Evaluation() {
    }

    public static EvalReport run(Polyrag polyrag, BeirDataset ds, List<RunSpec> runs, ProgressListener progress,
            Consumer<String> log) {
        return run(polyrag, ds, runs, progress, log, null);
    }

    /**
     * The evaluation, each run's ranking also written to {@code runFiles} (when not null) as a TREC run file named
     * after the run ({@link #runFileName}): {@code query Q0 document rank score run}, the documents in the order the
     * run ranked them (up to the evaluation's depth; a raw run's {@value RawReference#DEPTH}), for trec_eval, ranx or
     * a fusion of one's own.
     */
    public static EvalReport run(Polyrag polyrag, BeirDataset ds, List<RunSpec> runs, ProgressListener progress,
            Consumer<String> log, Path runFiles) {
        EvalReport.Ingest ingest = ingest(polyrag, ds, progress, log);
        List<EvalReport.Run> results = new ArrayList<>();
        // Within what a request may ask (1,000): the setting allows 10,000, and every fused run failed with it.
        int depth = Math.max(DEPTH, Math.min(SearchRequest.Tuning.MAX_CANDIDATES, polyrag.config().get(
                Settings.SEARCH_CANDIDATES)));
        RawReference raw = null;
        for (RunSpec run : runs) {
            if (run.raw() != null && raw == null) {
                boolean vectors = runs.stream().anyMatch(r -> r.raw() != null && r.raw() != RawReference.Kind.BM25);
                raw = RawReference.build(ds, vectors ? polyrag.embeddings() : null, polyrag.config().get(
                        Settings.BM25_K1), polyrag.config().get(
                        Settings.BM25_B), log);
            }
            log.accept("eval: running " + run.name() + " over " + ds.qrels().size() + " queries");
            results.add(evaluate(polyrag, ds, run, raw, depth, runFiles));
        }
        return new EvalReport(ds.name(), ds.corpus().size(), ds.qrels().size(), compared(results), ingest,
                ds.warnings(), depth);
    }

    /**
     * Each fused run with its paired comparison against the best single-modality run, when there is one, and against
     * the better raw fusion of the same arms.
     */
    static List<EvalReport.Run> compared(List<EvalReport.Run> runs) {
        EvalReport.Run best = runs.stream().filter(r -> r.modalities().size() == 1 && !r.raw())
                .max(Comparator.comparingDouble(EvalReport.Run::ndcg10)).orElse(null);
        // The raw reference to beat: the better of the raw fusions run (raw-rrf, raw-minmax).
        EvalReport.Run raw = runs.stream().filter(r -> r.name().equals("raw-rrf") || r.name().equals("raw-minmax"))
                .max(Comparator.comparingDouble(EvalReport.Run::ndcg10)).orElse(null);
        return runs.stream().map(r -> {
            EvalReport.Run out = r;
            if (best != null && r.modalities().size() > 1 && !r.raw()) {
                out = out.withComparison(Significance.compare(r.perQueryNdcg(), best.name(), best.perQueryNdcg()));
            }
            if (raw != null && r.modalities().size() > 1 && !r.raw()) {
                out = out.withRaw(Significance.compare(r.perQueryNdcg(), raw.name(), raw.perQueryNdcg()));
            }
            return out;
        }).toList();
    }

    private static EvalReport.Ingest ingest(Polyrag polyrag, BeirDataset ds, ProgressListener progress,
            Consumer<String> log) {
        List<SourceItem> items = ds.corpus().values().stream().map(Evaluation::item).toList();
        log.accept("eval: indexing " + items.size() + " documents (unchanged ones are reused)");
        IngestReport r = polyrag.ingest().items(items, KnowledgeBase.of(KB), progress);
        if (r.failed() > 0) {
            log.accept("eval: " + r.failed() + " documents failed to index, e.g. " + r.errors().getFirst().reason());
        }
        dropOthers(polyrag, ds, log);
        double seconds = r.tookMs() / 1000.0;
        int indexed = r.added() + r.updated();
        return new EvalReport.Ingest(seconds, seconds == 0 ? 0 : indexed / seconds,
                seconds == 0 ? 0 : r.chunks() / seconds, r.chunks(), r.unchanged());
    }

    /**
     * Deletes the index's documents the corpus no longer has: an index folder reused for another corpus of the same
     * name (a subset, a generated set made again) searched the union of both, and every document left over ranked
     * as not relevant, quietly lowering each run's figures.
     */
    private static void dropOthers(Polyrag polyrag, BeirDataset ds, Consumer<String> log) {
        Set<String> wanted = new HashSet<>();
        ds.corpus().keySet().forEach(id -> wanted.add("beir:" + id));
        List<String> others = new ArrayList<>();
        KnowledgeBase kb = KnowledgeBase.of(KB);
        for (int offset = 0; ; offset += 1000) {
            List<DocumentInfo> page = polyrag.documents().list(kb, offset, 1000);
            page.stream().filter(d -> !wanted.contains(d.uri())).forEach(d -> others.add(d.id()));
            if (page.size() < 1000) {
                break;
            }
        }
        if (!others.isEmpty()) {
            log.accept("eval: deleting " + others.size() + " documents of the index the corpus no longer has");
            polyrag.documents().delete(others);
        }
    }

    /** A corpus entry as the document polyrag indexes: HTML whose title is the entry's title. */
    public static SourceItem item(BeirDataset.Doc d) {
        // An entry of a title alone (CORD-19's papers without an abstract) has it as its text too: a page of no
        // text is refused as empty, and the document, maybe judged relevant, was never indexed.
        String body = d.text().isBlank() ? d.title() : d.text();
        String html = "<html><head><title>" + escape(d.title()) + "</title></head><body><p>" + escape(body)
                + "</p></body></html>";
        // An entry without a title (FiQA, Quora, MS MARCO) has none: the page's name is its id, which the parser
        // took for its title, heading every chunk with a number ("2016") that matched queries naming it.
        return new SourceItem("beir:" + d.id(), d.id() + ".html", html.getBytes(StandardCharsets.UTF_8),
                "text/html", d.title().isBlank() ? "" : null);
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    /** The file a run's ranking is written to: its name with anything but letters, digits, '.', '+' and '-' as '_'. */
    public static String runFileName(String run) {
        return run.replaceAll("[^A-Za-z0-9.+-]", "_") + ".trec";
    }

    private static EvalReport.Run evaluate(Polyrag polyrag, BeirDataset ds, RunSpec run, RawReference raw,
            int depth, Path runFiles) {
        StringBuilder trec = runFiles == null ? null : new StringBuilder();
        String kb = KnowledgeBase.of(KB).storageName();
        Map<String, String> byDocumentId = new HashMap<>();
        ds.corpus().keySet().forEach(id -> byDocumentId.put(Ids.documentId(kb, "beir:" + id), id));
        Map<String, Double> perQuery = new LinkedHashMap<>();
        double ndcg = 0;
        double recall = 0;
        double mrr = 0;
        long[] latencies = new long[ds.qrels().size()];
        SearchRequest.Tuning untuned = new SearchRequest.Tuning(null, Map.of(), null, Math.min(
                SearchRequest.Tuning.MAX_CANDIDATES, polyrag.config().get(Settings.SEARCH_CANDIDATES)), null, null);
        int i = 0;
        for (Map.Entry<String, Map<String, Integer>> q : ds.qrels().entrySet()) {
            String text = ds.queries().get(q.getKey());
            long t0 = System.nanoTime();
            List<RawReference.Scored> scored;
            if (run.raw() != null) {
                scored = raw.scored(run.raw(), text).stream().filter(d -> !d.id().equals(q.getKey())).toList();
                latencies[i++] = System.nanoTime() - t0;
            } else {
                // The configured depth given as the request's own: a tuning of the index's knowledge base is then
                // not applied, to some runs and not others (runs that name their fusion never took it).
                SearchResponse resp = polyrag.search().run(new SearchRequest(text, depth, List.of(KB),
                        run.modalities(), run.fusion()).toBuilder().tuning(untuned).build());
                latencies[i++] = System.nanoTime() - t0;
                scored = scoredDocuments(resp.hits(), q.getKey(), byDocumentId);
            }
            List<String> ranked = scored.stream().map(RawReference.Scored::id).toList();
            if (trec != null) {
                // trec_eval and ranx order a query's lines by score, not by rank (trec_eval breaks ties by the
                // document id): each line's score is kept below the one before, so they read the ranking measured.
                double last = Double.POSITIVE_INFINITY;
                for (int r = 0; r < scored.size(); r++) {
                    last = Math.min(scored.get(r).score(), Math.nextDown(last));
                    trec.append(q.getKey()).append(" Q0 ").append(scored.get(r).id()).append(' ').append(r + 1)
                            .append(' ').append(last).append(' ').append(run.name()).append('\n');
                }
            }
            double n = Metrics.ndcg(ranked, q.getValue(), 10);
            perQuery.put(q.getKey(), n);
            ndcg += n;
            recall += Metrics.recall(ranked, q.getValue(), 100);
            mrr += Metrics.mrr(ranked, q.getValue(), 10);
        }
        if (trec != null) {
            try {
                Files.createDirectories(runFiles);
                Files.writeString(runFiles.resolve(runFileName(run.name())), trec, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException("could not write the run file of " + run.name() + " under " + runFiles,
                        e);
            }
        }
        int count = ds.qrels().size();
        Arrays.sort(latencies);
        return EvalReport.Run.measured(run.name(), run.modalities().stream().map(Modality::wireName).sorted().toList(),
                run.modalities().size() > 1 ? (run.fusion() == null ? "configured" : run.fusion().wireName()
                        + (run.raw() != null ? " (raw)" : "")) : run.raw() != null ? "none (raw)" : "none",
                new EvalReport.Measured(round(ndcg / count), round(recall / count), round(mrr / count),
                        percentile(latencies, 0.50), percentile(latencies, 0.99),
                        Significance.ci95(perQuery.values())), perQuery);
    }

    /** Corpus ids in order of first appearance, the query's own id left out. */
    static List<String> documents(List<SearchHit> hits, String queryId) {
        return documents(hits, queryId, Map.of());
    }

    /**
     * Corpus ids in order of first appearance, the query's own id left out; a hit's merged near-duplicates (chunks of
     * other documents with the same or nearly the same text, which the hit stands for and lists) count right after
     * it, as the documents the response returns.
     *
     * @param byDocumentId corpus id by polyrag document id, to name merged chunks' documents
     */
    static List<String> documents(List<SearchHit> hits, String queryId, Map<String, String> byDocumentId) {
        return scoredDocuments(hits, queryId, byDocumentId).stream().map(RawReference.Scored::id).toList();
    }

    /** {@link #documents(List, String, Map)} with each document's score: that of the hit it first appears in. */
    static List<RawReference.Scored> scoredDocuments(List<SearchHit> hits, String queryId,
            Map<String, String> byDocumentId) {
        Map<String, Double> ids = new LinkedHashMap<>();
        for (SearchHit h : hits) {
            String id = h.uri().startsWith("beir:") ? h.uri().substring(5) : h.uri();
            if (!id.equals(queryId)) {
                ids.putIfAbsent(id, h.score());
            }
            for (String chunk : h.merged()) {
                String document = Chunk.documentIdOf(chunk);
                String merged = document == null ? null : byDocumentId.get(document);
                if (merged != null && !merged.equals(queryId)) {
                    ids.putIfAbsent(merged, h.score());
                }
            }
        }
        List<RawReference.Scored> out = new ArrayList<>(ids.size());
        ids.forEach((id, score) -> out.add(new RawReference.Scored(id, score)));
        return out;
    }

    private static double percentile(long[] sortedNanos, double p) {
        if (sortedNanos.length == 0) {
            return 0;
        }
        int idx = (int) Math.ceil(p * sortedNanos.length) - 1;
        return Math.round(sortedNanos[Math.max(0, idx)] / 10_000.0) / 100.0;
    }

    private static double round(double v) {
        return Math.round(v * 10000) / 10000.0;
    }
}
