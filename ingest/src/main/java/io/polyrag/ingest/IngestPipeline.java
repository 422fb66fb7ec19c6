package io.polyrag.ingest;

import io.polyrag.core.InvalidInputException;
import io.polyrag.core.StorageProblems;
import io.polyrag.core.StoreException;
import io.polyrag.core.model.Chunk;
import io.polyrag.core.model.ChunkDraft;
import io.polyrag.core.model.ChunkGraph;
import io.polyrag.core.model.ChunkKind;
import io.polyrag.core.model.DocumentDraft;
import io.polyrag.core.model.DocumentInfo;
import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.ExtractedFigure;
import io.polyrag.core.model.Extraction;
import io.polyrag.core.model.Figure;
import io.polyrag.core.model.FigureMode;
import io.polyrag.core.model.Ids;
import io.polyrag.core.model.IndexedDocument;
import io.polyrag.core.model.IngestEstimate;
import io.polyrag.core.model.IngestReport;
import io.polyrag.core.model.ItemError;
import io.polyrag.core.model.KnowledgeBase;
import io.polyrag.core.model.ParsedDocument;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.SourceItem;
import io.polyrag.core.model.StoreRecord;
import io.polyrag.core.model.Tenant;
import io.polyrag.core.model.VersionRecords;
import io.polyrag.core.port.BlobStore;
import io.polyrag.core.port.Catalog;
import io.polyrag.core.port.Chunker;
import io.polyrag.core.port.Embedder;
import io.polyrag.core.port.EntityExtractor;
import io.polyrag.core.port.Parser;
import io.polyrag.core.port.ProgressListener;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
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
import java.util.function.Supplier;
import java.util.stream.IntStream;

/**
 * parse → chunk → embed → write → publish: the only path by which documents enter the stores.
 *
 * <p>Documents go through in batches. Each input is read, hashed and parsed (an input whose bytes and indexing
 * settings are unchanged is skipped) and joins the batch; a batch closes at {@link Options#batchSize()} documents (0:
 * with vectors on, at about a second of embedding at the ingest's last batch's pace, else by chunks only) or
 * {@link Options#batchChunks()} chunks, so progress moves as large files complete. A batch's chunks are embedded
 * together (the embedder parallelises), while the caller's thread parses the next batch and another thread writes the
 * one before ({@link Flow}); batches are written in the order their inputs came.
 * Each document gets a new version, staged in the catalog; the batch is upserted into every enabled store, each
 * commit durable; then each version is published — made visible — and the versions it replaced are deleted from the
 * stores. If a store write fails, the batch's new versions are removed from every store and discarded in the
 * catalog, so no document is ever visible in some stores and not others, and the versions that were visible stay
 * visible. One bad input fails alone, with its reason; the rest go on.
 *
 * <p>When a graph or RDF store is enabled, each document's chunks also go through the entity extractor and the
 * {@link EntityResolver}, and every store record carries its chunk's part of the graph. An ingest may skip this
 * ({@link Run#skipGraph()}); a language-model extractor stops cleanly at the run's token budget, and the rest of the
 * documents are indexed without a graph part, with a warning in the report.
 */
public final class IngestPipeline {
    private static final System.Logger LOG = System.getLogger(IngestPipeline.class.getName());
    private static final WordTokenCounter TOKENS = new WordTokenCounter();
    /** A batch also closes once its documents hold this many bytes of figure images (they wait in memory). */
    private static final long BATCH_FIGURE_BYTES = 64L << 20;

    /**
     * @param batchSize most documents written together
     * @param batchChunks a batch is written as soon as its documents hold this many chunks, so large files are
     *     embedded and written one or a few at a time and progress moves as each completes (memory stays bounded too)
     * @param maxFileBytes larger inputs are refused
     * @param signature the indexing settings (modalities, model, chunk sizes): content re-ingested under different
     *     settings is re-indexed, not skipped
     * @param skipDuplicates leave out an input whose content is already indexed (or seen earlier in the same ingest)
     *     under another uri in its knowledge base; it counts as unchanged and is listed with outcome
     *     {@code duplicate} ({@code ingest.duplicates=skip})
     */
    public record Options(int batchSize, int batchChunks, long maxFileBytes, String signature,
            boolean skipDuplicates) {
        /** Chunks that close a batch when a caller does not say. */
        public static final int DEFAULT_BATCH_CHUNKS = 256;
        /**
         * Chunks in an ingest's first automatic batch with vectors on; later ones hold as many as the embedder took
         * about {@link #AUTO_BATCH_EMBED_NANOS} for in the previous batch (at least this many, at most
         * {@code batchChunks}, and at most four times the previous batch).
         */
        public static final int AUTO_BATCH_FIRST_CHUNKS = 16;
        /**
         * With vectors off a batch closes at this many times {@code batchChunks} (1,024 chunks by default): with
         * nothing to embed, a batch's durable commits (catalog and store) are most of its cost. Measured on SciFact's
         * 8,117 chunks, full text only, warm: 256 chunks a batch 2,900-3,700 chunks/s, 1,024 3,900-5,000; 2,048 and
         * 4,096 no faster (the parsing of the next batch no longer overlaps the last one's write).
         */
        public static final int TEXT_ONLY_BATCH_FACTOR = 4;
        /** Embedding time an automatic batch aims at: progress moves about once a second, commits stay few. */
        public static final long AUTO_BATCH_EMBED_NANOS = 1_000_000_000L;

        public Options(int batchSize, long maxFileBytes, String signature, boolean skipDuplicates) {
            this(batchSize, DEFAULT_BATCH_CHUNKS, maxFileBytes, signature, skipDuplicates);
        }

        /** Options that index duplicates. */
        public Options(int batchSize, long maxFileBytes, String signature) {
            this(batchSize, DEFAULT_BATCH_CHUNKS, maxFileBytes, signature, false);
        }
    }

