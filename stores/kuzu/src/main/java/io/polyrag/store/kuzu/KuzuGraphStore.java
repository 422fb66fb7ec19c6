// style(file): the embedded graph store: schema, writes, reads and its reader pool, one class as each store adapter is
package io.polyrag.store.kuzu;

import com.kuzudb.Connection;
import com.kuzudb.Database;
import com.kuzudb.PreparedStatement;
import com.kuzudb.QueryResult;
import com.kuzudb.Value;
import com.sun.management.OperatingSystemMXBean;
import io.polyrag.core.StoreException;
import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.Entity;
import io.polyrag.core.model.EntityHit;
import io.polyrag.core.model.GraphEdge;
import io.polyrag.core.model.Mention;
import io.polyrag.core.model.Relation;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.StoreRecord;
import io.polyrag.core.port.GraphStore;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The property graph on embedded Kuzu: {@code (:Chunk)-[:MENTIONS]->(:Entity)} and
 * {@code (:Entity)-[:RELATES {predicate, chunk, doc, version, props}]->(:Entity)}.
 *
 * <p>Kept thin on purpose (Kuzu's upstream is archived): plain Cypher through one helper, nothing else of its API.
 * Reads share a small pool of connections; writes are serialised and each batch is one transaction, so a batch is
 * visible whole or not at all. Aliases are one string of newline-framed keys ({@code \nkey\n}), which any Cypher
 * engine can search with CONTAINS.
 */
final class KuzuGraphStore implements GraphStore {
    private static final int READERS = 4;
    private static final List<String> SCHEMA = List.of(
            "CREATE NODE TABLE IF NOT EXISTS Entity(id STRING, name STRING, type STRING, aliases STRING, "
                    + "PRIMARY KEY(id))",
            "CREATE NODE TABLE IF NOT EXISTS Chunk(id STRING, doc STRING, version INT64, kb STRING, PRIMARY KEY(id))",
            "CREATE REL TABLE IF NOT EXISTS MENTIONS(FROM Chunk TO Entity)",
            "CREATE REL TABLE IF NOT EXISTS RELATES(FROM Entity TO Entity, predicate STRING, chunk STRING, "
                    + "doc STRING, version INT64, props STRING)",
            // The alias lookup's index: one node per alias, keyed by it. Searching the entities' alias strings with
            // CONTAINS read every entity (3 ms at 3,000 entities, 160 ms at 100,000).
            "CREATE NODE TABLE IF NOT EXISTS Alias(id STRING, PRIMARY KEY(id))",
            "CREATE REL TABLE IF NOT EXISTS ALIAS_OF(FROM Alias TO Entity)");

    private final Path dir;
    private final Database database;
    private final Connection writer;
    private final BlockingQueue<Connection> readers = new ArrayBlockingQueue<>(READERS);
    private final ReentrantLock writeLock = new ReentrantLock();
    /** Prepared statements per connection and text: preparing costs more than running the small ones here. */
    private final Map<Connection, Map<String, PreparedStatement>> prepared = new ConcurrentHashMap<>();
    private volatile boolean closed;

    KuzuGraphStore(Path dir) {
        this.dir = dir;
        try {
            Files.createDirectories(dir);
            // Kuzu's own default, 80% of the machine's memory, ignores a container's limit: sized here from the
            // memory this JVM may see (the container's limit inside one), defaults otherwise.
            this.database = new Database(dir.resolve("graph.kuzu").toString(), bufferPool(
                    ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                            .getTotalMemorySize()), true, false, 0, true, -1);
        } catch (Exception e) {
            throw new StoreException("cannot open the Kuzu graph in " + dir + ": " + e.getMessage(), e);
        }
        this.writer = new Connection(database);
        for (String ddl : SCHEMA) {
            run(writer, ddl, Map.of());
        }
        indexAliases();
        for (int i = 0; i < READERS; i++) {
            readers.add(new Connection(database));
        }
    }

    /** Kuzu's buffer pool: two fifths of the memory there is (Kuzu's default when it cannot be read). */
    static long bufferPool(long totalMemory) {
        return totalMemory <= 0 ? 0 : totalMemory / 5 * 2;
    }

    /**
     * A graph written before the {@code Alias} table existed gets its alias nodes once, from the entities' alias
     * strings; a graph with any alias node, or no entity with an alias, has nothing to do.
     */
    private void indexAliases() {
        if (count(writer, "MATCH (a:Alias) RETURN count(*)") > 0) {
            return;
        }
        Columns rows = new Columns("id", "alias");
        for (List<Object> row : run(writer, "MATCH (e:Entity) WHERE e.aliases <> '\n' RETURN e.id, e.aliases",
                Map.of())) {
            for (String alias : ((String) row.get(1)).split("\n")) {
                if (!alias.isBlank()) {
                    rows.add(row.get(0), alias);
                }
            }
        }
        if (!rows.isEmpty()) {
            write(() -> unwind(rows, ALIAS_MERGE));
        }
    }

    private static final String ALIAS_MERGE = "MERGE (a:Alias {id: v_alias}) MERGE (e:Entity {id: v_id}) "
            + "MERGE (a)-[:ALIAS_OF]->(e)";

    /**
     * Writes a batch in five statements (chunks, entities, aliases, mentions, relations), each an {@code UNWIND}
     * over parallel lists, in one transaction: one statement per row was the cost of graph ingest.
     *
     * <p>Nodes are bound with {@code MERGE (n:Label {id: v})}, never {@code MATCH (n:Label {id: v})}: Kuzu 0.11
     * looks a merged node up in its primary-key index, but plans a match on an unwound value as a scan joined with
     * the unwound rows, whose cost grows with the graph (measured on a 10,000-entity graph: 200 mention edges took
     * 46 s with MATCH, 12 ms with MERGE). Every node merged here was written earlier in the same transaction (a
     * {@link io.polyrag.core.model.ChunkGraph} holds both ends of each of its relations), so the merge finds it and
     * creates nothing.
     */
    @Override
    public void upsert(List<StoreRecord> records) {
        List<StoreRecord> withGraph = records.stream().filter(r -> !r.graph().isEmpty()).toList();
        if (withGraph.isEmpty()) {
            return;
        }
        Columns chunks = new Columns("id", "doc", "version", "kb");
        Map<String, Entity> entities = new LinkedHashMap<>();
        Set<List<String>> aliases = new LinkedHashSet<>();
        Set<List<String>> mentions = new LinkedHashSet<>();
        Map<List<String>, Relation> relations = new LinkedHashMap<>();
        for (StoreRecord r : withGraph) {
            chunks.add(r.chunkId(), r.documentId(), r.version(), r.knowledgeBase());
            for (Entity e : r.graph().entities()) {
                Entity known = entities.putIfAbsent(e.id(), e);
                if (known != null && known.type().isEmpty() && !e.type().isEmpty()) {
                    entities.put(e.id(), new Entity(e.id(), known.name(), e.type(), known.aliases()));
                }
                e.aliases().forEach(a -> aliases.add(List.of(e.id(), a)));
                mentions.add(List.of(r.chunkId(), e.id()));
            }
            for (Relation rel : r.graph().relations()) {
                relations.putIfAbsent(List.of(Entity.storedKey(rel.subject()), rel.predicate(), Entity.storedKey(rel.object()),
                        rel.chunkId()), rel);
            }
        }
        Columns entityRows = new Columns("id", "name", "type");
        entities.values().forEach(e -> entityRows.add(e.id(), e.name(), e.type()));
        Columns aliasRows = new Columns("id", "framed", "suffix");
        aliases.forEach(a -> aliasRows.add(a.get(0), "\n" + a.get(1) + "\n", a.get(1) + "\n"));
        Columns aliasNodes = new Columns("id", "alias");
        aliases.forEach(a -> aliasNodes.add(a.get(0), a.get(1)));
        Columns mentionRows = new Columns("c", "e");
        mentions.forEach(m -> mentionRows.add(m.get(0), m.get(1)));
        Columns relationRows = new Columns("s", "o", "p", "c", "doc", "version", "props");
        relations.forEach((k, rel) -> relationRows.add(k.get(0), k.get(2), rel.predicate(), rel.chunkId(),
                rel.documentId(), rel.version(), KuzuRows.encode(rel.properties())));
        write(() -> {
            unwind(chunks, "MERGE (c:Chunk {id: v_id}) SET c.doc = v_doc, c.version = v_version, c.kb = v_kb");
            unwind(entityRows, "MERGE (e:Entity {id: v_id}) ON CREATE SET e.name = v_name, e.type = v_type, "
                    + "e.aliases = '\n' ON MATCH SET e.type = CASE WHEN e.type = '' THEN v_type ELSE e.type END");
            unwind(aliasRows, "MERGE (e:Entity {id: v_id}) WITH e, v_framed, v_suffix "
                    + "WHERE NOT e.aliases CONTAINS v_framed SET e.aliases = concat(e.aliases, v_suffix)");
            unwind(aliasNodes, ALIAS_MERGE);
            unwind(mentionRows, "MERGE (c:Chunk {id: v_c}) MERGE (e:Entity {id: v_e}) MERGE (c)-[:MENTIONS]->(e)");
            unwind(relationRows, "MERGE (a:Entity {id: v_s}) MERGE (b:Entity {id: v_o}) "
                    + "MERGE (a)-[r:RELATES {predicate: v_p, chunk: v_c}]->(b) "
                    + "SET r.doc = v_doc, r.version = v_version, r.props = v_props");
        });
    }

    /** Runs {@code body} once per row, each column's value bound as {@code v_<column>}. */
    private void unwind(Columns rows, String body) {
        if (!rows.isEmpty()) {
            String first = rows.lists.keySet().iterator().next();
            String with = rows.lists.keySet().stream().map(n -> "$" + n + "[i] AS v_" + n)
                    .collect(Collectors.joining(", "));
            run(writer, "UNWIND range(1, size($" + first + ")) AS i WITH " + with + " " + body, rows.params());
        }
    }

    @Override
    public void delete(Collection<DocumentVersion> versions) {
        if (versions.isEmpty()) {
            return;
        }
        // One pass per version number and 1,000 documents, not per version: each pass scans the tables (Kuzu has no
        // secondary index), and deleting a knowledge base of 10,000 documents made 40,000 scans under the write lock.
        Map<Long, List<String>> byVersion = new TreeMap<>();
        versions.forEach(v -> byVersion.computeIfAbsent(v.version(), x -> new ArrayList<>()).add(v.documentId()));
        write(() -> byVersion.forEach((version, docs) -> KuzuRows.inThousands(docs, part -> removeWhere("c.doc IN $docs AND "
                + "c.version = $version", "r.doc IN $docs AND r.version = $version", Map.of("docs", part, "version",
                version)))));
    }

    @Override
    public void deleteDocuments(Collection<String> documentIds) {
        if (!documentIds.isEmpty()) {
            write(() -> KuzuRows.inThousands(List.copyOf(new LinkedHashSet<>(documentIds)), part -> removeWhere("c.doc IN $docs",
                    "r.doc IN $docs", Map.of("docs", part))));
        }
    }

    /** Deletes matching relations and chunks, then the entities they mentioned that nothing mentions any more. */
    private void removeWhere(String chunkFilter, String relFilter, Map<String, Object> params) {
        Set<String> touched = new LinkedHashSet<>();
        for (List<Object> row : run(writer, "MATCH (c:Chunk)-[:MENTIONS]->(e:Entity) WHERE " + chunkFilter
                + " RETURN DISTINCT e.id", params)) {
            touched.add((String) row.getFirst());
        }
        run(writer, "MATCH (:Entity)-[r:RELATES]->(:Entity) WHERE " + relFilter + " DELETE r", params);
        run(writer, "MATCH (c:Chunk) WHERE " + chunkFilter + " DETACH DELETE c", params);
        if (!touched.isEmpty()) {
            Map<String, Object> ids = Map.of("ids", List.copyOf(touched));
            List<Object> aliases = run(writer, "MATCH (a:Alias)-[:ALIAS_OF]->(e:Entity) WHERE e.id IN $ids RETURN "
                    + "DISTINCT a.id", ids).stream().map(List::getFirst).toList();
            run(writer, "MATCH (e:Entity) WHERE e.id IN $ids AND NOT EXISTS { MATCH (:Chunk)-[:MENTIONS]->(e) } "
                    + "DETACH DELETE e", ids);
            // Then the aliases no entity is called by any more: two deleted together that shared one each saw the
            // other still there, and the alias was left behind for good.
            if (!aliases.isEmpty()) {
                run(writer, "MATCH (a:Alias) WHERE a.id IN $aliases AND NOT EXISTS { MATCH (a)-[:ALIAS_OF]->"
                        + "(:Entity) } DETACH DELETE a", Map.of("aliases", aliases));
            }
        }
    }

    @Override
    public List<String> entityIds(Collection<String> keys) {
        if (keys.isEmpty()) {
            return List.of();
        }
        Set<String> out = new LinkedHashSet<>();
        Map<String, Object> params = Map.of("keys", List.copyOf(keys));
        read(c -> {
            for (List<Object> row : run(c, "MATCH (e:Entity) WHERE e.id IN $keys RETURN e.id", params)) {
                out.add((String) row.getFirst());
            }
            for (List<Object> row : run(c, "MATCH (a:Alias)-[:ALIAS_OF]->(e:Entity) WHERE a.id IN $keys "
                    + "RETURN e.id ORDER BY e.id", params)) {
                out.add((String) row.getFirst());
            }
            return null;
        });
        return List.copyOf(out);
    }

    @Override
    public List<EntityHit> entities(Collection<String> ids) {
        if (ids.isEmpty()) {
            return List.of();
        }
        return read(c -> KuzuRows.hits(run(c, "MATCH (e:Entity) WHERE e.id IN $ids RETURN e.id, e.name, e.type, e.aliases, "
                + "COUNT { MATCH (:Chunk)-[:MENTIONS]->(e) } AS n", Map.of("ids", List.copyOf(ids)))));
    }

    @Override
    public List<EntityHit> findEntities(String text, SearchScope scope, int limit) {
        String needle = Entity.key(text);
        if (needle.isEmpty() || limit <= 0) {
            return List.of();
        }
        Map<String, Object> params = new HashMap<>(KuzuRows.scoped("needle", needle, scope));
        params.put("own", "\n" + Entity.ownPartContaining(needle) + "\n"); // in a name's own part, not its namespace
        String mentions = params.containsKey("kbs") ? "COUNT { MATCH (c:Chunk)-[:MENTIONS]->(e) WHERE c.kb IN $kbs }"
                : "COUNT { MATCH (:Chunk)-[:MENTIONS]->(e) }";
        return read(c -> KuzuRows.hits(run(c, "MATCH (e:Entity) WHERE (e.id CONTAINS $needle OR e.aliases CONTAINS "
                + "$needle) AND regexp_matches(concat('\n', e.id, e.aliases), $own) WITH e, " + mentions + " AS n WHERE n > 0 "
                + "RETURN e.id, e.name, e.type, e.aliases, n ORDER BY n DESC, e.id LIMIT " + limit, params)));
    }

    @Override
    public List<GraphEdge> edges(Collection<String> entityIds, SearchScope scope, int limit) {
        if (entityIds.isEmpty() || limit <= 0) {
            return List.of();
        }
        Map<String, Object> params = KuzuRows.scoped("ids", List.copyOf(entityIds), scope);
        boolean scoped = params.containsKey("kbs");
        String docs = params.containsKey("docs") ? " r.doc IN $docs AND" : "";
        String join = (scoped ? ", (c:Chunk) WHERE c.id = r.chunk AND c.kb IN $kbs AND" : " WHERE") + docs;
        String first = " RETURN a.id, r.predicate, b.id, r.chunk, r.doc, r.version ORDER BY r.doc, r.chunk, a.id, b.id "
                + "LIMIT " + limit;
        // One match per direction, each starting from the entities it names: "a.id IN $ids OR b.id IN $ids" in one
        // match is planned as a scan of every relation (112 ms at 300,000 relations, against 7-14 ms for each
        // side). Each side's first `limit` edges hold the first `limit` of both; an edge with both ends named comes
        // from both sides and counts once.
        return read(c -> {
            TreeSet<GraphEdge> edges = new TreeSet<>(EDGE_ORDER);
            for (String side : List.of(" a.id IN $ids", " b.id IN $ids")) {
                for (List<Object> row : run(c, "MATCH (a:Entity)-[r:RELATES]->(b:Entity)" + join + side + first,
                        params)) {
                    edges.add(new GraphEdge((String) row.get(0), (String) row.get(1), (String) row.get(2),
                            (String) row.get(3), (String) row.get(4), ((Number) row.get(5)).longValue()));
                }
            }
            return edges.stream().limit(limit).toList();
        });
    }

    /** The order {@link #edges} returns: by document, chunk, then the two ends' ids (then the rest, for identity). */
    private static final Comparator<GraphEdge> EDGE_ORDER = Comparator
            .comparing(GraphEdge::documentId).thenComparing(GraphEdge::chunkId).thenComparing(GraphEdge::subjectId)
            .thenComparing(GraphEdge::objectId).thenComparing(GraphEdge::predicate)
            .thenComparingLong(GraphEdge::version);

    @Override
    public List<Mention> mentions(Collection<String> entityIds, SearchScope scope, int limit) {
        if (entityIds.isEmpty() || limit <= 0) {
            return List.of();
        }
        Map<String, Object> params = KuzuRows.scoped("ids", List.copyOf(entityIds), scope);
        boolean scoped = params.containsKey("kbs");
        String kbFilter = (scoped ? " AND c.kb IN $kbs" : "") + (params.containsKey("docs") ? " AND c.doc IN $docs"
                : "");
        return read(c -> run(c, "MATCH (c:Chunk)-[:MENTIONS]->(e:Entity) WHERE e.id IN $ids" + kbFilter
                + " RETURN e.id, c.id, c.doc, c.version ORDER BY c.doc, c.id LIMIT " + limit, params).stream()
                .map(row -> new Mention((String) row.get(0), (String) row.get(1), (String) row.get(2),
                        ((Number) row.get(3)).longValue()))
                .toList());
    }

    @Override
    public List<Map<String, String>> readCypher(String cypher, int limit) {
        // In a read-only transaction: the caller's check of the text is the first wall, this the second (a query
        // that slipped a writing clause past the check wrote with the reader's full rights).
        return read(c -> {
            // A model's query may be a cartesian product or an unbounded path: native, it cannot be interrupted by
            // the leg's cancel and kept a reader connection (of four) and a core. Kuzu stops it at its own timeout.
            c.setQueryTimeout(modelQueryTimeoutMs);
            try (QueryResult begin = KuzuRows.check(c.query("BEGIN TRANSACTION READ ONLY"), "BEGIN");
                    QueryResult result = KuzuRows.check(c.query(cypher), cypher)) {
                List<String> names = new ArrayList<>();
                for (int i = 0; i < result.getNumColumns(); i++) {
                    names.add(result.getColumnName(i));
                }
                List<Map<String, String>> rows = new ArrayList<>();
                for (List<Object> values : KuzuRows.rows(result, limit)) {
                    Map<String, String> row = new LinkedHashMap<>();
                    for (int i = 0; i < names.size(); i++) {
                        row.put(names.get(i), values.get(i) == null ? "" : String.valueOf(values.get(i)));
                    }
                    rows.add(row);
                }
                return rows;
            } finally {
                try (QueryResult ignored = c.query("ROLLBACK")) {
                    // Ends the read-only transaction (a failed query may have ended it already: nothing to undo).
                }
                c.setQueryTimeout(0);
            }
        });
    }

    /** Longest a query the language model wrote may run (text-to-Cypher); the search's leg timeout is 10 s. */
    static volatile long modelQueryTimeoutMs = 10_000;

    @Override
    public String schema() {
        return "Node (:Entity {id: STRING (normalised name), name: STRING, type: STRING})\n"
                + "Node (:Chunk {id: STRING, doc: STRING, version: INT64, kb: STRING})\n"
                + "Relationship (:Chunk)-[:MENTIONS]->(:Entity)\n"
                + "Relationship (:Entity)-[:RELATES {predicate: STRING, chunk: STRING, doc: STRING}]->(:Entity)";
    }

    @Override
    public Map<String, Long> counts() {
        return read(c -> {
            Map<String, Long> out = new TreeMap<>();
            out.put("entities", count(c, "MATCH (e:Entity) RETURN count(*)"));
            out.put("relations", count(c, "MATCH ()-[r:RELATES]->() RETURN count(*)"));
            out.put("mentions", count(c, "MATCH ()-[m:MENTIONS]->() RETURN count(*)"));
            out.put("chunks", count(c, "MATCH (c:Chunk) RETURN count(*)"));
            return out;
        });
    }

    @Override
    public long size() {
        return read(c -> count(c, "MATCH (c:Chunk) RETURN count(*)"));
    }

    @Override
    public Map<DocumentVersion, Long> versions() {
        return read(c -> {
            Map<DocumentVersion, Long> out = new HashMap<>();
            for (List<Object> row : run(c, "MATCH (c:Chunk) RETURN c.doc, c.version, count(*)", Map.of())) {
                out.put(new DocumentVersion((String) row.get(0), ((Number) row.get(1)).longValue()),
                        ((Number) row.get(2)).longValue());
            }
            return out;
        });
    }

    /** One version's chunks by key: the default walked every version of every tenant to answer for one. */
    @Override
    public long records(DocumentVersion v) {
        return read(c -> ((Number) run(c, "MATCH (c:Chunk) WHERE c.doc = $d AND c.version = $v RETURN count(*)",
                Map.of("d", v.documentId(), "v", v.version())).getFirst().getFirst()).longValue());
    }

    private long count(Connection c, String cypher) {
        return ((Number) run(c, cypher, Map.of()).getFirst().getFirst()).longValue();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        writeLock.lock();
        try {
            closed = true;
            // Every reader back first: closing the database under a query still running on a borrowed connection
            // crashes the process (native code). A query that outlives the wait leaves Kuzu to the process's end.
            List<Connection> all = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (all.size() < READERS) {
                Connection c = readers.poll(Math.max(0, deadline - System.nanoTime()),
                        TimeUnit.NANOSECONDS);
                if (c == null) {
                    System.getLogger(KuzuGraphStore.class.getName()).log(System.Logger.Level.WARNING, "a graph "
                            + "query was still running 10 s into shutdown: the Kuzu graph in " + dir + " is left for "
                            + "the process's end to close");
                    return;
                }
                all.add(c);
            }
            prepared.values().forEach(m -> m.values().forEach(PreparedStatement::close));
            prepared.clear();
            all.forEach(Connection::close);
            writer.close();
            database.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            writeLock.unlock();
        }
    }

    private interface Work {
        void run();
    }

    /** Runs {@code work} as one write transaction, rolled back when it fails. */
    private void write(Work work) {
        writeLock.lock();
        try {
            ensureOpen();
            run(writer, "BEGIN TRANSACTION", Map.of());
            try {
                work.run();
                run(writer, "COMMIT", Map.of());
            } catch (RuntimeException e) {
                try (QueryResult ignored = writer.query("ROLLBACK")) {
                    // rolled back; the original failure is what matters
                }
                throw e;
            }
        } finally {
            writeLock.unlock();
        }
    }

    private <T> T read(Function<Connection, T> work) {
        Connection c = null;
        try {
            while (c == null) {
                ensureOpen(); // closing takes every connection back: a reader waiting then must not wait forever
                c = readers.poll(100, TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreException("interrupted while waiting for a graph connection", e);
        }
        if (closed) {
            readers.add(c);
            ensureOpen();
        }
        try {
            return work.apply(c);
        } finally {
            readers.add(c);
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new StoreException("the Kuzu graph in " + dir + " is closed");
        }
    }

    /**
     * The whole graph, streamed: Kuzu plans lookups of a few ids as scans of the table (a leg's six to nine calls
     * took 10-20 ms each at 100,000 entities), so the graph leg walks a copy in memory that this process keeps
     * current, and this fills it. Kuzu is embedded: no other process writes it.
     */
    @Override
    public boolean export(Export sink) {
        read(c -> {
            KuzuRows.each(c, "MATCH (c:Chunk) RETURN c.id, c.doc, c.version, c.kb", row -> sink.chunk((String) row.get(0),
                    (String) row.get(1), ((Number) row.get(2)).longValue(), (String) row.get(3)));
            KuzuRows.each(c, "MATCH (e:Entity) RETURN e.id, e.name, e.type, e.aliases", row -> sink.entity(new Entity(
                    (String) row.get(0), (String) row.get(1), (String) row.get(2), List.of(((String) row.get(3))
                    .strip().split("\n")).stream().filter(a -> !a.isBlank()).toList())));
            KuzuRows.each(c, "MATCH (c:Chunk)-[:MENTIONS]->(e:Entity) RETURN c.id, e.id", row -> sink.mention(
                    (String) row.get(0), (String) row.get(1)));
            KuzuRows.each(c, "MATCH (a:Entity)-[r:RELATES]->(b:Entity) RETURN a.id, r.predicate, b.id, r.chunk, r.doc, "
                    + "r.version", row -> sink.relation((String) row.get(0), (String) row.get(1), (String) row.get(2),
                    (String) row.get(3), (String) row.get(4), ((Number) row.get(5)).longValue()));
            return null;
        });
        return true;
    }

    /** Runs one parameterised statement and returns every row as plain Java values. */
    private List<List<Object>> run(Connection c, String cypher, Map<String, Object> params) {
        List<Value> values = new ArrayList<>();
        try {
            QueryResult result;
            if (params.isEmpty()) {
                result = c.query(cypher);
            } else {
                Map<String, Value> bound = new LinkedHashMap<>();
                params.forEach((k, v) -> bound.put(k, KuzuRows.value(v, values)));
                PreparedStatement ps = statement(c, cypher);
                try {
                    result = c.execute(ps, bound);
                } finally {
                    if (prepared.get(c).get(cypher) != ps) { // not cached: this call owns it
                        ps.close();
                    }
                }
            }
            try (QueryResult r = KuzuRows.check(result, cypher)) {
                return KuzuRows.rows(r, Integer.MAX_VALUE);
            }
        } finally {
            values.forEach(Value::close);
        }
    }

    /** The connection's prepared statement for {@code cypher}; a connection is used by one thread at a time. */
    private PreparedStatement statement(Connection c, String cypher) {
        Map<String, PreparedStatement> cache = prepared.computeIfAbsent(c, k -> new HashMap<>());
        PreparedStatement ps = cache.get(cypher);
        if (ps == null) {
            ps = c.prepare(cypher);
            if (!ps.isSuccess()) {
                String message = ps.getErrorMessage();
                ps.close();
                throw new StoreException("Kuzu rejected a statement: " + message + " in: " + cypher);
            }
            if (cache.size() < 1024) {
                cache.put(cypher, ps);
            }
        }
        return ps;
    }

}
