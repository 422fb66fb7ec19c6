package io.polyrag.ingest;

import io.polyrag.core.InvalidInputException;
import io.polyrag.core.UnavailableException;
import io.polyrag.core.model.ChunkDraft;
import io.polyrag.core.model.ChunkKind;
import io.polyrag.core.model.DocumentInfo;
import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.FigureMode;
import io.polyrag.core.model.Ids;
import io.polyrag.core.model.IndexedDocument;
import io.polyrag.core.model.IngestEstimate;
import io.polyrag.core.model.IngestReport;
import io.polyrag.core.model.KnowledgeBase;
import io.polyrag.core.model.ParsedDocument;
import io.polyrag.core.model.SourceItem;
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
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * parse → chunk → embed → write → publish: the only path by which documents enter the stores.
 *
 * <p>Documents go through in batches. Each input is read, hashed and parsed (an input whose bytes and indexing
 * settings are unchanged is skipped) and joins the batch; a batch closes at {@link Options#batchSize()} documents (0:
 * with vectors on, at about a second of embedding at the ingest's last batch's pace, else by chunks only) or
 * {@link Options#batchChunks()} chunks, so progress moves as large files complete. A batch's chunks are embedded
 * together (the embedder parallelises), while the caller's thread parses the next batch and another thread writes the
 * one before ({@link IngestFlow}); batches are written in the order their inputs came.
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
    public record Options(int batchSize, int batchChunks, long maxFileBytes, String signature, boolean skipDuplicates) {
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
     * @param skipGraph index without extracting entities and relations (the graph and RDF stores get nothing)
     * @param tokenBudget most language-model tokens extraction may spend in this ingest; 0 means no limit, a
     *     negative number none at all (a tenant's daily allowance spent)
     * @param canceled asked before each input: true stops the ingest there (what was written stays written)
     * @param figures which figures to take from PDFs and Office files; null for the configured default
     * @param limit asked before each input: a reason (a tenant's quota reached) stops the ingest there, the inputs
     *     left failing with it; null goes on
     */
    public record Run(boolean skipGraph, long tokenBudget, BooleanSupplier canceled,
            FigureMode figures, Supplier<String> limit) {
        public static final Run DEFAULT = new Run(false, 0);

        public Run(boolean skipGraph, long tokenBudget, BooleanSupplier canceled, FigureMode figures) {
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

    private final Catalog catalog;
    private final Parser parser;
    private final Chunker chunker;
    private final Embedder embedder;
    private final StoreSet stores;
    private final Options options;
    private final EntityExtractor extractor;
    /** Figure extraction; null when it is off. */
    private volatile IngestFigures figures;
    private volatile Duration extractPerText = Duration.ofSeconds(2);
    private volatile Duration extractPerBatch = Duration.ofMinutes(5);
    private IngestSpans spans = IngestSpans.NONE;
    private volatile Contextualizer contextualizer;
    volatile boolean wholeVectors = true;
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
     * Turns contextual retrieval on: each chunk is indexed (embedded and full-text) with the sentences {@code c}
     * writes to situate it in its document, at most {@code tokenBudget} model tokens an ingest (0: no limit). Called
     * once, before the first ingest.
     */
    public void contextual(Contextualizer c, long tokenBudget) {
        this.contextualizer = c;
        this.contextBudget = tokenBudget;
    }

    /** Whether documents of small passages are embedded whole too ({@link WholeVectors}); before the first ingest. */
    public void wholeVectors(boolean on) {
        this.wholeVectors = on;
    }

    /** The contextualizer, when contextual retrieval is on; else null. */
    public Contextualizer contextualizer() {
        return contextualizer;
    }

    /** Traces this pipeline's steps through {@code spans}. Called once, before the first ingest. */
    public void traced(IngestSpans spans) {
        this.spans = spans;
    }

    /**
     * Turns figure extraction on: figures are taken from PDFs and Office files, indexed as chunks of kind figure and
     * their images kept in {@code options.blobs()}, deleted with their document version. Call before the first
     * ingest.
     */
    public IngestPipeline figures(FigureOptions options) {
        this.figures = new IngestFigures(options, parser);
        return this;
    }

    /** The figure mode an ingest runs with: its own, else the configured default; skip when figures are off. */
    private FigureMode figureMode(Run run) {
        IngestFigures f = figures;
        if (f == null) {
            return FigureMode.SKIP;
        }
        return run.figures() == null ? f.options().defaultMode() : run.figures();
    }

    Catalog catalog() {
        return catalog;
    }

    IngestSpans spans() {
        return spans;
    }

    long contextBudget() {
        return contextBudget;
    }

    Duration extractPerText() {
        return extractPerText;
    }

    Duration extractPerBatch() {
        return extractPerBatch;
    }

    /** The writer of this pipeline's batches, with its figure, trace and context settings as they are now. */
    VersionWriter writer() {
        return new VersionWriter(catalog, stores, embedder, figures, spans, contextualizer != null);
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

    /**
     * Ingests {@code inputs} with the choices of {@code run}; never throws for a bad input. One that throws (a store
     * gone, a full disk) carries what it had done as a suppressed {@link PartialIngest}.
     */
    public IngestReport ingest(List<IngestInput> inputs, String knowledgeBase, Run run, ProgressListener listener) {
        String kb = checkedStorageName(knowledgeBase);
        Tally tally = new Tally(inputs.size(), stores.names(), listener);
        try {
            return ingest(inputs, kb, run, tally);
        } catch (RuntimeException e) {
            e.addSuppressed(new PartialIngest(tally.report()));
            throw e;
        }
    }

    // style: the pipeline's stages in order for one batch, read top to bottom
    private IngestReport ingest(List<IngestInput> inputs, String kb, Run run, Tally tally) {
        IngestFigures f = figures;
        FigureMode figureMode = figureMode(run);
        IngestFigures.Allowance figureBudget = f == null ? new IngestFigures.Allowance(0, 0) : f.allowance();
        boolean graph = stores.needsGraph() && !run.skipGraph();
        List<Prepared> batch = new ArrayList<>();
        int batchChunks = 0;
        long batchFigureBytes = 0;
        int seen = 0;
        // Batch size 0 is automatic. With no embedding to wait for, a batch's cost is its durable commits: it closes
        // on its chunk count only. With vectors, at about a second of embedding (this ingest's own pace), so progress
        // moves as the model works, while fast vectors are not written a few at a time. An explicit size is kept.
        Pace pace = options.batchSize() <= 0 && stores.needsVectors() ? new Pace() : null;
        int chunksPerBatch = stores.needsVectors() ? options.batchChunks()
                : options.batchChunks() * Options.TEXT_ONLY_BATCH_FACTOR;
        int documentsPerBatch = options.batchSize() > 0 ? options.batchSize() : chunksPerBatch;
        try (IngestFlow flow = new IngestFlow(this, kb, graph, run.tokenBudget(), tally, pace, run.canceled())) {
            for (IngestInput input : inputs) {
                if (run.canceled().getAsBoolean()) {
                    tally.warn("canceled by request after " + seen + " of " + inputs.size() + " inputs; what was "
                            + "written before stays indexed");
                    break;
                }
                String limit = run.limit().get();
                if (limit != null) {
                    for (IngestInput rest : inputs.subList(seen, inputs.size())) {
                        tally.failed(rest.name(), rest.name() + ": not indexed: " + limit, true);
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
                String id = Ids.documentId(kb, input.uri());
                if (batch.stream().anyMatch(b -> b.documentId().equals(id))) {
                    flow.submit(batch); // its copy in this batch first: this one is then found unchanged, not a v2
                    batch = new ArrayList<>();
                    batchChunks = 0;
                    batchFigureBytes = 0;
                }
                flow.settle(id); // a write failing meanwhile stops the ingest (in prepare: this input failed)
                Optional<Prepared> p = prepare(input, kb, graph, figureMode, figureBudget, tally, flow);
                if (p.isEmpty()) {
                    continue;
                }
                batch.add(p.get());
                batchChunks += p.get().drafts().size();
                batchFigureBytes += p.get().figures().stream().mapToLong(fig -> fig.bytes().length).sum();
                boolean full = batch.size() >= documentsPerBatch || batchFigureBytes >= BATCH_FIGURE_BYTES;
                if (!full && pace != null && batchChunks >= pace.chunks(options.batchChunks())) {
                    // The pace of every batch embedded so far: the one before may still be embedding.
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

    /** What extracting from {@code inputs} would cost: read, parsed and chunked, nothing written or called. */
    public IngestEstimate estimate(List<IngestInput> inputs) {
        return estimate(inputs, null, () -> false);
    }

    /** Like {@link #estimate(List)}, into {@code kb} (stored name; null: contexts uncached), until {@code stop}. */
    public IngestEstimate estimate(List<IngestInput> inputs, String kb, BooleanSupplier stop) {
        return new IngestEstimator(parser, chunker, stores.needsGraph() ? extractor : null, contextualizer,
                options.maxFileBytes()).estimate(inputs, kb, stop);
    }

    /**
     * What of a chunk the entity extractor reads: nothing of code, which names no entity a question asks about
     * ({@code String::from} is no relation of a Rust tutorial's author); all of anything else.
     */
    static String graphText(ChunkKind kind, String text) {
        return kind == ChunkKind.CODE ? "" : text;
    }

    /** Reads, checks, hashes and parses one input; empty when it is unchanged or failed (recorded in the tally). */
    private Optional<Prepared> prepare(IngestInput input, String kb, boolean graph, FigureMode figureMode,
            IngestFigures.Allowance figureBudget, Tally tally, IngestFlow flow) {
        try {
            if (input.size() > options.maxFileBytes()) {
                throw tooLarge(input, input.size());
            }
            byte[] bytes = input.content().read(options.maxFileBytes() + 1); // however much it grew since listed
            if (bytes.length > options.maxFileBytes()) {
                throw tooLarge(input, bytes.length);
            }
            String id = Ids.documentId(kb, input.uri());
            String fingerprint = input.withDeclared(fingerprint(bytes, graph, figureMode));
            Optional<DocumentInfo> existing = flow.existing(id);
            if (existing.isPresent() && existing.get().visibleVersion() > 0
                    && existing.get().contentHash().equals(fingerprint)) {
                tally.unchanged(new IndexedDocument(input.uri(), id, existing.get().visibleVersion(), "unchanged"));
                return Optional.empty();
            }
            // Only a new document is left out as a copy: one changed into a copy of another is an update.
            boolean visible = existing.isPresent() && existing.get().visibleVersion() > 0;
            if (options.skipDuplicates() && !visible && tally.duplicate(catalog, input, kb, fingerprint)) {
                return Optional.empty();
            }
            SourceItem item = new SourceItem(input.uri(), input.name(), bytes, input.mediaType());
            ParsedDocument read = spans.span("parse", Map.of("polyrag.file", input.name(), "polyrag.bytes",
                    bytes.length), () -> parser.parse(item));
            ParsedDocument parsed = input.title() == null ? read : new ParsedDocument(input.title(), read.text(),
                    read.blocks(), read.mediaType(), read.links());
            List<ChunkDraft> drafts = spans.span("chunk", Map.of("polyrag.file", input.name()),
                    () -> chunker.chunk(parsed));
            if (drafts.isEmpty()) {
                throw new InvalidInputException(input.name() + ": no text to index");
            }
            List<PreparedFigure> found = List.of();
            String recorded = fingerprint;
            if (figureMode != FigureMode.SKIP) {
                List<ChunkDraft> all = new ArrayList<>(drafts);
                boolean[] partial = {false};
                found = figures.take(item, parsed, all, figureMode, figureBudget, tally, partial);
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
        } catch (InvalidInputException | UnavailableException e) {
            tally.failed(input.name(), e.getMessage(), e instanceof UnavailableException); // every parser busy: later
        } catch (IOException e) {
            tally.failed(input.name(), input.name() + ": cannot read it (" + e.getClass().getSimpleName() + ": "
                    + e.getMessage() + ")", true);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "failed to prepare " + input.uri(), e);
            tally.failed(input.name(), input.name() + ": " + e.getClass().getSimpleName() + ": " + e.getMessage(), true);
        } catch (OutOfMemoryError | StackOverflowError e) {
            // One hostile or enormous file fails alone, not the batch nor the upload's other files.
            LOG.log(Level.WARNING, "failed to prepare " + input.uri(), e);
            tally.failed(input.name(), IngestEstimator.unparseable(input.name(), e));
        }
        return Optional.empty();
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
        IngestFigures f = this.figures;
        FigureMode mode = f == null ? FigureMode.SKIP : figures == null ? f.options().defaultMode() : figures;
        return Ids.sha256Hex((Ids.sha256Hex(bytes) + "\n" + options.signature() + ";graph="
                + (graph && stores.needsGraph() ? extractor.id() : "off")
                + (mode == FigureMode.AUTO ? "" : ";figures=" + mode.wireName())).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The parser and chunker's verdict on an input, without writing anything.
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
            if (e instanceof UnavailableException) {
                throw e; // every parser busy: no fault of the file, the caller answers 503 (try again) keeping nothing
            }
            LOG.log(Level.WARNING, "checking " + item.name() + " failed", e);
            return new Verdict(null, item.name() + ": could not be parsed (an unexpected parser error; the server log "
                    + "has the details)");
        } catch (OutOfMemoryError | StackOverflowError e) {
            LOG.log(Level.WARNING, "checking " + item.name() + " failed", e);
            return new Verdict(null, IngestEstimator.unparseable(item.name(), e));
        }
    }

    private InvalidInputException tooLarge(IngestInput input, long size) {
        return IngestEstimator.tooLarge(input, size, options.maxFileBytes());
    }

    /**
     * Cleans up after a crash: versions staged, never published, are discarded, then all discarded, replaced or
     * deleted is removed from every store; returns how many pending versions were discarded.
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
        return writer().recover(olderThan);
    }

    /** Removes from every store what the catalog lists as discarded, replaced or deleted but not yet purged. */
    public void purgeUnpurged() {
        writer().purgeUnpurged();
    }

    /** Deletes documents: invisible at once through the catalog, then removed from every store. */
    public List<DocumentVersion> delete(Collection<String> documentIds) {
        return writer().delete(documentIds);
    }

}
