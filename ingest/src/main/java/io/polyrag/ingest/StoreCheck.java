package io.polyrag.ingest;

import io.polyrag.core.model.CheckReport;
import io.polyrag.core.model.Chunk;
import io.polyrag.core.model.ChunkGraph;
import io.polyrag.core.model.DocumentInfo;
import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.Extraction;
import io.polyrag.core.model.Modality;
import io.polyrag.core.model.StoreRecord;
import io.polyrag.core.model.Tenant;
import io.polyrag.core.model.VersionRecords;
import io.polyrag.core.port.Catalog;
import io.polyrag.core.port.ChunkIndex;
import io.polyrag.core.port.VectorStore;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;

/**
 * Compares every enabled store with the catalog, the source of truth, and repairs what differs: records of versions
 * no visible version owns are removed; visible versions a store lacks (in part or whole) are re-indexed into that
 * store from the catalog's chunk text, without reading or parsing the original again (vectors come through the
 * embedding cache, entities through the extractor).
 *
 * <p>Safe while ingests run: the visible versions are read before and after the stores are listed, and only versions
 * visible in both readings count as lacking (a version published in between is not); versions still pending are
 * never orphans.
 */
public final class StoreCheck {
    private static final System.Logger LOG = System.getLogger(StoreCheck.class.getName());
    private static final int EXAMPLES = 10;
    private static final int REINDEX_BATCH = 64;

    private final IngestPipeline pipeline;
    private final Catalog catalog;
    /** Chunks a reindex wrote without the context contextual retrieval asked for (the model failed), and why. */
    private final AtomicInteger contextless = new AtomicInteger();
    private volatile String contextFailure;
    private final List<String> warnings = new CopyOnWriteArrayList<>();

    public StoreCheck(IngestPipeline pipeline) {
        this.pipeline = pipeline;
        this.catalog = pipeline.catalog();
    }

    /**
     * Whether each store's record count equals what the catalog's visible versions call for: a cheap test that
     * reads no version lists. Stores whose count differs are named; an empty list means consistent.
     */
    public List<String> countMismatches() {
        Catalog.Totals totals = catalog.totals();
        List<String> out = new ArrayList<>();
        pipeline.stores().byModality().forEach((m, index) -> {
            long actual = index.size();
            boolean differs = isGraph(m)
                    ? (totals.graphUnknown() ? actual < totals.graphChunks() : actual != totals.graphChunks())
                    : actual != totals.chunks();
            if (differs) {
                out.add(m.wireName());
            }
        });
        return out;
    }

    /**
     * A store that holds fewer records than the catalog's visible versions call for: a modality switched on, or a new
     * embedding model, after documents were indexed (or damage a crash left). {@code expected} is -1 for a graph or
     * RDF store missing the extraction of versions indexed without one.
     */
    public record Lacking(Modality modality, long records, long expected) {
    }

    /**
     * The vector and full-text stores that hold fewer records than expected, by their counts alone (cheap), and the
     * graph and RDF stores when some visible version was indexed while neither was enabled (nothing extracted). The
     * catalog is read first, so a version published meanwhile only adds records to what the stores are found to hold.
     */
    public List<Lacking> lackingByCount() {
        Catalog.Totals totals = catalog.totals();
        List<Lacking> out = new ArrayList<>();
        // Asked only when a graph store is on: without an index on it, the question reads every document row.
        boolean unextracted = pipeline.stores().byModality().keySet().stream().anyMatch(StoreCheck::isGraph)
                && !catalog.unextracted(1).isEmpty();
        pipeline.stores().byModality().forEach((m, index) -> {
            if (!isGraph(m)) {
                long actual = index.size();
                if (actual < totals.chunks()) {
                    out.add(new Lacking(m, actual, totals.chunks()));
                }
            } else if (unextracted) {
                out.add(new Lacking(m, index.size(), -1));
            } else if (!totals.graphUnknown() && index.size() < totals.graphChunks()) {
                // Extracted, but not into this store: switched on after the other graph store, emptied, or a new
                // backend. Its leg answered without those documents, never listed as degraded.
                out.add(new Lacking(m, index.size(), totals.graphChunks()));
            }
        });
        return out;
    }

    /**
     * Extracts the entities and relations of every visible version indexed while no graph or RDF store was enabled,
     * writes them to the graph and RDF stores that are, and records their count in the catalog; in batches, until
     * none is left or it is canceled.
     *
     * @return how many versions were written
     */
    public int backfillGraph(Progress progress) {
        return backfillGraph(progress, false);
    }