    /**
     * Choices for one ingest.
     *
     * @param skipGraph index without extracting entities and relations (the graph and RDF stores get nothing)
     * @param tokenBudget most language-model tokens extraction may spend in this ingest; 0 means no limit
     * @param canceled asked before each input: true stops the ingest there (what was written stays written)
     * @param figures which figures to take from PDFs and Office files; null for the configured default
     * @param limit asked before each input: a reason (a tenant's quota reached) stops the ingest there, the inputs
     *     left failing with it; null goes on
     */
    public record Run(boolean skipGraph, long tokenBudget, BooleanSupplier canceled,
            FigureMode figures, Supplier<String> limit) {
        public static final Run DEFAULT = new Run(false, 0);

        public Run(boolean skipGraph, long tokenBudget, BooleanSupplier canceled,
                FigureMode figures) {
            this(skipGraph, tokenBudget, canceled, figures, () -> null);
        }

        /** This run, stopped before an input once {@code limit} gives a reason. */
        public Run limitedBy(Supplier<String> limit) {
            return new Run(skipGraph, tokenBudget, canceled, figures, limit);
        }

        public Run(boolean skipGraph, long tokenBudget) {
            this(skipGraph, tokenBudget, () -> false);
        }

        public Run(boolean skipGraph, long tokenBudget, BooleanSupplier canceled) {
            this(skipGraph, tokenBudget, canceled, null);
        }
    }

    /**
     * Where figures go and how many an ingest keeps.
     *
     * @param blobs the store that keeps their images (with the documents' originals)
     * @param defaultMode the mode of an ingest that does not say
     * @param perFile most figures kept from one file
     * @param perFileBytes most image bytes kept from one file
     * @param perIngest most figures kept by one ingest
     * @param perIngestBytes most image bytes kept by one ingest
     * @param timeoutMs longest one file's extraction may take
     */
    public record FigureOptions(BlobStore blobs, FigureMode defaultMode, int perFile,
            long perFileBytes, int perIngest, long perIngestBytes, long timeoutMs) {
    }

    /** A figure about to be indexed: its chunk's place among the document's drafts, what the catalog keeps, its bytes. */
    private record PreparedFigure(int draft, Figure figure, byte[] bytes) {
    }

    private record Prepared(IngestInput input, String documentId, String fingerprint, long size,
            ParsedDocument parsed, List<ChunkDraft> drafts, boolean replacing, List<PreparedFigure> figures) {
    }

    /** What is left of one ingest's figure allowance. */
    private static final class FigureBudget {
        int count;
        long bytes;
        boolean warned;

        FigureBudget(int count, long bytes) {
            this.count = count;
            this.bytes = bytes;
        }
    }

    private final Catalog catalog;
    private final Parser parser;
    private final Chunker chunker;
    private final Embedder embedder;
    private final StoreSet stores;
    private final Options options;
    private final EntityExtractor extractor;
    private volatile FigureOptions figureOptions;
    private volatile Duration extractPerText = Duration.ofSeconds(2);
    private volatile Duration extractPerBatch = Duration.ofMinutes(5);
    private Spans spans = Spans.NONE;
    private volatile Contextualizer contextualizer;
    private volatile long contextBudget;

    public IngestPipeline(Catalog catalog, Parser parser, Chunker chunker, Embedder embedder, StoreSet stores,
            Options options) {
        this(catalog, parser, chunker, embedder, null, stores, options);
    }

    /** @param extractor finds entities and relations for the graph and RDF stores; needed when one is enabled */
    public IngestPipeline(Catalog catalog, Parser parser, Chunker chunker, Embedder embedder,
            EntityExtractor extractor, StoreSet stores, Options options) {
        if (stores.needsVectors() && embedder == null) {
            throw new IllegalArgumentException("a vector store is enabled but no embedder was given");
        }
        if (stores.needsGraph() && extractor == null) {
            throw new IllegalArgumentException("a graph or RDF store is enabled but no entity extractor was given");
        }
        this.catalog = catalog;
        this.parser = parser;
        this.chunker = chunker;
        this.embedder = embedder;
        this.extractor = extractor;
        this.stores = stores;
        this.options = options;
    }

    /**
     * How long entity extraction may take: on one chunk, and on one batch of documents. A document whose extraction
     * runs over is indexed without graph relations, with a warning naming it: one pathological file never holds a
     * worker (and every tenant queued behind it) for minutes.
     */
    public void extractionTime(Duration perChunk, Duration perBatch) {
        this.extractPerText = perChunk;
        this.extractPerBatch = perBatch;
    }

    public StoreSet stores() {
        return stores;
    }

    /**
     * Where an ingest's steps are seen in a trace: each file's parse and chunking, each batch's embedding, extraction,
     * staging, each store's write and the publish, as spans of the trace current on the ingesting thread (a job's),
     * which the embedding and writing threads carry on. Nothing is traced outside a trace.
     */
    public interface Spans {
        Spans NONE = new Spans() {
        };

        /** Runs {@code body} as a span named {@code name} with {@code attributes}; by default just runs it. */
        default <T> T span(String name, Map<String, Object> attributes, Supplier<T> body) {
            return body.get();
        }

        /** The executor a stage runs on, carrying the submitting thread's trace into its tasks. */
        default ExecutorService carrying(ExecutorService stage) {
            return stage;
        }
    }

    /**
     * Turns contextual retrieval on: each chunk is indexed (embedded and full-text) with the sentences {@code c}
     * writes to situate it in its document, at most {@code tokenBudget} model tokens an ingest (0: no limit). Called
     * once, before the first ingest.
     */
    public void contextual(Contextualizer c, long tokenBudget) {
        this.contextualizer = c;
        this.contextBudget = tokenBudget;
    }

    /** The contextualizer, when contextual retrieval is on; else null. */
    public Contextualizer contextualizer() {
        return contextualizer;
    }

    /** Traces this pipeline's steps through {@code spans}. Called once, before the first ingest. */
    public void traced(Spans spans) {
        this.spans = spans;
    }

    /**
     * Turns figure extraction on: figures are taken from PDFs and Office files, indexed as chunks of kind figure and
     * their images kept in {@code options.blobs()}, deleted with their document version. Call before the first
     * ingest.
     */
    public IngestPipeline figures(FigureOptions options) {
        this.figureOptions = options;
        return this;
    }

    /** The figure mode an ingest runs with: its own, else the configured default; skip when figures are off. */
    private FigureMode figureMode(Run run) {
        FigureOptions f = figureOptions;
        if (f == null) {
            return FigureMode.SKIP;
        }
        return run.figures() == null ? f.defaultMode() : run.figures();
    }

    Catalog catalog() {
        return catalog;
    }

    Embedder embedder() {
        return embedder;
    }

    EntityExtractor extractor() {
        return extractor;
    }

    /** A knowledge base's stored name ({@code tenant/name} or {@code name}); null or blank: the local default. */
    private static String checkedStorageName(String stored) {
        return stored == null || stored.isBlank() ? KnowledgeBase.DEFAULT.storageName()
                : KnowledgeBase.ofStored(stored).storageName();
    }

