package io.polyrag.ingest;

import io.polyrag.core.StorageProblems;
import io.polyrag.core.model.Chunk;
import io.polyrag.core.model.ChunkDraft;
import io.polyrag.core.model.ChunkGraph;
import io.polyrag.core.model.DocumentDraft;
import io.polyrag.core.model.DocumentInfo;
import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.Extraction;
import io.polyrag.core.model.Figure;
import io.polyrag.core.model.Ids;
import io.polyrag.core.model.IndexedDocument;
import io.polyrag.core.model.StoreRecord;
import io.polyrag.core.model.Tenant;
import io.polyrag.core.model.VersionRecords;
import io.polyrag.core.port.Catalog;
import io.polyrag.core.port.Embedder;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * Writes a batch's new document versions to the catalog and every store, then publishes them; purges what they
 * replaced, recovers after a crash, deletes documents.
 */
final class VersionWriter {
    /** Deletes of up to this many documents drop their cached vectors ({@link #delete}). */
    private static final int FORGET_ON_DELETE_MAX = 1_000;
    /** The most chunks whose texts a delete reads to drop their cached vectors. */
    private static final long FORGET_ON_DELETE_CHUNKS = 5_000;
    private static final System.Logger LOG = System.getLogger(VersionWriter.class.getName());
    private final Catalog catalog;
    private final StoreSet stores;
    private final Embedder embedder;
    /** Null when figures are off. */
    private final IngestFigures figures;
    private final IngestSpans spans;
    /** Chunks are indexed with a model-written context: their texts cannot be rebuilt from the catalog. */
    private final boolean contextual;

    VersionWriter(Catalog catalog, StoreSet stores, Embedder embedder, IngestFigures figures,
            IngestSpans spans, boolean contextual) {
        this.catalog = catalog;
        this.stores = stores;
        this.embedder = embedder;
        this.figures = figures;
        this.spans = spans;
        this.contextual = contextual;
    }

