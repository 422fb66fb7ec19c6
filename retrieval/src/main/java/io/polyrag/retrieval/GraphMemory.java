package io.polyrag.retrieval;

import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.Entity;
import io.polyrag.core.model.EntityHit;
import io.polyrag.core.model.GraphEdge;
import io.polyrag.core.model.Mention;
import io.polyrag.core.model.Relation;
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
import java.util.HashMap;
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
    private State state = new State();
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
        Thread loader = Thread.ofVirtual().name("graph-memory-" + name).start(() -> m.load(store));
        try {
            loader.join(Duration.ofMillis(waitMillis));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return m;
    }

    /** Whether the copy is loaded and current: the leg reads it instead of the store. */
    public boolean ready() {
        return ready;
    }

    private void load(EntityGraph store) {
        long start = System.nanoTime();
        State fresh = new State();
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
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "the " + name + " leg reads its store on every search: its copy in "
                    + "memory could not be loaded (" + e.getMessage() + ")");
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
                write(s -> s.upsert(records));
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

    private void write(Consumer<State> change) {
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

    @Override
    public List<String> byLabel(Collection<String> terms, int limit) {
        List<String> needles = terms.stream().map(Entity::key).filter(t -> !t.isEmpty()).distinct().toList();
        if (needles.isEmpty() || limit <= 0) {
            return List.of();
        }
        lock.readLock().lock();
        try {
            Set<Node> candidates = new LinkedHashSet<>();
            for (String t : needles) {
                for (String w : words(t)) {
                    candidates.addAll(state.words.getOrDefault(w, List.of()));
                }
            }
            // As the SPARQL lookup does: a label holds a term as a whole word (after a space or a tenant's slash),
            // and the entities whose best label holds the most terms come first.
            List<Map.Entry<String, Integer>> found = new ArrayList<>();
            for (Node n : candidates) {
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

    /** The words of a normalised key or alias, a tenant's namespace among them, as the RDF store indexes them. */
    private static List<String> words(String label) {
        return Arrays.stream(label.split("[ /]+")).filter(w -> !w.isEmpty()).distinct().toList();
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
            PriorityQueue<GraphEdge> first = new PriorityQueue<>(EDGE_ORDER.reversed());
            Set<Edge> seen = Collections.newSetFromMap(new IdentityHashMap<>());
            for (String id : new LinkedHashSet<>(entityIds)) {
                Node n = state.nodes.get(id);
                if (n == null) {
                    continue;
                }
                for (Edge e : n.edges) {
                    if (!scope.admits(e.chunk.kb) || !seen.add(e)) {
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
                    if (!scope.admits(c.kb)) {
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

    /** Keeps {@code x} in {@code first}, a heap of the {@code limit} first by {@code order} (its worst on top). */
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

    /** An entity: its own fields, the chunks that mention it, the relations it takes part in. */
    private static final class Node {
        final String id;
        String name;
        String type;
        final List<String> aliases = new ArrayList<>(1);
        final List<Chunk> mentions = new ArrayList<>(2);
        final List<Edge> edges = new ArrayList<>(2);

        Node(String id, String name, String type) {
            this.id = id;
            this.name = name;
            this.type = type == null ? "" : type;
        }
    }

    /** A chunk that mentions entities or states relations, with what it does so. */
    private static final class Chunk {
        final String id;
        final String doc;
        final long version;
        final String kb;
        final List<Node> mentions = new ArrayList<>(4);
        final List<Edge> edges = new ArrayList<>(2);

        Chunk(String id, String doc, long version, String kb) {
            this.id = id;
            this.doc = doc;
            this.version = version;
            this.kb = kb == null ? "" : kb;
        }
    }

    /** A relation, stated by {@code chunk} (its document and version as the relation carries them). */
    private record Edge(Node subject, String predicate, Node object, Chunk chunk, String doc, long version) {
        @Override
        public boolean equals(Object o) {
            return this == o;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(this);
        }
    }

    /** The copy's maps; changed under the write lock only. */
    private static final class State {
        final Map<String, Node> nodes = new HashMap<>();
        final Map<String, List<Node>> aliases = new HashMap<>();
        final Map<String, List<Node>> words = new HashMap<>();
        final Map<String, Chunk> chunks = new HashMap<>();
        final Map<String, List<Chunk>> byDocument = new HashMap<>();
        long relations;
        long mentions;

        Chunk chunk(String id, String doc, long version, String kb) {
            Chunk c = new Chunk(id, doc, version, kb);
            Chunk before = chunks.put(id, c);
            if (before != null) {
                remove(List.of(before));
            }
            byDocument.computeIfAbsent(doc, d -> new ArrayList<>()).add(c);
            return c;
        }

        /** The chunk a relation names, made (in no knowledge base) when no chunk of that id was written. */
        Chunk chunkOf(String id, String doc, long version, String kb) {
            Chunk c = chunks.get(id);
            return c != null ? c : chunk(id, doc, version, kb);
        }

        Node node(String id, String name, String type) {
            Node n = nodes.get(id);
            if (n == null) {
                n = new Node(id, name, type);
                nodes.put(id, n);
                index(words, words(id), n);
            } else {
                if (n.name == null && name != null) {
                    n.name = name;
                }
                if (n.type.isEmpty() && type != null && !type.isEmpty()) {
                    // The first type an entity was given stays; a later document only fills in a missing one.
                    n.type = type;
                }
            }
            return n;
        }

        void entity(Entity e) {
            Node n = node(e.id(), e.name(), e.type());
            for (String a : e.aliases()) {
                if (!n.aliases.contains(a)) {
                    n.aliases.add(a);
                    aliases.computeIfAbsent(a, k -> new ArrayList<>(1)).add(n);
                    index(words, words(a), n);
                }
            }
        }

        private static void index(Map<String, List<Node>> index, List<String> keys, Node n) {
            for (String k : keys) {
                List<Node> at = index.computeIfAbsent(k, x -> new ArrayList<>(1));
                if (!at.contains(n)) {
                    at.add(n);
                }
            }
        }

        void mention(Chunk c, Node n) {
            if (!c.mentions.contains(n)) {
                c.mentions.add(n);
                n.mentions.add(c);
                mentions++;
            }
        }

        void relation(Node s, String predicate, Node o, Chunk c, String doc, long version) {
            for (Edge e : c.edges) {
                if (e.subject == s && e.object == o && e.predicate.equals(predicate)) {
                    return;
                }
            }
            Edge e = new Edge(s, predicate, o, c, doc, version);
            c.edges.add(e);
            s.edges.add(e);
            if (o != s) {
                o.edges.add(e);
            }
            relations++;
        }

        /** As the stores write a batch: chunks replaced by id, entities merged by id, aliases added. */
        void upsert(List<StoreRecord> records) {
            for (StoreRecord r : records) {
                if (r.graph().isEmpty()) {
                    continue;
                }
                Chunk c = chunk(r.chunkId(), r.documentId(), r.version(), r.knowledgeBase());
                for (Entity e : r.graph().entities()) {
                    entity(e);
                    mention(c, nodes.get(e.id()));
                }
                for (Relation rel : r.graph().relations()) {
                    String s = Entity.storedKey(rel.subject());
                    String o = Entity.storedKey(rel.object());
                    Chunk at = rel.chunkId().equals(c.id) ? c : chunkOf(rel.chunkId(), rel.documentId(),
                            rel.version(), r.knowledgeBase());
                    relation(node(s, rel.subject(), rel.subjectType()), rel.predicate(), node(o, rel.object(),
                            rel.objectType()), at, rel.documentId(), rel.version());
                }
            }
        }

        void delete(Collection<DocumentVersion> versions) {
            for (DocumentVersion v : versions) {
                remove(byDocument.getOrDefault(v.documentId(), List.of()).stream()
                        .filter(c -> c.version == v.version()).toList());
            }
        }

        void deleteDocuments(Collection<String> documentIds) {
            for (String d : documentIds) {
                remove(List.copyOf(byDocument.getOrDefault(d, List.of())));
            }
        }

        /**
         * Removes chunks with their mentions and relations, then the entities no chunk mentions any more (with their
         * aliases and remaining relations), as the stores do.
         */
        void remove(List<Chunk> gone) {
            if (gone.isEmpty()) {
                return;
            }
            Set<Chunk> set = Collections.newSetFromMap(new IdentityHashMap<>());
            set.addAll(gone);
            Set<Node> touched = Collections.newSetFromMap(new IdentityHashMap<>());
            Set<Edge> edges = Collections.newSetFromMap(new IdentityHashMap<>());
            for (Chunk c : gone) {
                if (chunks.get(c.id) == c) {
                    chunks.remove(c.id);
                }
                List<Chunk> ofDoc = byDocument.get(c.doc);
                if (ofDoc != null) {
                    ofDoc.remove(c);
                    if (ofDoc.isEmpty()) {
                        byDocument.remove(c.doc);
                    }
                }
                touched.addAll(c.mentions);
                mentions -= c.mentions.size();
                edges.addAll(c.edges);
            }
            // Relations carry their document and version: the store deletes them by those, whichever chunk states
            // them.
            for (Edge e : edges) {
                touched.add(e.subject);
                touched.add(e.object);
            }
            for (Node n : touched) {
                n.mentions.removeIf(set::contains);
                n.edges.removeIf(edges::contains);
            }
            relations -= edges.size();
            for (Node n : touched) {
                if (n.mentions.isEmpty()) {
                    drop(n);
                }
            }
        }

        private void drop(Node n) {
            if (nodes.get(n.id) != n) {
                return;
            }
            nodes.remove(n.id);
            for (Edge e : List.copyOf(n.edges)) {
                Node other = e.subject == n ? e.object : e.subject;
                other.edges.remove(e);
                e.chunk.edges.remove(e);
                relations--;
            }
            n.edges.clear();
            for (String a : n.aliases) {
                unindex(aliases, a, n);
                for (String w : words(a)) {
                    unindex(words, w, n);
                }
            }
            for (String w : words(n.id)) {
                unindex(words, w, n);
            }
        }

        private static void unindex(Map<String, List<Node>> index, String key, Node n) {
            List<Node> at = index.get(key);
            if (at != null) {
                at.remove(n);
                if (at.isEmpty()) {
                    index.remove(key);
                }
            }
        }
    }
}
