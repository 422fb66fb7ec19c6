package io.polyrag.ingest;

import io.polyrag.core.StoreException;
import io.polyrag.core.model.DocumentInfo;
import io.polyrag.core.model.Extraction;
import io.polyrag.core.model.Ids;
import io.polyrag.core.port.EntityExtractor;
import java.lang.System.Logger.Level;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * One ingest's batches on their way through the stages, so the two cores are not idle while one stage waits:
 * the caller's thread reads and parses the next batch while one thread embeds the last, and another extracts from
 * and writes the one before (its commits wait on the disk, not on a core). Batches are embedded in order and
 * written in order; at most two wait between parsing and their commit, so memory stays bounded. A write that
 * stops the ingest (a full disk) lets no later batch be written, and the caller's thread throws it.
 */
final class IngestFlow implements AutoCloseable {
    private static final int IN_FLIGHT = 2;
    private static final int LOOK_AHEAD = 256;
    private static final System.Logger LOG = System.getLogger(IngestFlow.class.getName());
    private final IngestPipeline pipeline;
    private final IngestSpans spans;
    private final VersionWriter writer;
    private final String kb;
    private final boolean graph;
    private final Budget budget;
    private final Tally tally;
    private final Pace pace;
    /** Asked between embedding slices and before each write: a batch canceled then is not written at all. */
    private final BooleanSupplier canceled;
    private final ExecutorService embedding;
    /** Model tokens contextual retrieval may still spend in this ingest (embedding thread only). */
    private long contextRemaining;
    private final ExecutorService writing;
    private final ArrayDeque<CompletableFuture<Void>> written =
            new ArrayDeque<>();
    private CompletableFuture<?> embedded =
            CompletableFuture.completedFuture(null);
    /** Documents of batches not yet written: parsing one of them again waits for them. */
    private final Set<String> pending = ConcurrentHashMap.newKeySet();
    /** The catalog's entries for the inputs up to {@link #knownUntil}, looked up together (caller's thread). */
    private Map<String, DocumentInfo> known = Map.of();
    /** Ids whose entry in {@link #known} a write may have changed since: looked up again, one by one. */
    private final Set<String> stale = new HashSet<>();
    private int knownUntil;
    private volatile RuntimeException stopped;
    private boolean finished;

    /**
     * @param tokenBudget most language-model tokens extraction may spend in this ingest; 0 means no limit, a
     *     negative number none
     * @param pace how fast texts embed, for automatic batch sizes; null with a fixed size
     */
    IngestFlow(IngestPipeline pipeline, String kb, boolean graph, long tokenBudget, Tally tally, Pace pace,
            BooleanSupplier canceled) {
        this.pipeline = pipeline;
        this.spans = pipeline.spans();
        this.writer = pipeline.writer();
        this.canceled = canceled;
        this.kb = kb;
        this.graph = graph;
        this.budget = new Budget(tokenBudget > 0 ? tokenBudget : tokenBudget == 0 ? Long.MAX_VALUE : 0);
        this.tally = tally;
        this.pace = pace;
        long contextBudget = pipeline.contextBudget();
        this.contextRemaining = contextBudget > 0 ? contextBudget : Long.MAX_VALUE;
        this.embedding = spans.carrying(stage("embed"));
        this.writing = spans.carrying(stage("write"));
    }