    // style: the per-store writes of one batch in their order (catalog first, then each leg), with their failures
    void write(List<Prepared> prepared, List<float[]> vectors, List<float[]> wholes, List<List<String>> contexts,
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
                        p.parsed().mediaType(), recorded(p, extractions == null ? null : extractions.get(d)), p.size(),
                        chunks, graphChunks));
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
                if (figures != null) {
                    figures.put(p, version);
                }
                for (int i = 0; i < chunks.size(); i++) {
                    Chunk c = chunks.get(i);
                    float[] v = vectors == null ? null : vectors.get(vectorIndex++);
                    ChunkGraph g = graphs == null ? ChunkGraph.EMPTY : graphs.get(i).inNamespace(namespace);
                    records.add(new StoreRecord(c.id(), c.documentId(), version, kb, Contextualizer.withContext(
                            Prepared.context(contexts, d, i), c.indexText(p.parsed().title())), v, g));
                    relationCount += g.relations().size();
                }
            }
            Map<DocumentVersion, float[]> wholeVectors = new HashMap<>();
            for (int d = 0; wholes != null && d < prepared.size(); d++) {
                if (wholes.get(d) != null) {
                    wholeVectors.put(staged.get(d), wholes.get(d));
                }
            }
            stores.upsert(records, wholeVectors, staged, spans);
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
                    + ": could not be written to the stores, nothing of it was kept (" + e.getMessage() + ")", true));
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
                // Deleted while it was written, or discarded: taken for abandoned by a recovery (this writer was
                // slower than the stale timeout). Its records are purged; nothing of it is visible.
                replaced.add(v);
                boolean deleted = r.refused().contains("was deleted");
                tally.failed(p.input().name(), p.input().name() + ": not published: " + r.refused() + (deleted
                        ? "; nothing of it is kept" : " (the write took longer than POLYRAG_INGEST_JOB_STALE_SECONDS);"
                        + " ingest it again"), !deleted);
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
                    Set<String> kept = new HashSet<>(WholeVectors.withWhole(p.drafts().stream().map(p::indexText)
                            .toList()));
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

    /**
     * The fingerprint a version is recorded under: its own, or, when its extraction stopped short (a token budget
     * spent, a time limit, a model that failed), another, so ingesting the same bytes again is not "unchanged" and
     * extracts what was missed (the model's answers for the chunks done are in its response cache). As a partial
     * figure extraction already is.
     */
    private static String recorded(Prepared p, List<Extraction> extractions) {
        boolean partial = extractions != null && extractions.stream().anyMatch(x -> x.budgetStopped()
                || x.timeStopped());
        return partial ? Ids.sha256Hex((p.fingerprint() + ";graph=partial").getBytes(StandardCharsets.UTF_8))
                : p.fingerprint();
    }

    private List<Chunk> chunks(Prepared p, long version) {
        String model = stores.needsVectors() ? embedder.modelId() : "";
        Map<Integer, Figure> figures = new HashMap<>();
        p.figures().forEach(f -> figures.put(f.draft(), f.figure()));
        return IntStream.range(0, p.drafts().size()).mapToObj(i -> {
            ChunkDraft d = p.drafts().get(i);
            return Chunk.builder(p.documentId(), version, i).kind(d.kind()).text(d.text()).headingPath(d.headingPath())
                    .offsets(d.startOffset(), d.endOffset()).tokenCount(d.tokenCount()).embeddingModel(model)
                    .location(d.location()).figure(figures.get(i)).build();
        }).toList();
    }

    private void discardQuietly(DocumentVersion v) {
        try {
            catalog.discard(v);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "could not discard " + v + "; it stays pending until the next recovery", e);
        }
    }

    /**
     * Like {@link #recover()}, for a catalog other processes write to as well: only versions staged longer ago than
     * {@code olderThan} are taken for abandoned (their writer died); younger ones are some writer's work in progress.
     *
     * @param olderThan the age past which a pending version is abandoned; null: every pending version is
     */
    int recover(Duration olderThan) {
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
    void purgeUnpurged() {
        List<DocumentVersion> unpurged = catalog.unpurgedVersions();
        if (!unpurged.isEmpty()) {
            stores.delete(unpurged);
            deleteFigures(unpurged);
            catalog.markPurged(unpurged);
        }
    }

    /** Deletes documents: invisible at once through the catalog, then removed from every store. */
    List<DocumentVersion> delete(Collection<String> documentIds) {
        // A few documents' texts are read first, to drop their cached vectors after; a bulk delete (a knowledge
        // base's, in pages of 500 documents) leaves them to the cache. Bounded by chunks, not documents: 500 books
        // held every chunk's text at once.
        boolean few = documentIds.size() <= FORGET_ON_DELETE_MAX && catalog.documentsById(documentIds).values()
                .stream().mapToLong(DocumentInfo::chunkCount).sum() <= FORGET_ON_DELETE_CHUNKS;
        List<IndexedTexts> texts = !few ? List.of()
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
     * A visible version's embedded texts (its whole text among them when it may have been embedded whole), rebuilt
     * from the catalog; empty when nothing was embedded or the texts cannot be rebuilt exactly (contextual retrieval
     * puts a model-written context before each).
     */
    private Optional<IndexedTexts> indexedTexts(String documentId) {
        if (!stores.needsVectors() || contextual) {
            return Optional.empty();
        }
        try {
            return catalog.document(documentId).filter(d -> d.visibleVersion() > 0).map(d -> new IndexedTexts(
                    documentId, d.visibleVersion(), WholeVectors.withWhole(catalog.chunks(documentId,
                            d.visibleVersion(), 0, Integer.MAX_VALUE).stream().map(c -> c.indexText(d.title()))
                            .toList())));
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

    private void deleteFigures(Collection<DocumentVersion> versions) {
        if (figures != null) {
            figures.delete(versions);
        }
    }
}