    /**
     * Extracts entities into the graph and RDF stores for the versions never extracted, or with {@code all} for
     * every visible version (after the extractor changed: a new polyrag, or another {@code graph.extractor}),
     * replacing what they held for it.
     *
     * @return how many versions were written
     */
    public int backfillGraph(Progress progress, boolean all) {
        List<ChunkIndex> targets = pipeline.stores().byModality().entrySet().stream().filter(e -> isGraph(e.getKey()))
                .map(Map.Entry::getValue).toList();
        if (targets.isEmpty()) {
            throw new IllegalArgumentException("no graph or RDF store is enabled");
        }
        int done = 0;
        int total = done;
        // Every visible version once, in the catalog's order, when all are re-extracted; else the never extracted
        // ones until none is left (versions published meanwhile are extracted at ingest).
        Iterator<VersionRecords> every = all ? catalog.visibleVersions().iterator() : null;
        if (all) {
            total = catalog.visibleVersions().size();
        }
        while (!progress.canceled()) {
            List<VersionRecords> batch;
            if (every != null) {
                batch = new ArrayList<>();
                while (every.hasNext() && batch.size() < REINDEX_BATCH) {
                    batch.add(every.next());
                }
            } else {
                batch = catalog.unextracted(REINDEX_BATCH);
                if (batch.isEmpty()) {
                    // Then the versions extracted before but held short by a store (one switched on later, emptied,
                    // or a new backend): "reindex --modality rdf" wrote nothing and said every store was whole.
                    every = heldShort(targets).iterator();
                    continue;
                }
            }
            if (batch.isEmpty()) {
                break;
            }
            total = Math.max(total, done + batch.size());
            for (VersionRecords v : batch) {
                // Between documents, not batches: an extraction by a language model takes minutes a document, and a
                // cancel (the route that stops a back-fill spending tokens) waited up to 64 of them.
                if (progress.canceled()) {
                    break;
                }
                Optional<List<StoreRecord>> r = records(Modality.GRAPH, v);
                int graphChunks = 0;
                if (r.isPresent()) {
                    for (ChunkIndex index : targets) {
                        index.delete(List.of(v.version()));
                        index.upsert(r.get());
                    }
                    graphChunks = (int) r.get().stream().filter(x -> !x.graph().isEmpty()).count();
                    // Replaced or deleted while the model extracted (a sync published the next version, and purged
                    // this one before this wrote it back): its facts must not stay behind, which no sweep reads.
                    boolean gone = catalog.document(v.version().documentId()).map(d -> d.visibleVersion()
                            != v.version().version()).orElse(true);
                    if (gone) {
                        for (ChunkIndex index : targets) {
                            index.delete(List.of(v.version()));
                        }
                    }
                }
                // A version that changed meanwhile is recorded as extracted too: its successor was written whole.
                catalog.recordGraph(v.version(), graphChunks);
                done++;
            }
            progress.report(done, total);
        }
        if (done > 0) {
            LOG.log(Level.INFO, "extracted entities of " + done + " document versions into the graph stores");
        }
        return done;
    }

    /** Visible versions with extracted graph records that some of these stores holds fewer of. */
    private List<VersionRecords> heldShort(List<ChunkIndex> targets) {
        List<Map<DocumentVersion, Long>> held = targets.stream().map(ChunkIndex::versions).toList();
        return catalog.visibleVersions().stream().filter(v -> v.graphChunks() > 0 && held.stream()
                .anyMatch(h -> h.getOrDefault(v.version(), 0L) < v.graphChunks())).toList();
    }

    /** What the re-indexing this check did should tell its caller (chunks written without their context). */
    public List<String> warnings() {
        return List.copyOf(warnings);
    }

    /** Told how far a back-fill has come, and asked whether to stop. */
    public interface Progress {
        /** @param done versions written so far @param total versions the store lacked */
        void report(int done, int total);

        boolean canceled();
    }

    /**
     * Re-indexes into {@code m}'s store (vector or full text) every visible version it lacks, from the catalog's
     * chunk text (vectors through the embedding cache and the embedder), in batches, until none is lacking:
     * versions published while it ran are caught up by the next pass.
     *
     * @return how many versions were written
     */
    public int backfill(Modality m, Progress progress) {
        return backfill(m, progress, false);
    }

