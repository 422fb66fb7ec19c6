package io.polyrag.retrieval;

import io.polyrag.retrieval.GraphState.Chunk;
import io.polyrag.retrieval.GraphState.Edge;
import io.polyrag.retrieval.GraphState.Node;
import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.Entity;
import io.polyrag.core.model.EntityHit;
import io.polyrag.core.model.GraphEdge;
import io.polyrag.core.model.Mention;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.StoreRecord;
import io.polyrag.core.port.ChunkIndex;
import io.polyrag.core.port.EntityGraph;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Consumer;

/**
 * What the graph leg reads of an embedded entity graph — entities by key, alias and label word, their mention
 * counts, relations and mentions — held in memory and kept current by this process's own writes, so a search makes
 * no store call: Kuzu plans a lookup of a few ids as a scan of its table (10–20 ms a call at 100,000 entities, six to
 * nine calls a search), and a query naming nothing the graph knows is answered by a map lookup.
 *
 * <p>Filled once from the store ({@link EntityGraph#export}) in the background; until then, and for a store that
 * cannot be copied (a networked one other replicas write to), the leg asks the store. Writes go through
 * {@link #tracking}: applied to the store, then here; those made while the copy loads are replayed after it, in
 * order (writes are idempotent, so one the copy already holds does no harm). Reads answer exactly as the stores'
 * queries do — the same order, the same limits, the same scope filter — which {@code GraphMemoryTest} checks against
 * Kuzu and TDB2. Memory: about 300 bytes per entity and 100 per mention or relation (100,000 chunks of prose: about
 * 100 MB).
 */
public final class GraphMemory implements EntityGraphRetriever.Reads {
    private static final System.Logger LOG = System.getLogger(GraphMemory.class.getName());

    /** The order the stores return relations in: by document, chunk, then the two ends' ids. */
    static final Comparator<GraphEdge> EDGE_ORDER = Comparator.comparing(GraphEdge::documentId)
            .thenComparing(GraphEdge::chunkId).thenComparing(GraphEdge::subjectId)
            .thenComparing(GraphEdge::objectId).thenComparing(GraphEdge::predicate)
            .thenComparingLong(GraphEdge::version);
    private static final Comparator<Mention> MENTION_ORDER = Comparator.comparing(Mention::documentId)
            .thenComparing(Mention::chunkId).thenComparing(Mention::entityId);

    private final String name;
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    /** Guarded by {@link #lock}. */
    private GraphState state = new GraphState();
    /** Writes made while the copy loads, replayed after it; guarded by {@link #lock}. */
    private List<Runnable> pending = new ArrayList<>();
    private volatile boolean ready;
    /** False once the store said it cannot be copied: writes are no longer followed. */
    private volatile boolean following = true;

    private GraphMemory(String name) {
        this.name = name;
    }