    /** Ingests {@code inputs} into knowledge base {@code knowledgeBase}; never throws for a bad input. */
    public IngestReport ingest(List<IngestInput> inputs, String knowledgeBase, ProgressListener listener) {
        return ingest(inputs, knowledgeBase, Run.DEFAULT, listener);
    }

    /** Ingests {@code inputs} with the choices of {@code run}; never throws for a bad input. */
    // style: the pipeline's stages in order for one batch, read top to bottom
    public IngestReport ingest(List<IngestInput> inputs, String knowledgeBase, Run run, ProgressListener listener) {
        String kb = checkedStorageName(knowledgeBase);
        Tally tally = new Tally(inputs.size(), stores.names(), listener);
        Budget budget = new Budget(run.tokenBudget() > 0 ? run.tokenBudget() : Long.MAX_VALUE);
        FigureOptions f = figureOptions;
        FigureMode figures = figureMode(run);
        FigureBudget figureBudget = f == null ? new FigureBudget(0, 0) : new FigureBudget(f.perIngest(),
                f.perIngestBytes());
        boolean graph = stores.needsGraph() && !run.skipGraph();
        List<Prepared> batch = new ArrayList<>();
        int batchChunks = 0;
        long batchFigureBytes = 0;
        int seen = 0;
        // Batch size 0 is automatic. With no embedding to wait for, a batch's cost is its durable commits (catalog
        // and each store): it closes on its chunk count only. With vectors, at about a second of embedding, so
        // progress moves as the model works, while vectors that come fast (the embedding cache, a fast model) are
        // not written a few at a time at the cost of a commit each. An explicit size is kept either way.
        // The pace is this ingest's own: another ingest's (one served from the embedding cache, say) says nothing of
        // how fast this one's texts embed.
        Pace pace = options.batchSize() <= 0 && stores.needsVectors() ? new Pace() : null;
        int chunksPerBatch = stores.needsVectors() ? options.batchChunks()
                : options.batchChunks() * Options.TEXT_ONLY_BATCH_FACTOR;
        int documentsPerBatch = options.batchSize() > 0 ? options.batchSize() : chunksPerBatch;
        try (Flow flow = new Flow(kb, graph, budget, tally, pace, run.canceled())) {
            for (IngestInput input : inputs) {
                if (run.canceled().getAsBoolean()) {
                    tally.warn("canceled by request after " + seen + " of " + inputs.size() + " inputs; what was "
                            + "written before stays indexed");
                    break;
                }
                String limit = run.limit().get();
                if (limit != null) {
                    for (IngestInput rest : inputs.subList(seen, inputs.size())) {
                        tally.failed(rest.name(), rest.name() + ": not indexed: " + limit);
                    }
                    tally.warn("stopped after " + seen + " of " + inputs.size() + " inputs: " + limit + "; what was "
                            + "written before stays indexed");
                    break;
                }
                seen++;
                flow.check();
                if (flow.idle()) {
                    tally.stage("parsing");
                }
                flow.lookAhead(inputs, seen - 1);
                Optional<Prepared> p = prepare(input, kb, graph, figures, figureBudget, tally, flow);
                if (p.isEmpty()) {
                    continue;
                }
                batch.add(p.get());
                batchChunks += p.get().drafts().size();
                batchFigureBytes += p.get().figures().stream().mapToLong(fig -> fig.bytes().length).sum();
                boolean full = batch.size() >= documentsPerBatch || batchFigureBytes >= BATCH_FIGURE_BYTES;
                if (!full && pace != null && batchChunks >= pace.chunks(options.batchChunks())) {
                    // The size comes from the pace of every batch embedded so far: the one before this may still
                    // be embedding (it is, when parsing is faster than the model), and its pace may say "more".
                    flow.awaitEmbedded();
                    full = batchChunks >= pace.chunks(options.batchChunks());
                } else if (!full) {
                    full = pace == null && batchChunks >= chunksPerBatch;
                }
                if (full) {
                    flow.submit(batch);
                    batch = new ArrayList<>();
                    batchChunks = 0;
                    batchFigureBytes = 0;
                }
            }
            if (!batch.isEmpty()) {
                flow.submit(batch);
            }
            flow.finish();
        }
        tally.stage("done");
        return tally.report();
    }

    /**
     * One ingest's batches on their way through the stages, so the two cores are not idle while one stage waits:
     * the caller's thread reads and parses the next batch while one thread embeds the last, and another extracts from
     * and writes the one before (its commits wait on the disk, not on a core). Batches are embedded in order and
     * written in order; at most two wait between parsing and their commit, so memory stays bounded. A write that
     * stops the ingest (a full disk) lets no later batch be written, and the caller's thread throws it.
     */
    private final class Flow implements AutoCloseable {
        private static final int IN_FLIGHT = 2;
        private static final int LOOK_AHEAD = 256;
        private final String kb;
        private final boolean graph;
        private final Budget budget;
        private final Tally tally;
        private final Pace pace;
        /** Asked between embedding slices and before each write: a batch canceled then is not written at all. */
        private final BooleanSupplier canceled;
        private final ExecutorService embedding = spans.carrying(stage("embed"));
        /** Model tokens contextual retrieval may still spend in this ingest (embedding thread only). */
        private long contextRemaining = contextBudget > 0 ? contextBudget : Long.MAX_VALUE;
        private final ExecutorService writing = spans.carrying(stage("write"));
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