    /**
     * Like {@link #backfill(Modality, Progress)}; with {@code all}, every visible version is indexed again first (its
     * texts rebuilt: with their chunk contexts when contextual retrieval is on), then what still lacks records.
     */
    public int backfill(Modality m, Progress progress, boolean all) {
        ChunkIndex index = pipeline.stores().byModality().get(m);
        if (index == null || isGraph(m)) {
            throw new IllegalArgumentException("only an enabled vector or full-text store can be back-filled, not "
                    + m.wireName());
        }
        int done = 0;
        for (int pass = 0; pass < 5 && !progress.canceled(); pass++) {
            Map<DocumentVersion, Long> held = index.versions();
            boolean every = all && pass == 0;
            List<VersionRecords> lacking = catalog.visibleVersions().stream().filter(v -> every || held.getOrDefault(
                    v.version(), 0L) != v.chunks()).toList();
            if (lacking.isEmpty()) {
                break;
            }
            int base = done;
            done += reindex(m, index, lacking, (d, t) -> progress.report(base + d, base + t), progress::canceled);
        }
        return done;
    }

    /** What a check mends. */
    public enum Repair {
        /** Nothing: only report. */
        NONE,
        /** Remove orphan records (always safe: nothing visible owns them); report what stores lack. */
        ORPHANS,
        /** Remove orphans and re-index what stores lack. */
        ALL
    }

    /** Compares every store with the catalog, and mends what {@code repair} says. */
    public CheckReport run(Repair repair) {
        // The catalog is read before and after the stores are listed: a version visible or pending at either read
        // is not an orphan (one replaced, deleted or given up while the stores were listed is purged by the write
        // that did it; taken for an orphan, a check run while ingests run said "differs" and exited 1).
        Set<DocumentVersion> pending = new HashSet<>(catalog.pendingVersions());
        Map<DocumentVersion, VersionRecords> before = byVersion(catalog.visibleVersions());
        Map<Modality, Map<DocumentVersion, Long>> held = new TreeMap<>();
        pipeline.stores().byModality().forEach((m, index) -> held.put(m, index.versions()));
        pending.addAll(catalog.pendingVersions());
        Map<DocumentVersion, VersionRecords> after = byVersion(catalog.visibleVersions());
        List<CheckReport.StoreCheck> stores = new ArrayList<>();
        pipeline.stores().byModality().forEach((m, index) -> stores.add(compare(m, index, held.get(m), before, after,
                pending, repair)));
        return new CheckReport(after.size(), stores, repair == Repair.ALL);
    }

    private CheckReport.StoreCheck compare(Modality m, ChunkIndex index, Map<DocumentVersion, Long> held,
            Map<DocumentVersion, VersionRecords> before, Map<DocumentVersion, VersionRecords> after,
            Set<DocumentVersion> pending, Repair repair) {
        List<String> examples = new ArrayList<>();
        List<DocumentVersion> orphans = new ArrayList<>();
        long orphanRecords = 0;
        List<DocumentVersion> unowned = held.keySet().stream().filter(v -> !after.containsKey(v)
                && !before.containsKey(v) && !pending.contains(v)).toList();
        // Only versions this catalog allocated: a store shared by two deployments (one OpenSearch index, one Neo4j
        // database), or a catalog that is not the store's, made every start delete the other's records.
        Map<String, Long> allocated = unowned.isEmpty() ? Map.of() : catalog.allocatedVersions(unowned.stream()
                .map(DocumentVersion::documentId).toList());
        long foreign = 0;
        for (DocumentVersion v : unowned) {
            Long last = allocated.get(v.documentId());
            if (last != null && v.version() <= last) {
                orphans.add(v);
                orphanRecords += held.get(v);
                example(examples, v, held.get(v) + " records, no visible version owns them");
            } else {
                foreign++;
                example(examples, v, held.get(v) + " records of a version this catalog never made: not removed");
            }
        }
        if (foreign > 0) {
            LOG.log(Level.WARNING, "the " + m.wireName() + " store holds records of " + foreign + " document versions "
                    + "this catalog never made: another deployment's sharing the store, or a catalog that is not "
                    + "this store's. They are left alone; give each deployment its own index, database or graph");
        }
        List<VersionRecords> lacking = new ArrayList<>();
        long lackingRecords = 0;
        for (VersionRecords v : after.values()) {
            long want = expected(m, v);
            long have = held.getOrDefault(v.version(), 0L);
            if (want >= 0 && have != want && before.containsKey(v.version())) {
                lacking.add(v);
                lackingRecords += Math.max(0, want - have);
                example(examples, v.version(), "holds " + have + " of " + want + " records");
            }
        }
        int removed = 0;
        int reindexed = 0;
        if (repair != Repair.NONE && !orphans.isEmpty()) {
            index.delete(orphans);
            removed = orphans.size();
            LOG.log(Level.INFO, "removed " + orphanRecords + " orphan records of " + removed + " document versions "
                    + "from the " + m.wireName() + " store");
        }
        if (repair == Repair.ALL) {
            reindexed = reindex(m, index, lacking);
        }
        long expected = after.values().stream().mapToLong(v -> Math.max(0, expected(m, v))).sum();
        // After a repair, what the store holds now; otherwise what it held when listed.
        long records = removed + reindexed > 0 ? index.size() : held.values().stream().mapToLong(Long::longValue).sum();
        return new CheckReport.StoreCheck(m.wireName(), expected, records, orphans.size(), orphanRecords,
                lacking.size(), lackingRecords, examples, removed, reindexed);
    }