    /**
     * A copy of {@code store}, filled in the background; waits up to {@code waitMillis} for it (a small graph is ready
     * before the first search, a large one does not hold up the start).
     */
    public static GraphMemory of(String name, EntityGraph store, long waitMillis) {
        GraphMemory m = new GraphMemory(name);
        // A platform thread: the load is CPU work in native and store code that never parks, and on a virtual
        // thread it held one of the carriers the HTTP server's requests run on for all of it (/health too).
        Thread loader = Thread.ofPlatform().daemon().name("graph-memory-" + name).start(() -> m.load(store));
        try {
            loader.join(Duration.ofMillis(waitMillis));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return m;
    }

    /** Whether writes are still followed (the copy loads, or is loaded); false once it could not be made. */
    boolean following() {
        return following;
    }

    /** Whether the copy is loaded and current: the leg reads it instead of the store. */
    public boolean ready() {
        return ready;
    }

    private void load(EntityGraph store) {
        long start = System.nanoTime();
        GraphState fresh = new GraphState();
        boolean copied;
        try {
            copied = store.export(new EntityGraph.Export() {
                @Override
                public void chunk(String chunkId, String documentId, long version, String knowledgeBase) {
                    fresh.chunk(chunkId, documentId, version, knowledgeBase);
                }

                @Override
                public void entity(Entity entity) {
                    fresh.entity(entity);
                }

                @Override
                public void mention(String chunkId, String entityId) {
                    Chunk c = fresh.chunks.get(chunkId);
                    Node n = fresh.nodes.get(entityId);
                    if (c != null && n != null) {
                        fresh.mention(c, n);
                    }
                }

                @Override
                public void relation(String subjectId, String predicate, String objectId, String chunkId,
                        String documentId, long version) {
                    fresh.relation(fresh.node(subjectId, null, ""), predicate, fresh.node(objectId, null, ""),
                            fresh.chunkOf(chunkId, documentId, version, ""), documentId, version);
                }
            });
        } catch (RuntimeException | Error e) {
            // An Error too (out of memory on a large graph): the loader ends here either way, and writes queued for
            // a copy that will never be made would be held, with their texts and vectors, for the process's life.
            LOG.log(System.Logger.Level.WARNING, "the " + name + " leg reads its store on every search: its copy in "
                    + "memory could not be loaded (" + e + ")");
            copied = false;
        }
        lock.writeLock().lock();
        try {
            if (!copied) {
                following = false;
                pending = null;
                return;
            }
            state = fresh;
            for (Runnable r : pending) {
                r.run();
            }
            pending = null;
            ready = true;
        } finally {
            lock.writeLock().unlock();
        }
        LOG.log(System.Logger.Level.INFO, String.format(Locale.ROOT, "%s leg: %,d entities, %,d relations "
                + "and %,d mentions in memory in %d ms", name, fresh.nodes.size(), fresh.relations, fresh.mentions,
                (System.nanoTime() - start) / 1_000_000));
    }

    /**
     * {@code store}'s writes, applied to it and then to this copy: the index the ingest pipeline, back-fills and
     * repairs write through.
     */
    public ChunkIndex tracking(ChunkIndex store) {
        return new ChunkIndex() {
            @Override
            public void upsert(List<StoreRecord> records) {
                store.upsert(records);
                // Without their texts and vectors: writes queued while the copy loads (minutes on a large graph)
                // held every batch's records whole, vectors and all, until it ended.
                List<StoreRecord> graphs = records.stream().filter(r -> !r.graph().isEmpty()).map(r ->
                        new StoreRecord(r.chunkId(), r.documentId(), r.version(), r.knowledgeBase(), "", null,
                                r.graph())).toList();
                if (!graphs.isEmpty()) {
                    write(s -> s.upsert(graphs));
                }
            }

            @Override
            public void delete(Collection<DocumentVersion> versions) {
                store.delete(versions);
                write(s -> s.delete(versions));
            }

            @Override
            public void deleteDocuments(Collection<String> documentIds) {
                store.deleteDocuments(documentIds);
                write(s -> s.deleteDocuments(documentIds));
            }

            @Override
            public long size() {
                return store.size();
            }

            @Override
            public void ping() {
                // The store's own probe: the default counts every record, a full scan of a SPARQL endpoint at
                // every readiness probe.
                store.ping();
            }

            @Override
            public Map<DocumentVersion, Long> versions() {
                return store.versions();
            }

            @Override
            public long records(DocumentVersion version) {
                return store.records(version);
            }

            @Override
            public void close() {
                store.close();
            }
        };
    }

    private void write(Consumer<GraphState> change) {
        if (!following) {
            return;
        }
        lock.writeLock().lock();
        try {
            if (pending != null) {
                pending.add(() -> change.accept(state));
            } else if (following) {
                change.accept(state);
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public List<String> ids(Collection<String> keys) {
        lock.readLock().lock();
        try {
            Set<String> out = new LinkedHashSet<>();
            for (String k : keys) {
                if (state.nodes.containsKey(k)) {
                    out.add(k);
                }
            }
            List<String> aliased = new ArrayList<>();
            for (String k : keys) {
                for (Node n : state.aliases.getOrDefault(k, List.of())) {
                    aliased.add(n.id);
                }
            }
            aliased.stream().sorted().forEach(out::add);
            return List.copyOf(out);
        } finally {
            lock.readLock().unlock();
        }
    }

    /** {@link #byLabel(Collection, String, int)} among every entity. */
    public List<String> byLabel(Collection<String> terms, int limit) {
        return byLabel(terms, null, limit);
    }

    @Override
    public List<String> byLabel(Collection<String> terms, String namespace, int limit) {
        List<String> needles = terms.stream().map(Entity::key).filter(t -> !t.isEmpty()).distinct().toList();
        if (needles.isEmpty() || limit <= 0) {
            return List.of();
        }
        lock.readLock().lock();
        try {
            Set<Node> candidates = new LinkedHashSet<>();
            for (String t : needles) {
                for (String w : words(t)) {
                    candidates.addAll(state.words.getOrDefault(w, Set.of()));
                }
            }
            // As the SPARQL lookup does: a label holds a term as a whole word (after a space or a tenant's slash),
            // and the entities whose best label holds the most terms come first.
            List<Map.Entry<String, Integer>> found = new ArrayList<>();
            for (Node n : candidates) {
                if (namespace != null && (namespace.isEmpty() ? n.id.indexOf('/') >= 0 : !n.id.startsWith(namespace))) {
                    continue;
                }
                int best = held(n.id, needles);
                for (String a : n.aliases) {
                    best = Math.max(best, held(a, needles));
                }
                if (best > 0) {
                    found.add(Map.entry(n.id, best));
                }
            }
            return found.stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()
                    .thenComparing(Map.Entry.comparingByKey())).limit(limit).map(Map.Entry::getKey).toList();
        } finally {
            lock.readLock().unlock();
        }
    }

    private static int held(String label, List<String> needles) {
        String padded = " " + label + " ";
        int n = 0;
        for (String t : needles) {
            if (padded.contains(" " + t + " ") || padded.contains("/" + t + " ")) {
                n++;
            }
        }
        return n;
    }

    /** The words of a normalised key or alias, without its tenant's namespace, as the RDF store indexes them. */
    static List<String> words(String label) {
        // Not the tenant's namespace (before a stored key's first '/'): every entity of the tenant held that word, a
        // term naming the tenant made them all candidates, and indexing each checked the whole list.
        return Arrays.stream(label.substring(label.indexOf('/') + 1).split(" +")).filter(w -> !w.isEmpty()).distinct()
                .toList();
    }

    @Override
    public List<EntityHit> entities(Collection<String> ids) {
        lock.readLock().lock();
        try {
            List<EntityHit> out = new ArrayList<>();
            for (String id : new LinkedHashSet<>(ids)) {
                Node n = state.nodes.get(id);
                if (n != null) {
                    out.add(new EntityHit(new Entity(n.id, n.name == null ? "" : n.name, n.type, List.copyOf(
                            n.aliases)), n.mentions.size()));
                }
            }
            return out;
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public List<GraphEdge> edges(Collection<String> entityIds, SearchScope scope, int limit) {
        if (entityIds.isEmpty() || limit <= 0) {
            return List.of();
        }
        lock.readLock().lock();
        try {
            // The first `limit` in the stores' order, kept in a heap of that size: a hub's thousands of relations are
            // not sorted whole.
            // A hub's edges that cannot enter a full heap (their document and chunk, which the order reads first, after
            // its last) are passed over without allocating; the identity set of edges seen is needed only when two
            // named entities can share an edge.
            PriorityQueue<GraphEdge> first = new PriorityQueue<>(EDGE_ORDER.reversed());
            Set<String> ids = new LinkedHashSet<>(entityIds);
            Set<Edge> seen = ids.size() > 1 ? Collections.newSetFromMap(new IdentityHashMap<>()) : null;
            for (String id : ids) {
                Node n = state.nodes.get(id);
                if (n == null) {
                    continue;
                }
                for (Edge e : n.edges) {
                    if (first.size() >= limit && after(e.doc, e.chunk.id, first.peek().documentId(),
                            first.peek().chunkId()) || !admits(scope, e.chunk.kb, e.doc)
                            || seen != null && !seen.add(e)) {
                        continue;
                    }
                    offer(first, new GraphEdge(e.subject.id, e.predicate, e.object.id, e.chunk.id, e.doc, e.version),
                            limit, EDGE_ORDER);
                }
            }
            return sorted(first, EDGE_ORDER);
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public List<Mention> mentions(Collection<String> entityIds, SearchScope scope, int limit) {
        if (entityIds.isEmpty() || limit <= 0) {
            return List.of();
        }
        lock.readLock().lock();
        try {
            PriorityQueue<Mention> first = new PriorityQueue<>(MENTION_ORDER.reversed());
            for (String id : new LinkedHashSet<>(entityIds)) {
                Node n = state.nodes.get(id);
                if (n == null) {
                    continue;
                }
                for (Chunk c : n.mentions) {
                    if (first.size() >= limit && after(c.doc, c.id, first.peek().documentId(),
                            first.peek().chunkId()) || !admits(scope, c.kb, c.doc)) {
                        continue;
                    }
                    offer(first, new Mention(n.id, c.id, c.doc, c.version), limit, MENTION_ORDER);
                }
            }
            return sorted(first, MENTION_ORDER);
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * Whether a chunk is in the search's scope: its knowledge base, and its document when the search names documents
     * (cut to the limit first, a document-scoped search's own chunks were mostly cut before the catalog's check).
     */
    private static boolean admits(SearchScope scope, String kb, String doc) {
        return scope.admits(kb) && (scope.documentIds().isEmpty() || scope.documentIds().contains(doc));
    }

    /** Keeps {@code x} in {@code first}, a heap of the {@code limit} first by {@code order} (its worst on top). */
    /** Whether (doc, chunk) sorts after the heap's last kept one: nothing with it can enter a full heap. */
    private static boolean after(String doc, String chunk, String lastDoc, String lastChunk) {
        int d = doc.compareTo(lastDoc);
        return d > 0 || d == 0 && chunk.compareTo(lastChunk) > 0;
    }

    private static <T> void offer(PriorityQueue<T> first, T x, int limit, Comparator<T> order) {
        if (first.size() < limit) {
            first.add(x);
        } else if (order.compare(x, first.peek()) < 0) {
            first.poll();
            first.add(x);
        }
    }

    private static <T> List<T> sorted(PriorityQueue<T> first, Comparator<T> order) {
        List<T> out = new ArrayList<>(first);
        out.sort(order);
        return out;
    }

    /** Entities, relations and mentions held, for tests and logs. */
    public Map<String, Long> counts() {
        lock.readLock().lock();
        try {
            return Map.of("entities", (long) state.nodes.size(), "relations", state.relations, "mentions",
                    state.mentions);
        } finally {
            lock.readLock().unlock();
        }
    }

}
