package io.polyrag.ingest;

import io.polyrag.core.port.ProgressListener;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.model.Chunk;
import io.polyrag.core.model.ChunkDraft;
import io.polyrag.core.model.DocumentDraft;
import io.polyrag.core.model.DocumentInfo;
import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.Ids;
import io.polyrag.core.model.IngestReport;
import io.polyrag.core.model.ParsedDocument;
import io.polyrag.core.model.SourceItem;
import io.polyrag.core.model.StoreRecord;
import io.polyrag.core.port.Catalog;
import io.polyrag.core.port.Chunker;
import io.polyrag.core.port.Embedder;
import io.polyrag.core.port.Parser;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * parse → chunk → embed → write → publish: the only path by which documents enter the stores.
 *
 * <p>Documents go through in batches. For each batch: every input is read, hashed and parsed (an input whose bytes
 * and indexing settings are unchanged is skipped); all chunks are embedded together (the embedder parallelises);
 * each document gets a new version, staged in the catalog; the batch is upserted into every enabled store, each
 * commit durable; then each version is published — made visible — and the versions it replaced are deleted from the
 * stores. If a store write fails, the batch's new versions are removed from every store and discarded in the
 * catalog, so no document is ever visible in some stores and not others, and the versions that were visible stay
 * visible. One bad input fails alone, with its reason; the rest go on.
 */
public final class IngestPipeline {
    private static final System.Logger LOG = System.getLogger(IngestPipeline.class.getName());

    /**
     * @param batchSize documents written together
     * @param maxFileBytes larger inputs are refused
     * @param signature the indexing settings (modalities, model, chunk sizes): content re-ingested under different
     *     settings is re-indexed, not skipped
     */
    public record Options(int batchSize, long maxFileBytes, String signature) {
    }

    private record Prepared(IngestInput input, String documentId, String fingerprint, long size,
            ParsedDocument parsed, List<ChunkDraft> drafts, boolean replacing) {
    }

    private final Catalog catalog;
    private final Parser parser;
    private final Chunker chunker;
    private final Embedder embedder;
    private final StoreSet stores;
    private final Options options;

    public IngestPipeline(Catalog catalog, Parser parser, Chunker chunker, Embedder embedder, StoreSet stores,
            Options options) {
        if (stores.needsVectors() && embedder == null) {
            throw new IllegalArgumentException("a vector store is enabled but no embedder was given");
        }
        this.catalog = catalog;
        this.parser = parser;
        this.chunker = chunker;
        this.embedder = embedder;
        this.stores = stores;
        this.options = options;
    }

    public StoreSet stores() {
        return stores;
    }

    /** Ingests {@code inputs} into knowledge base {@code knowledgeBase}; never throws for a bad input. */
    public IngestReport ingest(List<IngestInput> inputs, String knowledgeBase, ProgressListener listener) {
        String kb = Ids.knowledgeBase(knowledgeBase);
        Tally tally = new Tally(inputs.size(), stores.names(), listener);
        for (int from = 0; from < inputs.size(); from += options.batchSize()) {
            runBatch(inputs.subList(from, Math.min(inputs.size(), from + options.batchSize())), kb, tally);
        }
        tally.stage("done");
        return tally.report();
    }