    private static void example(List<String> examples, DocumentVersion v, String what) {
        if (examples.size() < EXAMPLES) {
            examples.add(v.documentId() + "@" + v.version() + " (" + what + ")");
        }
    }

    /** Re-indexes these versions into {@code index} from the catalog, in batches; returns how many it wrote. */
    private int reindex(Modality m, ChunkIndex index, List<VersionRecords> versions) {
        return reindex(m, index, versions, (d, t) -> { }, () -> false);
    }

    private int reindex(Modality m, ChunkIndex index, List<VersionRecords> versions,
            BiConsumer<Integer, Integer> progress, BooleanSupplier canceled) {
        int done = 0;
        for (int from = 0; from < versions.size() && !canceled.getAsBoolean(); from += REINDEX_BATCH) {
            progress.accept(done, versions.size());
            List<DocumentVersion> batch = new ArrayList<>();
            List<StoreRecord> records = new ArrayList<>();
            Map<DocumentVersion, float[]> wholes = new HashMap<>();
            Map<DocumentVersion, Integer> graphChunks = new HashMap<>();
            for (VersionRecords v : versions.subList(from, Math.min(versions.size(), from + REINDEX_BATCH))) {
                Optional<List<StoreRecord>> r = records(m, v, wholes, canceled);
                if (r.isPresent()) {
                    batch.add(v.version());
                    records.addAll(r.get());
                    graphChunks.put(v.version(), (int) r.get().stream().filter(x -> !x.graph().isEmpty()).count());
                }
            }
            index.delete(batch);
            if (index instanceof VectorStore vectors) {
                vectors.upsert(records, wholes);
            } else {
                index.upsert(records);
            }
            // A version replaced or deleted while this ran must not stay behind as an orphan.
            List<DocumentVersion> gone = batch.stream().filter(v -> catalog.document(v.documentId())
                    .map(d -> d.visibleVersion() != v.version()).orElse(true)).toList();
            index.delete(gone);
            if (m == Modality.GRAPH || m == Modality.RDF) {
                // What this extraction found is what the check compares with from now on (the count recorded at
                // ingest may differ from today's extractor's, and the version was then "lacking" at every check).
                batch.stream().filter(v -> !gone.contains(v)).forEach(v -> catalog.recordGraph(v,
                        graphChunks.get(v)));
            }
            done += batch.size() - gone.size();
        }
        progress.accept(done, versions.size());
        if (done > 0) {
            LOG.log(Level.INFO, "re-indexed " + done + " document versions into the " + m.wireName() + " store");
        }
        if (contextless.get() > 0) {
            String warning = "contextual retrieval: " + contextless.getAndSet(0) + " chunks re-indexed into the "
                    + m.wireName() + " store got no context (" + contextFailure + "); they are indexed without one: "
                    + "'polyrag reindex --modality " + m.wireName() + " --all' writes them once the model answers (a "
                    + "reindex without --all finds them whole)";
            LOG.log(Level.WARNING, warning);
            warnings.add(warning);
            contextFailure = null;
        }
        return done;
    }

    /** The records {@code m}'s store should hold of a visible version, rebuilt from the catalog; empty if it changed. */
    private Optional<List<StoreRecord>> records(Modality m, VersionRecords v) {
        return records(m, v, new HashMap<>(), () -> false);
    }