    private static ExecutorService stage(String name) {
        return Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "polyrag-ingest-" + name);
            t.setDaemon(true);
            return t;
        });
    }

    /** Hands a batch on; waits first while {@value #IN_FLIGHT} batches are still to be written. */
    void submit(List<Prepared> batch) {
        check();
        while (written.size() >= IN_FLIGHT) {
            join(written.removeFirst());
        }
        batch.forEach(p -> {
            pending.add(p.documentId());
            stale.add(p.documentId());
        });
        var vectors = CompletableFuture.supplyAsync(() -> stopped != null ? Embedded.NONE
                : embedOrFail(batch), embedding);
        embedded = vectors;
        written.addLast(vectors.thenAcceptAsync(e -> {
            if (e.ok() && stopped == null && canceled.getAsBoolean()) {
                batch.forEach(p -> tally.failed(p.input().name(), p.input().name() + ": canceled before it was "
                        + "written: nothing of it was indexed", true));
            } else if (e.ok() && stopped == null) {
                try {
                    List<List<Extraction>> extractions = graph ? extract(batch) : null;
                    writer.write(batch, e.vectors(), e.wholes(), e.contexts(), extractions, kb, tally);
                } catch (IngestStopped x) {
                    stopped = x;
                    throw x;
                }
            }
        }, writing).whenComplete((x, e) -> batch.forEach(p -> pending.remove(p.documentId()))));
    }

    private Embedded embedOrFail(List<Prepared> batch) {
        try {
            List<List<String>> contexts = contextualize(batch);
            List<String> wholeTexts = !pipeline.stores().needsVectors() || !pipeline.wholeVectors ? null
                    : batch.stream().map(p -> WholeVectors.text(p.drafts().stream().map(p::indexText).toList(),
                            pipeline.embedder())).toList();
            List<float[]> vectors = embed(batch, contexts, wholeTexts);
            if (vectors == CANCELED) {
                batch.forEach(p -> tally.failed(p.input().name(), p.input().name() + ": canceled while it was "
                        + "embedded: nothing of it was indexed", true));
                return Embedded.NONE;
            }
            if (vectors == null) {
                return new Embedded(null, null, contexts, true);
            }
            // The chunks' vectors come first, then one per document embedded whole, in the batch's order.
            int chunks = batch.stream().mapToInt(p -> p.drafts().size()).sum();
            List<float[]> wholes = new ArrayList<>(batch.size());
            int next = chunks;
            for (int i = 0; i < batch.size(); i++) {
                String w = wholeTexts == null ? null : wholeTexts.get(i);
                wholes.add(w == null ? null : vectors.get(next++));
            }
            return new Embedded(vectors.subList(0, chunks), wholes, contexts, true);
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, "embedding failed", e);
            batch.forEach(p -> tally.failed(p.input().name(), p.input().name() + ": embedding failed: "
                    + e.getMessage(), true));
            return Embedded.NONE;
        }
    }

    /**
     * Each chunk's context (contextual retrieval), per document; null when it is off. A failed call or a spent
     * budget leaves chunks without one, with a warning; nothing fails the ingest.
     */
    private List<List<String>> contextualize(List<Prepared> batch) {
        Contextualizer c = pipeline.contextualizer();
        if (c == null) {
            return null;
        }
        tally.stage("situating");
        return spans.span("situate", Map.of("polyrag.documents", batch.size(), "polyrag.model", c.modelId()),
                () -> {
                    List<List<String>> out = new ArrayList<>();
                    int failed = 0;
                    String failure = null;
                    boolean spent = false;
                    for (Prepared p : batch) {
                        if (canceled.getAsBoolean()) {
                            out.add(null);
                            continue;
                        }
                        List<String> texts = p.drafts().stream().map(d -> IngestPipeline.graphText(d.kind(),
                                d.text())).toList();
                        Contextualizer.Result r = c.contexts(p.documentId(), p.parsed().title(), texts,
                                contextRemaining, canceled);
                        contextRemaining = Math.max(0, contextRemaining - r.tokens());
                        tally.situated(r.tokens());
                        // The chunks left without one, not the calls that failed (the rest were never asked).
                        // The chunks left without one, not the calls that failed (the rest were never asked); a
                        // document stopped by a cancel or the budget is not a failure of the model.
                        failed += r.failed() > 0 ? r.missing(texts) : 0;
                        failure = failure == null ? r.failure() : failure;
                        spent |= r.budgetStopped();
                        out.add(r.contexts());
                    }
                    if (failed > 0) {
                        tally.warn("contextual retrieval: " + failed + " chunks got no context (" + failure
                                + "); they are indexed without one: 'polyrag reindex --modality vector --all' "
                                + "(then fulltext) writes them once the model answers");
                    }
                    if (spent) {
                        tally.warn("contextual retrieval: the token budget (POLYRAG_CONTEXTUAL_TOKEN_BUDGET) ran "
                                + "out; later chunks are indexed without a context: raise it and run 'polyrag "
                                + "reindex --modality vector --all' (then fulltext) to write them");
                    }
                    return out;
                });
    }

    /** Waits until the batch handed on last is embedded (so the pace knows it). */
    void awaitEmbedded() {
        embedded.exceptionally(e -> null).join();
        check();
    }

    /**
     * Looks up the catalog's entries for the next {@value #LOOK_AHEAD} inputs in one query when input
     * {@code index} is past those looked up last: one query per document was a third of full-text-only ingest's
     * preparing time, most of it the database parsing the same statement again.
     */
    void lookAhead(List<IngestInput> inputs, int index) {
        if (index < knownUntil) {
            return;
        }
        knownUntil = Math.min(inputs.size(), index + LOOK_AHEAD);
        List<String> ids = new ArrayList<>(knownUntil - index);
        for (IngestInput in : inputs.subList(index, knownUntil)) {
            ids.add(Ids.documentId(kb, in.uri()));
        }
        stale.clear();
        // Batches still being written may publish their documents after the lookup has read them.
        stale.addAll(pending);
        known = pipeline.catalog().documentsById(ids);
    }

    /**
     * The catalog's entry for {@code documentId}, once no batch still to be written holds it: from the last
     * {@link #lookAhead} unless a batch handed on since then (or being written then) holds it.
     */
    Optional<DocumentInfo> existing(String documentId) {
        settle(documentId);
        return stale.contains(documentId) ? pipeline.catalog().document(documentId)
                : Optional.ofNullable(known.get(documentId));
    }

    /**
     * Waits until {@code documentId} is in no batch still to be written, so its catalog entry is current; throws what
     * stopped the ingest, if a write did meanwhile.
     */
    void settle(String documentId) {
        if (pending.contains(documentId)) {
            while (!written.isEmpty()) {
                join(written.removeFirst());
            }
        }
    }

    boolean idle() {
        return written.stream().allMatch(CompletableFuture::isDone);
    }

    /** Throws what stopped the ingest, once a write has. */
    void check() {
        if (stopped != null) {
            throw stopped;
        }
    }

    /** Waits for every batch handed on to be written. */
    void finish() {
        while (!written.isEmpty()) {
            join(written.removeFirst());
        }
        finished = true;
    }

    private void join(CompletableFuture<Void> f) {
        try {
            f.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error r) {
                throw r;
            }
            throw e;
        }
    }

    @Override
    public void close() {
        if (!finished && stopped == null) {
            // The caller's thread is leaving early: what was handed on is not written after the ingest returns.
            stopped = new StoreException("the ingest ended before this batch was written");
        }
        embedding.shutdown();
        writing.shutdown();
        boolean interrupted = false;
        while (true) {
            try {
                if (writing.awaitTermination(1, TimeUnit.MINUTES)
                        && embedding.awaitTermination(1, TimeUnit.MINUTES)) {
                    break;
                }
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * A batch's vectors, its documents' whole vectors (one per document, null where it has none) and contexts (each
     * null when off), or {@link #NONE}: embedding failed or was skipped.
     */
    private record Embedded(List<float[]> vectors, List<float[]> wholes, List<List<String>> contexts, boolean ok) {
        static final Embedded NONE = new Embedded(null, null, null, false);
    }

    /** What is left of one ingest's extraction budget. */
    private static final class Budget {
        long remaining;

        Budget(long remaining) {
            this.remaining = remaining;
        }
    }

    /** What {@link #embed} returns when the ingest was canceled while it embedded. */
    private static final List<float[]> CANCELED = List.of();

    /** Texts embedded between two looks at whether the ingest was canceled (a few seconds of the model's time). */
    private static final int EMBED_SLICE = 64;

    /**
     * Each document's extractions, one per chunk. The whole batch goes to the extractor at once, so it can work in
     * parallel; an extractor that fails fails the batch's graph part only: its documents are indexed without one and
     * the report says so.
     */
    private List<List<Extraction>> extract(List<Prepared> prepared) {
        tally.stage("extracting");
        List<String> texts = new ArrayList<>();
        for (Prepared p : prepared) {
            p.drafts().forEach(d -> texts.add(IngestPipeline.graphText(d.kind(), d.text())));
        }
        List<Extraction> found;
        long paidForNothing = 0;
        EntityExtractor.TimeLimits limits = new EntityExtractor.TimeLimits(pipeline.extractPerText(), System.nanoTime()
                + pipeline.extractPerBatch().toNanos());
        try {
            found = spans.span("extract", Map.of("polyrag.chunks", texts.size(), "polyrag.extractor", pipeline.extractor().id()),
                    () -> pipeline.extractor().extract(texts, budget.remaining, limits));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "entity extraction failed for a batch of " + prepared.size() + " documents", e);
            tally.warn("entity extraction failed (" + e.getMessage() + "); " + prepared.size()
                    + " documents were indexed without graph relations: " + String.join(", ", prepared.stream()
                    .limit(3).map(x -> x.input().name()).toList()) + (prepared.size() > 3 ? ", …" : ""));
            // Stopped, not extracted: recorded as such, so ingesting the same bytes again extracts them.
            found = texts.stream().map(t -> Extraction.TIME_STOPPED).toList();
            paidForNothing = e instanceof EntityExtractor.Failed f ? f.tokensSpent() : 0;
        }
        long spent = found.stream().mapToLong(Extraction::tokens).sum() + paidForNothing;
        budget.remaining = Math.max(0, budget.remaining - spent);
        tally.extracted(0, spent);
        if (found.stream().anyMatch(Extraction::budgetStopped)) {
            tally.warn("the extraction token budget ran out: later chunks were indexed without graph relations; "
                    + "raise POLYRAG_GRAPH_TOKEN_BUDGET (or the tenant's extraction_tokens_per_day quota, when it set "
                    + "the budget) and ingest again to extract them");
        }
        List<List<Extraction>> out = new ArrayList<>();
        int from = 0;
        for (Prepared p : prepared) {
            List<Extraction> mine = found.subList(from, from + p.drafts().size());
            if (mine.stream().anyMatch(Extraction::timeStopped)) {
                // All or nothing per document: a graph with half a document's relations would mislead the walk.
                tally.warn(p.input().name() + ": entity extraction took longer than it may (" + pipeline.extractPerText()
                        .toMillis() + " ms a chunk, " + pipeline.extractPerBatch().toSeconds() + " s a batch) and was skipped: "
                        + "the document is indexed without graph relations");
                mine = mine.stream().map(x -> Extraction.TIME_STOPPED).toList();
            }
            out.add(mine);
            from += p.drafts().size();
        }
        return out;
    }

    /** The chunks' vectors, then those of the documents {@code wholeTexts} names a text for ({@link WholeVectors}). */
    private List<float[]> embed(List<Prepared> prepared, List<List<String>> contexts, List<String> wholeTexts) {
        if (!pipeline.stores().needsVectors()) {
            return null;
        }
        tally.stage("embedding");
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < prepared.size(); i++) {
            Prepared p = prepared.get(i);
            for (int j = 0; j < p.drafts().size(); j++) {
                texts.add(Contextualizer.withContextFitted(Prepared.context(contexts, i, j), p.indexText(p.drafts()
                        .get(j)), pipeline.embedder()));
            }
        }
        if (wholeTexts != null) {
            wholeTexts.stream().filter(w -> w != null).forEach(texts::add);
        }
        return spans.span("embed", Map.of("polyrag.chunks", texts.size(), "polyrag.model", pipeline.embedder().modelId()),
                () -> {
                    long start = System.nanoTime();
                    List<float[]> vectors = new ArrayList<>(texts.size());
                    for (int i = 0; i < texts.size(); i += EMBED_SLICE) {
                        if (canceled.getAsBoolean()) {
                            return CANCELED;
                        }
                        vectors.addAll(pipeline.embedder().embedPassages(texts.subList(i, Math.min(texts.size(),
                                i + EMBED_SLICE))));
                    }
                    if (pace != null) {
                        pace.record(texts.size(), System.nanoTime() - start);
                    }
                    return vectors;
                });
    }
}
