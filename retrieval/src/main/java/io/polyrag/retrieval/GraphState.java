package io.polyrag.retrieval;

import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.Entity;
import io.polyrag.core.model.Relation;
import io.polyrag.core.model.StoreRecord;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@link GraphMemory}'s copy of the graph: entities, the chunks that mention them and the relations between them, in
 * maps changed under its write lock only.
 */
final class GraphState {
    final Map<String, Node> nodes = new HashMap<>();
    final Map<String, List<Node>> aliases = new HashMap<>();
    /** Entities by each word of their keys and aliases (a set: a common word holds thousands, and each add checked). */
    final Map<String, Set<Node>> words = new HashMap<>();
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
            index(words, GraphMemory.words(id), n);
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
                index(words, GraphMemory.words(a), n);
            }
        }
    }

    private static void index(Map<String, Set<Node>> index, List<String> keys, Node n) {
        for (String k : keys) {
            index.computeIfAbsent(k, x -> new LinkedHashSet<>(2)).add(n);
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

    // Every chunk of the call removed at once: one pass over each touched entity's mentions and relations (a version
    // at a time, a hub mentioned by every document was scanned once per version, under the write lock).
    void delete(Collection<DocumentVersion> versions) {
        List<Chunk> gone = new ArrayList<>();
        for (DocumentVersion v : versions) {
            byDocument.getOrDefault(v.documentId(), List.of()).stream().filter(c -> c.version == v.version())
                    .forEach(gone::add);
        }
        remove(gone);
    }

    void deleteDocuments(Collection<String> documentIds) {
        List<Chunk> gone = new ArrayList<>();
        for (String d : documentIds) {
            gone.addAll(byDocument.getOrDefault(d, List.of()));
        }
        remove(gone);
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
        // Grouped by the other end: one pass over each neighbour's relations (a hub losing many leaves was scanned
        // once per leaf).
        Map<Node, Set<Edge>> byOther = new IdentityHashMap<>();
        Map<Chunk, Set<Edge>> byChunk = new IdentityHashMap<>();
        for (Edge e : n.edges) {
            Node other = e.subject == n ? e.object : e.subject;
            byOther.computeIfAbsent(other, x -> Collections.newSetFromMap(new IdentityHashMap<>())).add(e);
            byChunk.computeIfAbsent(e.chunk, x -> Collections.newSetFromMap(new IdentityHashMap<>())).add(e);
            relations--;
        }
        byOther.forEach((other, es) -> other.edges.removeIf(es::contains));
        byChunk.forEach((chunk, es) -> chunk.edges.removeIf(es::contains));
        n.edges.clear();
        for (String a : n.aliases) {
            unindex(aliases, a, n);
            for (String w : GraphMemory.words(a)) {
                unindex(words, w, n);
            }
        }
        for (String w : GraphMemory.words(n.id)) {
            unindex(words, w, n);
        }
    }

    private static void unindex(Map<String, ? extends Collection<Node>> index, String key, Node n) {
        Collection<Node> at = index.get(key);
        if (at != null) {
            at.remove(n);
            if (at.isEmpty()) {
                index.remove(key);
            }
        }
    }

    /** An entity: its own fields, the chunks that mention it, the relations it takes part in. */
    static final class Node {
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
    static final class Chunk {
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
    static final class Edge {
        final Node subject;
        final String predicate;
        final Node object;
        final Chunk chunk;
        final String doc;
        final long version;

        Edge(Node subject, String predicate, Node object, Chunk chunk, String doc, long version) {
            this.subject = subject;
            this.predicate = predicate;
            this.object = object;
            this.chunk = chunk;
            this.doc = doc;
            this.version = version;
        }
    }
}