    /**
     * {@link #records(Modality, VersionRecords)}, the version's whole vector put in {@code wholes} if it has one;
     * empty too once {@code canceled} says so while its chunks' contexts are written.
     */
    private Optional<List<StoreRecord>> records(Modality m, VersionRecords v, Map<DocumentVersion, float[]> wholes,
            BooleanSupplier canceled) {
        DocumentVersion dv = v.version();
        Optional<DocumentInfo> doc = catalog.document(dv.documentId());
        List<Chunk> chunks = catalog.chunks(dv.documentId(), dv.version(), 0, Integer.MAX_VALUE);
        if (doc.isEmpty() || doc.get().visibleVersion() != dv.version() || chunks.size() != v.chunks()) {
            return Optional.empty();
        }
        String title = doc.get().title();
        List<String> texts = chunks.stream().map(c -> c.indexText(title)).toList();
        Contextualizer contextualizer = pipeline.contextualizer();
        if (contextualizer != null && (m == Modality.VECTOR || m == Modality.FULLTEXT)) {
            // Contextual retrieval is on: the texts are indexed with their contexts, as an ingest writes them (from
            // the cache, or written now for chunks ingested before it was switched on).
            List<String> situated = chunks.stream().map(c -> IngestPipeline.graphText(c.kind(), c.text())).toList();
            Contextualizer.Result r = contextualizer.contexts(dv.documentId(), title, situated, Long.MAX_VALUE,
                    canceled);
            if (canceled.getAsBoolean()) {
                return Optional.empty(); // its records as they were, not replaced by ones missing their contexts
            }
            int missing = r.failed() > 0 ? r.missing(situated) : 0;
            if (missing > 0) {
                // Said once the reindex ends: the chunks went in without a context, and nothing told the operator.
                contextless.addAndGet(missing);
                contextFailure = contextFailure == null ? r.failure() : contextFailure;
            }
            List<String> contexts = r.contexts();
            List<String> with = new ArrayList<>(texts.size());
            for (int i = 0; i < texts.size(); i++) {
                with.add(m == Modality.VECTOR ? Contextualizer.withContextFitted(contexts.get(i), texts.get(i),
                        pipeline.embedder()) : Contextualizer.withContext(contexts.get(i), texts.get(i)));
            }
            texts = with;
        }
        String whole = m == Modality.VECTOR && pipeline.wholeVectors ? WholeVectors.text(chunks.stream()
                .map(c -> c.indexText(title)).toList(), pipeline.embedder()) : null;
        List<float[]> vectors = null;
        if (m == Modality.VECTOR) {
            List<String> all = new ArrayList<>(texts);
            if (whole != null) {
                all.add(whole);
            }
            vectors = pipeline.embedder().embedPassages(all);
            if (whole != null) {
                wholes.put(dv, vectors.getLast());
            }
        }
        // A tenant's entities live in its namespace, as the ingest writes them.
        String namespace = Tenant.ofStored(v.knowledgeBase()).namespace();
        List<ChunkGraph> graphs = isGraph(m) ? graphs(chunks, dv, title).stream().map(g -> g.inNamespace(namespace))
                .toList() : null;
        List<StoreRecord> out = new ArrayList<>();
        for (int i = 0; i < chunks.size(); i++) {
            Chunk c = chunks.get(i);
            out.add(new StoreRecord(c.id(), dv.documentId(), dv.version(), v.knowledgeBase(), texts.get(i),
                    vectors == null ? null : vectors.get(i), graphs == null ? ChunkGraph.EMPTY : graphs.get(i)));
        }
        return Optional.of(out);
    }

    private List<ChunkGraph> graphs(List<Chunk> chunks, DocumentVersion dv, String title) {
        List<Extraction> found = pipeline.extractor().extract(chunks.stream().map(c -> IngestPipeline.graphText(
                c.kind(), c.text())).toList(), Long.MAX_VALUE);
        return EntityResolver.resolve(found, chunks.stream().map(Chunk::id).toList(), dv.documentId(), dv.version(),
                title);
    }

    private static boolean isGraph(Modality m) {
        return m == Modality.GRAPH || m == Modality.RDF;
    }

    private static long expected(Modality m, VersionRecords v) {
        return isGraph(m) ? v.graphChunks() : v.chunks();
    }

    private static Map<DocumentVersion, VersionRecords> byVersion(List<VersionRecords> versions) {
        Map<DocumentVersion, VersionRecords> out = new HashMap<>();
        versions.forEach(v -> out.put(v.version(), v));
        return out;
    }
}