        Flow(String kb, boolean graph, Budget budget, Tally tally, Pace pace,
                BooleanSupplier canceled) {
            this.canceled = canceled;
            this.kb = kb;
            this.graph = graph;
            this.budget = budget;
            this.tally = tally;
            this.pace = pace;
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
                            + "written: nothing of it was indexed"));
                } else if (e.ok() && stopped == null) {
                    try {
                        List<List<Extraction>> extractions = graph ? extract(batch, budget, tally) : null;
                        write(batch, e.vectors(), e.contexts(), extractions, kb, tally);
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
                List<float[]> vectors = embed(batch, contexts, tally, pace, canceled);
                if (vectors == CANCELED) {
                    batch.forEach(p -> tally.failed(p.input().name(), p.input().name() + ": canceled while it was "
                            + "embedded: nothing of it was indexed"));
                    return Embedded.NONE;
                }
                return new Embedded(vectors, contexts, true);
            } catch (RuntimeException e) {
                LOG.log(Level.ERROR, "embedding failed", e);
                batch.forEach(p -> tally.failed(p.input().name(), "embedding failed: " + e.getMessage()));
                return Embedded.NONE;
            }
        }

        /**
         * Each chunk's context (contextual retrieval), per document; null when it is off. A failed call or a spent
         * budget leaves chunks without one, with a warning; nothing fails the ingest.
         */
        private List<List<String>> contextualize(List<Prepared> batch) {
            Contextualizer c = contextualizer;
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
                            Contextualizer.Result r = c.contexts(p.documentId(), p.parsed().title(), p.drafts().stream()
                                    .map(d -> graphText(d.kind(), d.text())).toList(), contextRemaining);
                            contextRemaining = Math.max(0, contextRemaining - r.tokens());
                            tally.situated(r.tokens());
                            failed += r.failed();
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
            known = catalog.documentsById(ids);
        }

        /**
         * The catalog's entry for {@code documentId}, once no batch still to be written holds it: from the last
         * {@link #lookAhead} unless a batch handed on since then (or being written then) holds it.
         */
        Optional<DocumentInfo> existing(String documentId) {
            settle(documentId);
            return stale.contains(documentId) ? catalog.document(documentId)
                    : Optional.ofNullable(known.get(documentId));
        }

        /** Waits until {@code documentId} is in no batch still to be written, so its catalog entry is current. */
        private void settle(String documentId) {
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
    }

    /** A batch's vectors (null with no vector store), or {@link #NONE}: its embedding failed or was skipped. */
    /** A batch's vectors and contexts (either null when off), or {@link #NONE}: embedding failed or was skipped. */
    private record Embedded(List<float[]> vectors, List<List<String>> contexts, boolean ok) {
        static final Embedded NONE = new Embedded(null, null, false);
    }

    /**
     * An ingest stopped because a store could not write: the batch being written was rolled back, the documents of
     * earlier batches stay indexed, later ones were not attempted. The message is one line naming the cause and the
     * fix; {@link #report()} has what was done before.
     */
    public static final class IngestStopped extends StoreException {
        private static final long serialVersionUID = 1L;
        private final transient IngestReport report;

        IngestStopped(Tally tally, RuntimeException cause) {
            super(summary(tally.report(), cause), cause);
            this.report = tally.report();
        }

        private static String summary(IngestReport r, RuntimeException cause) {
            return "ingest stopped: " + cause.getMessage() + " (" + (r.added() + r.updated() + r.unchanged())
                    + " of " + r.documents() + " inputs were indexed or unchanged before it; the rest were not "
                    + "written)";
        }

        /** What the ingest did before it stopped. */
        public IngestReport report() {
            return report;
        }
    }

    /** What is left of one ingest's extraction budget. */
    private static final class Budget {
        long remaining;

        Budget(long remaining) {
            this.remaining = remaining;
        }
    }

    /**
     * What extracting entities and relations from {@code inputs} would cost, without writing anything or calling a
     * model: the inputs are read, parsed and chunked, and the extractor estimates.
     */
    public IngestEstimate estimate(List<IngestInput> inputs) {
        return estimate(inputs, null);
    }

    /**
     * Like {@link #estimate(List)}, for an ingest into {@code kb} (its stored name; null when not known: every chunk
     * context then counts as not cached).
     */
    public IngestEstimate estimate(List<IngestInput> inputs, String kb) {
        long documents = 0;
        long chunks = 0;
        long tokens = 0;
        EntityExtractor.Estimate cost = EntityExtractor.Estimate.FREE;
        long[] context = new long[3];
        List<ItemError> errors = new ArrayList<>();
        for (IngestInput input : inputs) {
            try {
                byte[] bytes = input.content().read();
                if (bytes.length > options.maxFileBytes()) {
                    throw tooLarge(input, bytes.length);
                }
                List<ChunkDraft> drafts = chunker.chunk(parser.parse(new SourceItem(input.uri(), input.name(), bytes,
                        input.mediaType())));
                documents++;
                chunks += drafts.size();
                tokens += drafts.stream().mapToLong(ChunkDraft::tokenCount).sum();
                if (stores.needsGraph()) {
                    EntityExtractor.Estimate e = extractor.estimate(drafts.stream().map(ChunkDraft::text).toList());
                    cost = new EntityExtractor.Estimate(cost.calls() + e.calls(), cost.inputTokens() + e.inputTokens(),
                            cost.outputTokens() + e.outputTokens());
                }
                if (contextualizer != null) {
                    long[] c = contextualizer.estimate(kb == null ? "" : Ids.documentId(kb, input.uri()), drafts
                            .stream().map(d -> graphText(d.kind(), d.text()))
                            .toList());
                    for (int i = 0; i < 3; i++) {
                        context[i] += c[i];
                    }
                }
            } catch (IOException | RuntimeException e) {
                errors.add(new ItemError(input.name(), e.getMessage()));
            }
        }
        return new IngestEstimate(documents, chunks, tokens, stores.needsGraph() ? extractor.id() : "none", cost.calls(),
                cost.inputTokens(), cost.outputTokens(), errors, context[0], context[1], context[2]);
    }

    /**
     * Each document's extractions, one per chunk. The whole batch goes to the extractor at once, so it can work in
     * parallel; an extractor that fails fails the batch's graph part only: its documents are indexed without one and
     * the report says so.
     */
    private List<List<Extraction>> extract(List<Prepared> prepared, Budget budget, Tally tally) {
        tally.stage("extracting");
        List<String> texts = new ArrayList<>();
        for (Prepared p : prepared) {
            p.drafts().forEach(d -> texts.add(graphText(d.kind(), d.text())));
        }
        List<Extraction> found;
        EntityExtractor.TimeLimits limits = new EntityExtractor.TimeLimits(extractPerText, System.nanoTime()
                + extractPerBatch.toNanos());
        try {
            found = spans.span("extract", Map.of("polyrag.chunks", texts.size(), "polyrag.extractor", extractor.id()),
                    () -> extractor.extract(texts, budget.remaining, limits));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "entity extraction failed for a batch of " + prepared.size() + " documents", e);
            tally.warn("entity extraction failed (" + e.getMessage() + "); " + prepared.size()
                    + " documents were indexed without graph relations");
            found = texts.stream().map(t -> Extraction.EMPTY).toList();
        }
        long spent = found.stream().mapToLong(Extraction::tokens).sum();
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
                tally.warn(p.input().name() + ": entity extraction took longer than it may (" + extractPerText
                        .toMillis() + " ms a chunk, " + extractPerBatch.toSeconds() + " s a batch) and was skipped: "
                        + "the document is indexed without graph relations");
                mine = mine.stream().map(x -> Extraction.EMPTY).toList();
            }
            out.add(mine);
            from += p.drafts().size();
        }
        return out;
    }

    /**
     * What of a chunk the entity extractor reads: nothing of code, which names no entity a question asks about
     * ({@code String::from} is no relation of a Rust tutorial's author); all of anything else.
     */
    static String graphText(ChunkKind kind, String text) {
        return kind == ChunkKind.CODE ? "" : text;
    }

    /** Reads, checks, hashes and parses one input; empty when it is unchanged or failed (recorded in the tally). */
    private Optional<Prepared> prepare(IngestInput input, String kb, boolean graph, FigureMode figures,
            FigureBudget figureBudget, Tally tally, Flow flow) {
        try {
            if (input.size() > options.maxFileBytes()) {
                throw tooLarge(input, input.size());
            }
            byte[] bytes = input.content().read();
            if (bytes.length > options.maxFileBytes()) {
                throw tooLarge(input, bytes.length);
            }
            String id = Ids.documentId(kb, input.uri());
            String fingerprint = fingerprint(bytes, graph, figures);
            Optional<DocumentInfo> existing = flow.existing(id);
            if (existing.isPresent() && existing.get().visibleVersion() > 0
                    && existing.get().contentHash().equals(fingerprint)) {
                tally.unchanged(new IndexedDocument(input.uri(), id, existing.get().visibleVersion(), "unchanged"));
                return Optional.empty();
            }
            if (options.skipDuplicates() && duplicate(input, kb, fingerprint, tally)) {
                return Optional.empty();
            }
            SourceItem item = new SourceItem(input.uri(), input.name(), bytes, input.mediaType());
            ParsedDocument parsed = spans.span("parse", Map.of("polyrag.file", input.name(), "polyrag.bytes",
                    bytes.length), () -> parser.parse(item));
            List<ChunkDraft> drafts = spans.span("chunk", Map.of("polyrag.file", input.name()),
                    () -> chunker.chunk(parsed));
            if (drafts.isEmpty()) {
                throw new InvalidInputException(input.name() + ": no text to index");
            }
            List<PreparedFigure> found = List.of();
            String recorded = fingerprint;
            if (figures != FigureMode.SKIP) {
                List<ChunkDraft> all = new ArrayList<>(drafts);
                boolean[] partial = {false};
                found = figures(item, parsed, all, figures, figureBudget, tally, partial);
                drafts = List.copyOf(all);
                if (partial[0]) {
                    // Its figures were cut short by this ingest's allowance or by time: recorded under another
                    // fingerprint, so the next ingest of the same bytes tries again instead of finding it unchanged.
                    recorded = Ids.sha256Hex((fingerprint + ";figures=partial").getBytes(StandardCharsets.UTF_8));
                }
            }
            tally.remember(fingerprint, new IndexedDocument(input.uri(), id, 0, "pending"));
            return Optional.of(new Prepared(input, id, recorded, bytes.length, parsed, drafts,
                    existing.map(d -> d.visibleVersion() > 0).orElse(false), found));
        } catch (InvalidInputException e) {
            tally.failed(input.name(), e.getMessage());
        } catch (IOException e) {
            tally.failed(input.name(), input.name() + ": cannot read it (" + e.getClass().getSimpleName() + ": "
                    + e.getMessage() + ")");
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "failed to prepare " + input.uri(), e);
            tally.failed(input.name(), input.name() + ": " + e.getClass().getSimpleName() + ": " + e.getMessage());
        }
        return Optional.empty();
    }

    /**
     * Takes one file's figures within the file's and the ingest's allowances and appends their chunk drafts (kind
     * figure, text: the caption, then the text read from the image) after its text chunks. Never fails the file: what
     * cannot be taken is named in a warning.
     */
    private List<PreparedFigure> figures(SourceItem item, ParsedDocument parsed, List<ChunkDraft> drafts,
            FigureMode mode, FigureBudget budget, Tally tally, boolean[] partial) {
        FigureOptions f = figureOptions;
        if (!parser.hasFigures(parsed.mediaType())) {
            return List.of();
        }
        if (budget.count <= 0 || budget.bytes <= 0) {
            partial[0] = f.perIngest() > 0;
            if (!budget.warned && f.perIngest() > 0) {
                budget.warned = true;
                tally.warn("figures: this ingest reached its limit (POLYRAG_FIGURES_INGEST_MAX, "
                        + "POLYRAG_FIGURES_INGEST_MAX_MB); later PDF and Office files were indexed without figures");
            }
            return List.of();
        }
        Parser.Figures found;
        boolean ingestBound = budget.count < f.perFile() || budget.bytes < f.perFileBytes();
        try {
            found = parser.figures(item, parsed.mediaType(), new Parser.FigureLimits(mode, Math.min(f.perFile(),
                    budget.count), Math.min(f.perFileBytes(), budget.bytes), f.timeoutMs()));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "figure extraction failed for " + item.name(), e);
            tally.warn(item.name() + ": figures could not be extracted; its text was indexed without them");
            partial[0] = true;
            return List.of();
        }
        found.warnings().forEach(w -> tally.warn(item.name() + ": " + w));
        // Cut short by time or a failure, or by what was left of this ingest's allowance (not by the per-file
        // limits, which the next ingest would meet again).
        partial[0] = found.cutShort() || ingestBound && !found.warnings().isEmpty();
        int textChunks = drafts.size();
        List<PreparedFigure> out = new ArrayList<>();
        for (ExtractedFigure x : found.figures()) {
            budget.count--;
            budget.bytes -= x.bytes().length;
            List<Integer> anchors = FigureAnchors.anchors(x, drafts.subList(0, textChunks));
            ChunkDraft anchor = drafts.get(anchors.getFirst());
            String text = FigureAnchors.text(x);
            drafts.add(new ChunkDraft(ChunkKind.FIGURE, text, anchor.headingPath(),
                    anchor.endOffset(), anchor.endOffset(), TOKENS.count(text), x.location()));
            out.add(new PreparedFigure(drafts.size() - 1, new Figure(out.size() + 1,
                    x.caption(), x.mediaType(), x.width(), x.height(), anchors, x.box()), x.bytes()));
        }
        return out;
    }

    /**
     * Whether the content is already indexed, or was seen earlier in this ingest, under another uri of the knowledge
     * base; if so it is recorded as a duplicate (unchanged: nothing to write) and a warning says how to index it.
     */
    private boolean duplicate(IngestInput input, String kb, String fingerprint, Tally tally) {
        Optional<IndexedDocument> same = tally.seen(fingerprint, input.uri());
        if (same.isEmpty()) {
            same = catalog.documentsWithContent(fingerprint, new SearchScope(Set.of(kb)))
                    .stream().filter(d -> !d.uri().equals(input.uri())).findFirst()
                    .map(d -> new IndexedDocument(d.uri(), d.id(), d.visibleVersion(), "indexed"));
        }
        if (same.isEmpty()) {
            return false;
        }
        tally.duplicate(new IndexedDocument(input.uri(), same.get().documentId(), same.get().version(),
                "duplicate of " + same.get().uri()));
        return true;
    }

    /**
     * What a document with these bytes is recorded under: a hash of the bytes and of the settings that index them,
     * so equal fingerprints mean equal index entries (and a changed setting re-indexes unchanged files).
     */
    public String fingerprint(byte[] bytes, boolean graph) {
        return fingerprint(bytes, graph, null);
    }

    /**
     * The fingerprint of bytes indexed with this figure mode (null: the configured default). The default mode adds
     * nothing, so documents indexed before figures existed are not all re-indexed at once; another mode re-indexes.
     */
    public String fingerprint(byte[] bytes, boolean graph, FigureMode figures) {
        FigureOptions f = figureOptions;
        FigureMode mode = f == null ? FigureMode.SKIP : figures == null ? f.defaultMode() : figures;
        return Ids.sha256Hex((Ids.sha256Hex(bytes) + "\n" + options.signature() + ";graph="
                + (graph && stores.needsGraph() ? extractor.id() : "off")
                + (mode == FigureMode.AUTO ? "" : ";figures=" + mode.wireName())).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The parser and chunker's verdict on an input, without writing anything.
     *
     * @param mediaType the type the content was parsed as, when it parses
     * @param problem why it would fail, or null when it would go in
     */
    public record Verdict(String mediaType, String problem) {
    }

    /** Parses and chunks {@code item} as an ingest would, and says whether it would go in. */
    public Verdict check(SourceItem item) {
        try {
            ParsedDocument parsed = parser.parse(item);
            if (chunker.chunk(parsed).isEmpty()) {
                return new Verdict(parsed.mediaType(), item.name() + ": no text to index");
            }
            return new Verdict(parsed.mediaType(), null);
        } catch (InvalidInputException e) {
            return new Verdict(null, e.getMessage());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "checking " + item.name() + " failed", e);
            return new Verdict(null, item.name() + ": could not be parsed (an unexpected parser error; the server log "
                    + "has the details)");
        }
    }

    private InvalidInputException tooLarge(IngestInput input, long size) {
        return new InvalidInputException(String.format(Locale.ROOT,
                "%s: too large (%.1f MiB; the limit is %.1f MiB): raise POLYRAG_INGEST_MAX_FILE_MB to ingest it",
                input.name(), size / 1048576.0, options.maxFileBytes() / 1048576.0));
    }

    /** How fast one ingest's texts embed, and so how many chunks its next automatic batch holds. */
    private static final class Pace {
        private double nanosPerChunk;
        private int lastChunks;

        /** About {@link Options#AUTO_BATCH_EMBED_NANOS} of embedding at the last batch's pace, within the bounds. */
        synchronized int chunks(int max) {
            if (nanosPerChunk <= 0) {
                return Math.min(max, Options.AUTO_BATCH_FIRST_CHUNKS);
            }
            double fit = Math.min(Options.AUTO_BATCH_EMBED_NANOS / nanosPerChunk, 4.0 * lastChunks);
            return (int) Math.min(max, Math.max(Options.AUTO_BATCH_FIRST_CHUNKS, fit));
        }

        synchronized void record(int chunks, long nanos) {
            if (chunks > 0) {
                nanosPerChunk = (double) nanos / chunks;
                lastChunks = chunks;
            }
        }
    }

    /** What {@link #embed} returns when the ingest was canceled while it embedded. */
    private static final List<float[]> CANCELED = List.of();
    /** Texts embedded between two looks at whether the ingest was canceled (a few seconds of the model's time). */
    private static final int EMBED_SLICE = 64;
    /** Deletes of up to this many documents drop their cached vectors ({@link #delete}). */
    private static final int FORGET_ON_DELETE_MAX = 1_000;

    private List<float[]> embed(List<Prepared> prepared, List<List<String>> contexts, Tally tally, Pace pace,
            BooleanSupplier canceled) {
        if (!stores.needsVectors()) {
            return null;
        }
        tally.stage("embedding");
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < prepared.size(); i++) {
            Prepared p = prepared.get(i);
            for (int j = 0; j < p.drafts().size(); j++) {
                texts.add(Contextualizer.withContext(context(contexts, i, j), indexText(p, p.drafts().get(j))));
            }
        }
        return spans.span("embed", Map.of("polyrag.chunks", texts.size(), "polyrag.model", embedder.modelId()),
                () -> {
                    long start = System.nanoTime();
                    List<float[]> vectors = new ArrayList<>(texts.size());
                    for (int i = 0; i < texts.size(); i += EMBED_SLICE) {
                        if (canceled.getAsBoolean()) {
                            return CANCELED;
                        }
                        vectors.addAll(embedder.embedPassages(texts.subList(i, Math.min(texts.size(),
                                i + EMBED_SLICE))));
                    }
                    if (pace != null) {
                        pace.record(texts.size(), System.nanoTime() - start);
                    }
                    return vectors;
                });
    }

    private static String indexText(Prepared p, ChunkDraft d) {
        return Chunk.indexText(p.parsed().title(), d.headingPath(), d.text());
    }

    /** Document {@code d}'s chunk {@code c}'s context, or null. */
    private static String context(List<List<String>> contexts, int d, int c) {
        if (contexts == null || contexts.get(d) == null || c >= contexts.get(d).size()) {
            return null;
        }
        return contexts.get(d).get(c);
    }

    // style: the per-store writes of one batch in their order (catalog first, then each leg), with their failures
    private void write(List<Prepared> prepared, List<float[]> vectors, List<List<String>> contexts,
            List<List<Extraction>> extractions, String kb, Tally tally) {
        tally.stage("writing");
        List<DocumentVersion> staged = new ArrayList<>();
        List<StoreRecord> records = new ArrayList<>();
        int vectorIndex = 0;
        int relationCount = 0;
        // A tenant's entities live in its namespace, so tenants never share an entity node (nor its names).
        String namespace = Tenant.ofStored(kb).namespace();
        try {
            // One transaction allocates the batch's versions, one stages them, one publishes them: a durable commit
            // each, not three per document (that was most of a full-text-only ingest's time).
            List<Long> versions = catalog.nextVersions(prepared.stream().map(Prepared::documentId).toList());
            List<DocumentDraft> drafts = new ArrayList<>();
            List<List<Chunk>> allChunks = new ArrayList<>();
            List<List<ChunkGraph>> allGraphs = new ArrayList<>();
            for (int d = 0; d < prepared.size(); d++) {
                Prepared p = prepared.get(d);
                long version = versions.get(d);
                List<Chunk> chunks = chunks(p, version);
                List<ChunkGraph> graphs = extractions == null ? null : EntityResolver.resolve(extractions.get(d),
                        chunks.stream().map(Chunk::id).toList(), p.documentId(), version, p.parsed().title());
                // With no graph or RDF store at all, nothing was extracted: recorded as such, so switching one on
                // later finds what to back-fill (a skip_graph ingest with a graph store has, on purpose, none).
                int graphChunks = !stores.needsGraph() ? VersionRecords.NOT_EXTRACTED : graphs == null ? 0
                        : (int) graphs.stream().filter(g -> !g.isEmpty()).count();
                drafts.add(new DocumentDraft(p.documentId(), kb, p.input().uri(), p.parsed().title(),
                        p.parsed().mediaType(), p.fingerprint(), p.size(), chunks, graphChunks));
                allChunks.add(chunks);
                allGraphs.add(graphs);
            }
            spans.span("stage", Map.of("polyrag.documents", drafts.size()), () -> {
                catalog.stageAll(drafts, versions);
                return null;
            });
            for (int d = 0; d < prepared.size(); d++) {
                staged.add(new DocumentVersion(prepared.get(d).documentId(), versions.get(d)));
            }
            for (int d = 0; d < prepared.size(); d++) {
                Prepared p = prepared.get(d);
                long version = versions.get(d);
                List<Chunk> chunks = allChunks.get(d);
                List<ChunkGraph> graphs = allGraphs.get(d);
                putFigures(p, version);
                for (int i = 0; i < chunks.size(); i++) {
                    Chunk c = chunks.get(i);
                    float[] v = vectors == null ? null : vectors.get(vectorIndex++);
                    ChunkGraph g = graphs == null ? ChunkGraph.EMPTY : graphs.get(i).inNamespace(namespace);
                    records.add(new StoreRecord(c.id(), c.documentId(), version, kb, Contextualizer.withContext(
                            context(contexts, d, i), c.indexText(p.parsed().title())), v, g));
                    relationCount += g.relations().size();
                }
            }
            stores.upsert(records, staged, spans);
            tally.extracted(relationCount, 0);
        } catch (RuntimeException e) {
            staged.forEach(this::discardQuietly);
            boolean storage = StorageProblems.kind(e) != StorageProblems.Kind.OTHER;
            if (!storage) {
                // What reached some stores before the failure goes too. Not on a full disk or a read-only folder:
                // writing more there fails too; the next recovery sweep purges it once the disk allows.
                purge(staged);
            }
            prepared.forEach(p -> tally.failed(p.input().name(), p.input().name()
                    + ": could not be written to the stores, nothing of it was kept (" + e.getMessage() + ")"));
            // A full disk, a read-only folder or a damaged index fails every later batch the same way: stop at the
            // first, with one line; so does a store that cannot be reached (a server down or restarting), and a job
            // then waits for it and resumes. Anything else may be this batch's own problem, so the next batch goes on.
            if (storage || StorageProblems.unreachable(e)) {
                LOG.log(Level.WARNING, "writing a batch of " + prepared.size() + " documents failed: " + e.getMessage());
                throw new IngestStopped(tally, e);
            }
            LOG.log(Level.ERROR, "writing a batch of " + prepared.size() + " documents failed", e);
            return;
        }
        publish(prepared, staged, tally);
    }

    private void publish(List<Prepared> prepared, List<DocumentVersion> staged, Tally tally) {
        List<DocumentVersion> replaced = new ArrayList<>();
        // The texts the versions about to be replaced were embedded from: their chunks leave the catalog as the new
        // versions are published.
        Map<String, IndexedTexts> earlier = new HashMap<>();
        List<String> gone = new ArrayList<>();
        for (Prepared p : prepared) {
            if (p.replacing()) {
                indexedTexts(p.documentId()).ifPresent(t -> earlier.put(p.documentId(), t));
            }
        }
        // Durable when it returns: from here on these versions are what every reader sees, and they are
        // acknowledged.
        List<Catalog.Published> results = spans.span("publish", Map.of("polyrag.documents", staged.size()),
                () -> catalog.publishAll(staged));
        for (int i = 0; i < prepared.size(); i++) {
            Prepared p = prepared.get(i);
            DocumentVersion v = staged.get(i);
            Catalog.Published r = results.get(i);
            if (r.refused() != null) {
                // Discarded while it was written: taken for abandoned by a recovery (this writer was slower than
                // the stale timeout). Its records are purged; nothing of it is visible.
                replaced.add(v);
                tally.failed(p.input().name(), p.input().name() + ": not published: " + r.refused()
                        + " (the write took longer than POLYRAG_INGEST_JOB_STALE_SECONDS); ingest it again");
                continue;
            }
            Optional<DocumentVersion> before = r.before();
            before.ifPresent(replaced::add);
            if (before.isPresent() && before.get().equals(v)) {
                // Another writer published a newer version of this document meanwhile: it stays visible.
                tally.unchanged(new IndexedDocument(p.input().uri(), v.documentId(), v.version(), "superseded"));
                continue;
            }
            if (p.replacing()) {
                IndexedTexts old = earlier.get(p.documentId());
                if (old != null && before.isPresent() && before.get().version() == old.version()) {
                    Set<String> kept = new HashSet<>();
                    p.drafts().forEach(d -> kept.add(indexText(p, d)));
                    old.texts().stream().filter(t -> !kept.contains(t)).forEach(gone::add);
                }
                tally.updated(new IndexedDocument(p.input().uri(), v.documentId(), v.version(), "updated"),
                        p.drafts().size());
            } else {
                tally.added(new IndexedDocument(p.input().uri(), v.documentId(), v.version(), "added"),
                        p.drafts().size());
            }
        }
        purge(replaced);
        forgetVectors(gone);
    }

    /**
     * Removes replaced or deleted versions from every store, then records that they are gone. Versions the catalog
     * still lists as unpurged (a crash or a failed delete in between) are purged again by the next recovery (at
     * start-up and every minute while serving). Harmless
     * for results meanwhile: those versions are invisible through the catalog.
     */
    private void purge(List<DocumentVersion> versions) {
        if (versions.isEmpty()) {
            return;
        }
        try {
            stores.delete(versions);
            deleteFigures(versions);
            catalog.markPurged(versions);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "could not delete " + versions.size() + " replaced or deleted versions from the "
                    + "stores; they are invisible and the next recovery removes them: " + e.getMessage());
        }
    }

    private List<Chunk> chunks(Prepared p, long version) {
        String model = stores.needsVectors() ? embedder.modelId() : "";
        Map<Integer, Figure> figures = new HashMap<>();
        p.figures().forEach(f -> figures.put(f.draft(), f.figure()));
        return IntStream.range(0, p.drafts().size()).mapToObj(i -> {
            ChunkDraft d = p.drafts().get(i);
            return new Chunk(Chunk.idOf(p.documentId(), version, i), p.documentId(), version, i, d.kind(), d.text(),
                    d.headingPath(), d.startOffset(), d.endOffset(), d.tokenCount(), model, d.location(),
                    figures.get(i));
        }).toList();
    }

    /**
     * Keeps a version's figure images in the blob store: first a marker holding their count (so a purge interrupted
     * half-way still finds the rest), then each image.
     */
    private void putFigures(Prepared p, long version) {
        if (p.figures().isEmpty()) {
            return;
        }
        var blobs = figureOptions.blobs();
        blobs.put(Figure.blobKey(p.documentId(), version, 0), String.valueOf(p.figures().size())
                .getBytes(StandardCharsets.US_ASCII), "text/plain", "figures");
        for (PreparedFigure f : p.figures()) {
            blobs.put(Figure.blobKey(p.documentId(), version, f.figure().number()), f.bytes(),
                    f.figure().mediaType(), "figure-" + f.figure().number() + extension(f.figure().mediaType()));
        }
    }

    private static String extension(String mediaType) {
        return switch (mediaType) {
            case "image/jpeg" -> ".jpg";
            case "image/gif" -> ".gif";
            default -> ".png";
        };
    }

    /** Deletes the figure images of versions that are gone, last of all their count marker. */
    private void deleteFigures(Collection<DocumentVersion> versions) {
        FigureOptions f = figureOptions;
        if (f == null) {
            return;
        }
        for (DocumentVersion v : versions) {
            String marker = Figure.blobKey(v.documentId(), v.version(), 0);
            var count = f.blobs().get(marker);
            if (count.isEmpty()) {
                continue;
            }
            int n;
            try (var in = count.get().content()) {
                n = Integer.parseInt(new String(in.readAllBytes(), StandardCharsets.US_ASCII).strip());
            } catch (IOException | NumberFormatException e) {
                n = 1000;
            }
            for (int i = n; i >= 1; i--) {
                f.blobs().delete(Figure.blobKey(v.documentId(), v.version(), i));
            }
            f.blobs().delete(marker);
        }
    }

    private void discardQuietly(DocumentVersion v) {
        try {
            catalog.discard(v);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "could not discard " + v + "; it stays pending until the next recovery", e);
        }
    }

    /**
     * Cleans up after a crash: versions staged but never published are discarded, then everything discarded,
     * replaced or deleted is removed from every store.
     *
     * @return how many pending versions were discarded
     */
    public int recover() {
        return recover(null);
    }

    /**
     * Like {@link #recover()}, for a catalog other processes write to as well: only versions staged longer ago than
     * {@code olderThan} are taken for abandoned (their writer died); younger ones are some writer's work in progress.
     *
     * @param olderThan the age past which a pending version is abandoned; null: every pending version is
     */
    public int recover(Duration olderThan) {
        List<DocumentVersion> pending = olderThan == null ? catalog.pendingVersions()
                : catalog.pendingVersions(olderThan);
        int discarded = 0;
        for (DocumentVersion v : pending) {
            // Discarded first, so a writer that was only slow cannot publish it after its records are gone.
            if (catalog.discard(v)) {
                discarded++;
            }
        }
        if (discarded > 0) {
            LOG.log(Level.INFO, "discarded " + discarded + " unfinished document versions left by a stopped writer");
        }
        purgeUnpurged();
        return discarded;
    }

    /** Removes from every store what the catalog lists as discarded, replaced or deleted but not yet purged. */
    public void purgeUnpurged() {
        List<DocumentVersion> unpurged = catalog.unpurgedVersions();
        if (!unpurged.isEmpty()) {
            stores.delete(unpurged);
            deleteFigures(unpurged);
            catalog.markPurged(unpurged);
        }
    }

    /** Deletes documents: invisible at once through the catalog, then removed from every store. */
    public List<DocumentVersion> delete(Collection<String> documentIds) {
        // A few documents' texts are read first, to drop their cached vectors after; a bulk delete (a knowledge
        // base's) leaves them to the cache.
        List<IndexedTexts> texts = documentIds.size() > FORGET_ON_DELETE_MAX ? List.of()
                : documentIds.stream().map(this::indexedTexts).flatMap(Optional::stream).toList();
        List<DocumentVersion> removed = catalog.delete(documentIds);
        purge(removed);
        forgetVectors(texts.stream().filter(t -> removed.contains(new DocumentVersion(t.documentId(), t.version())))
                .flatMap(t -> t.texts().stream()).toList());
        return removed;
    }

    /** The texts a document's visible version was embedded from, as {@link #embed} builds them. */
    private record IndexedTexts(String documentId, long version, List<String> texts) {
    }

    /**
     * A visible version's embedded texts, rebuilt from the catalog; empty when nothing was embedded or the texts
     * cannot be rebuilt exactly (contextual retrieval puts a model-written context before each).
     */
    private Optional<IndexedTexts> indexedTexts(String documentId) {
        if (!stores.needsVectors() || contextualizer != null) {
            return Optional.empty();
        }
        try {
            return catalog.document(documentId).filter(d -> d.visibleVersion() > 0).map(d -> new IndexedTexts(
                    documentId, d.visibleVersion(), catalog.chunks(documentId, d.visibleVersion(), 0, Integer.MAX_VALUE)
                            .stream().map(c -> c.indexText(d.title())).toList()));
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "could not read the texts of " + documentId + " to drop their cached vectors", e);
            return Optional.empty();
        }
    }

    /**
     * Texts no longer indexed: the embedding cache drops their vectors (it would otherwise keep every version of a
     * document updated again and again, about 1.6 KB a chunk). A text another document still holds goes too; it is
     * embedded again should that document be re-indexed.
     */
    private void forgetVectors(List<String> texts) {
        if (!texts.isEmpty()) {
            embedder.forgetPassages(texts);
        }
    }
}