    private void runBatch(List<IngestInput> batch, String kb, Tally tally) {
        tally.stage("parsing");
        List<Prepared> prepared = new ArrayList<>();
        for (IngestInput input : batch) {
            prepare(input, kb, tally).ifPresent(prepared::add);
        }
        if (prepared.isEmpty()) {
            return;
        }
        List<float[]> vectors;
        try {
            vectors = embed(prepared, tally);
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, "embedding failed", e);
            prepared.forEach(p -> tally.failed(p.input().name(), "embedding failed: " + e.getMessage()));
            return;
        }
        write(prepared, vectors, kb, tally);
    }

    /** Reads, checks, hashes and parses one input; empty when it is unchanged or failed (recorded in the tally). */
    private Optional<Prepared> prepare(IngestInput input, String kb, Tally tally) {
        try {
            if (input.size() > options.maxFileBytes()) {
                throw tooLarge(input, input.size());
            }
            byte[] bytes = input.content().read();
            if (bytes.length > options.maxFileBytes()) {
                throw tooLarge(input, bytes.length);
            }
            String id = Ids.documentId(kb, input.uri());
            String fingerprint = Ids.sha256Hex((Ids.sha256Hex(bytes) + "\n" + options.signature())
                    .getBytes(StandardCharsets.UTF_8));
            Optional<DocumentInfo> existing = catalog.document(id);
            if (existing.isPresent() && existing.get().visibleVersion() > 0
                    && existing.get().contentHash().equals(fingerprint)) {
                tally.unchanged();
                return Optional.empty();
            }
            ParsedDocument parsed = parser.parse(new SourceItem(input.uri(), input.name(), bytes, input.mediaType()));
            List<ChunkDraft> drafts = chunker.chunk(parsed);
            if (drafts.isEmpty()) {
                throw new InvalidInputException(input.name() + ": no text to index");
            }
            return Optional.of(new Prepared(input, id, fingerprint, bytes.length, parsed, drafts,
                    existing.map(d -> d.visibleVersion() > 0).orElse(false)));
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

    private InvalidInputException tooLarge(IngestInput input, long size) {
        return new InvalidInputException(String.format(java.util.Locale.ROOT,
                "%s: too large (%.1f MiB; the limit is %.1f MiB): raise POLYRAG_INGEST_MAX_FILE_MB to ingest it",
                input.name(), size / 1048576.0, options.maxFileBytes() / 1048576.0));
    }

    private List<float[]> embed(List<Prepared> prepared, Tally tally) {
        if (!stores.needsVectors()) {
            return null;
        }
        tally.stage("embedding");
        List<String> texts = new ArrayList<>();
        for (Prepared p : prepared) {
            for (ChunkDraft d : p.drafts()) {
                texts.add(indexText(p, d));
            }
        }
        return embedder.embedPassages(texts);
    }

    private static String indexText(Prepared p, ChunkDraft d) {
        return Chunk.indexText(p.parsed().title(), d.headingPath(), d.text());
    }

    private void write(List<Prepared> prepared, List<float[]> vectors, String kb, Tally tally) {
        tally.stage("writing");
        List<DocumentVersion> staged = new ArrayList<>();
        List<StoreRecord> records = new ArrayList<>();
        int vectorIndex = 0;
        try {
            for (Prepared p : prepared) {
                long version = catalog.nextVersion(p.documentId());
                List<Chunk> chunks = chunks(p, version);
                catalog.stage(new DocumentDraft(p.documentId(), kb, p.input().uri(), p.parsed().title(),
                        p.parsed().mediaType(), p.fingerprint(), p.size(), chunks), version);
                staged.add(new DocumentVersion(p.documentId(), version));
                for (Chunk c : chunks) {
                    float[] v = vectors == null ? null : vectors.get(vectorIndex++);
                    records.add(new StoreRecord(c.id(), c.documentId(), version, kb, c.indexText(p.parsed().title()), v));
                }
            }
            stores.upsert(records, staged);
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, "writing a batch of " + prepared.size() + " documents failed", e);
            staged.forEach(this::discardQuietly);
            prepared.forEach(p -> tally.failed(p.input().name(), p.input().name()
                    + ": could not be written to the stores, nothing of it was kept (" + e.getMessage() + ")"));
            return;
        }
        publish(prepared, staged, tally);
    }

    private void publish(List<Prepared> prepared, List<DocumentVersion> staged, Tally tally) {
        List<DocumentVersion> replaced = new ArrayList<>();
        for (int i = 0; i < prepared.size(); i++) {
            catalog.publish(staged.get(i)).ifPresent(replaced::add);
            Prepared p = prepared.get(i);
            if (p.replacing()) {
                tally.updated(p.drafts().size());
            } else {
                tally.added(p.drafts().size());
            }
        }
        try {
            stores.delete(replaced);
        } catch (RuntimeException e) {
            // Harmless for results: replaced versions are invisible through the catalog. Logged for the operator.
            LOG.log(Level.WARNING, "could not delete " + replaced.size() + " replaced versions from the stores", e);
        }
    }

    private List<Chunk> chunks(Prepared p, long version) {
        String model = stores.needsVectors() ? embedder.modelId() : "";
        return IntStream.range(0, p.drafts().size()).mapToObj(i -> {
            ChunkDraft d = p.drafts().get(i);
            return new Chunk(Chunk.idOf(p.documentId(), version, i), p.documentId(), version, i, d.kind(), d.text(),
                    d.headingPath(), d.startOffset(), d.endOffset(), d.tokenCount(), model);
        }).toList();
    }

    private void discardQuietly(DocumentVersion v) {
        try {
            catalog.discard(v);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "could not discard " + v + "; it stays pending and is cleaned at next start", e);
        }
    }

    /**
     * Cleans up after a crash: versions staged but never published are removed from every store and discarded.
     *
     * @return how many versions were cleaned
     */
    public int recover() {
        List<DocumentVersion> pending = catalog.pendingVersions();
        if (!pending.isEmpty()) {
            stores.delete(pending);
            pending.forEach(catalog::discard);
            LOG.log(Level.INFO, "removed " + pending.size() + " unfinished document versions left by a previous run");
        }
        return pending.size();
    }

    /** Deletes documents: invisible at once through the catalog, then removed from every store. */
    public List<DocumentVersion> delete(Collection<String> documentIds) {
        List<DocumentVersion> removed = catalog.delete(documentIds);
        stores.delete(removed);
        return removed;
    }
}
