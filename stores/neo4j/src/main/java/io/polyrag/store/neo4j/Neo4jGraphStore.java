package io.polyrag.store.neo4j;

import io.polyrag.core.StoreException;
import io.polyrag.core.UnavailableException;
import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.Entity;
import io.polyrag.core.model.EntityHit;
import io.polyrag.core.model.GraphEdge;
import io.polyrag.core.model.Mention;
import io.polyrag.core.model.Relation;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.StoreRecord;
import io.polyrag.core.port.GraphStore;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Config;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;
import org.neo4j.driver.Record;
import org.neo4j.driver.Session;
import org.neo4j.driver.SessionConfig;
import org.neo4j.driver.TransactionConfig;
import org.neo4j.driver.TransactionContext;
import org.neo4j.driver.Value;
import org.neo4j.driver.exceptions.AuthenticationException;
import org.neo4j.driver.exceptions.ServiceUnavailableException;
import org.neo4j.driver.types.TypeSystem;

/**
 * The property graph on Neo4j (or any Bolt server) through the official driver, with the same model as the embedded
 * store: {@code (:Chunk)-[:MENTIONS]->(:Entity)} and {@code (:Entity)-[:RELATES {predicate, chunk, doc, version,
 * props}]->(:Entity)}. Each batch is one write transaction; reads, including user Cypher, run in read
 * transactions, which the server itself refuses to write in.
 */
final class Neo4jGraphStore implements GraphStore {
    private static final List<String> SCHEMA = List.of(
            "CREATE CONSTRAINT polyrag_entity_id IF NOT EXISTS FOR (e:Entity) REQUIRE e.id IS UNIQUE",
            "CREATE CONSTRAINT polyrag_chunk_id IF NOT EXISTS FOR (c:Chunk) REQUIRE c.id IS UNIQUE",
            "CREATE INDEX polyrag_chunk_doc IF NOT EXISTS FOR (c:Chunk) ON (c.doc)",
            "CREATE INDEX polyrag_relates_doc IF NOT EXISTS FOR ()-[r:RELATES]-() ON (r.doc)");

    private final Driver driver;
    private final String database;
    private final String uri;
    /**
     * The lookups a search's graph leg makes end on the server too, within the store's timeout: a leg dropped at its
     * deadline (never interrupted) left a slow query on a hub running there, holding a pooled connection, until
     * ingest's writes could not get one.
     */
    private final TransactionConfig lookup;

    /**
     * {@code timeoutSeconds} bounds connecting and retrying a transaction the server could not run: the driver's own
     * defaults (30 s each, retried with back-off) held every call of an ingest half a minute against a server that
     * was down before it said so. Taking a pooled connection may wait twice as long: the driver lets that limit win
     * over the connect timeout, and its failure ("unable to acquire connection") is not the "unavailable" that makes
     * an ingest wait for the store.
     */
    Neo4jGraphStore(String uri, String user, String password, String database, int timeoutSeconds) {
        this.uri = uri;
        this.database = database;
        this.lookup = TransactionConfig.builder().withTimeout(Duration.ofSeconds(timeoutSeconds)).build();
        Config config = Config.builder()
                .withConnectionTimeout(timeoutSeconds, TimeUnit.SECONDS)
                .withConnectionAcquisitionTimeout(2L * timeoutSeconds, TimeUnit.SECONDS)
                .withMaxTransactionRetryTime(timeoutSeconds, TimeUnit.SECONDS).build();
        this.driver = password == null || password.isEmpty() ? GraphDatabase.driver(uri, AuthTokens.none(), config)
                : GraphDatabase.driver(uri, AuthTokens.basic(user, password), config);
        try {
            driver.verifyConnectivity();
            for (String ddl : SCHEMA) {
                try (Session s = session()) {
                    s.run(ddl).consume();
                }
            }
        } catch (RuntimeException e) {
            driver.close();
            throw translate("connect to", e);
        }
    }

    private Session session() {
        return driver.session(SessionConfig.forDatabase(database));
    }

    /**
     * Writes a batch in four statements over lists ({@code UNWIND}), entities in id order: a statement per chunk,
     * entity, mention and relation waited for the server each time (64 documents of 20 chunks were some 28,000
     * round trips, minutes against a remote server inside one transaction), and two writers merging shared
     * entities in different orders could deadlock.
     */
    @Override
    public void upsert(List<StoreRecord> records) {
        List<StoreRecord> withGraph = records.stream().filter(r -> !r.graph().isEmpty()).toList();
        if (withGraph.isEmpty()) {
            return;
        }
        List<Map<String, Object>> chunks = new ArrayList<>();
        Map<String, Map<String, Object>> entities = new TreeMap<>();
        List<Map<String, Object>> mentions = new ArrayList<>();
        List<Map<String, Object>> relations = new ArrayList<>();
        for (StoreRecord r : withGraph) {
            chunks.add(Map.of("id", r.chunkId(), "doc", r.documentId(), "version", r.version(), "kb",
                    r.knowledgeBase()));
            for (Entity e : r.graph().entities()) {
                Map<String, Object> row = entities.computeIfAbsent(e.id(), id -> {
                    Map<String, Object> m = new HashMap<>();
                    m.put("id", id);
                    m.put("name", e.name());
                    m.put("type", "");
                    m.put("aliases", new LinkedHashSet<String>());
                    return m;
                });
                // As one statement per mention wrote it: the first name, the first type given, every alias.
                if ("".equals(row.get("type")) && e.type() != null) {
                    row.put("type", e.type());
                }
                @SuppressWarnings("unchecked")
                Set<String> aliases = (Set<String>) row.get("aliases");
                aliases.addAll(e.aliases());
                mentions.add(Map.of("c", r.chunkId(), "e", e.id()));
            }
            for (Relation rel : r.graph().relations()) {
                relations.add(Map.of("s", Entity.storedKey(rel.subject()), "o", Entity.storedKey(rel.object()), "p",
                        rel.predicate(), "c", rel.chunkId(), "doc", rel.documentId(), "version", rel.version(),
                        "props", encode(rel.properties())));
            }
        }
        List<Map<String, Object>> entityRows = entities.values().stream().map(m -> {
            Map<String, Object> row = new HashMap<>(m);
            row.put("aliases", List.copyOf((Set<?>) m.get("aliases")));
            return row;
        }).toList();
        write(tx -> {
            tx.run("UNWIND $rows AS row MERGE (c:Chunk {id: row.id}) SET c.doc = row.doc, c.version = row.version, "
                    + "c.kb = row.kb", Map.of("rows", chunks)).consume();
            tx.run("UNWIND $rows AS row MERGE (e:Entity {id: row.id}) "
                    + "ON CREATE SET e.name = row.name, e.type = row.type, e.aliases = '\n' "
                    + "ON MATCH SET e.type = CASE WHEN e.type = '' THEN row.type ELSE e.type END "
                    + "WITH e, row UNWIND row.aliases AS alias "
                    + "WITH e, alias WHERE NOT e.aliases CONTAINS ('\n' + alias + '\n') "
                    + "SET e.aliases = e.aliases + alias + '\n'", Map.of("rows", entityRows)).consume();
            tx.run("UNWIND $rows AS row MATCH (c:Chunk {id: row.c}), (e:Entity {id: row.e}) "
                    + "MERGE (c)-[:MENTIONS]->(e)", Map.of("rows", mentions)).consume();
            tx.run("UNWIND $rows AS row MATCH (a:Entity {id: row.s}), (b:Entity {id: row.o}) "
                    + "MERGE (a)-[r:RELATES {predicate: row.p, chunk: row.c}]->(b) "
                    + "SET r.doc = row.doc, r.version = row.version, r.props = row.props",
                    Map.of("rows", relations)).consume();
            return null;
        });
    }

    @Override
    public void delete(Collection<DocumentVersion> versions) {
        if (versions.isEmpty()) {
            return;
        }
        List<Map<String, Object>> keys = versions.stream()
                .map(v -> Map.<String, Object>of("doc", v.documentId(), "version", v.version())).toList();
        remove("UNWIND $keys AS k MATCH (c:Chunk {doc: k.doc, version: k.version})",
                "UNWIND $keys AS k MATCH (:Entity)-[r:RELATES {doc: k.doc, version: k.version}]->(:Entity)",
                Map.of("keys", keys));
    }

    @Override
    public void deleteDocuments(Collection<String> documentIds) {
        if (documentIds.isEmpty()) {
            return;
        }
        remove("MATCH (c:Chunk) WHERE c.doc IN $docs", "MATCH (:Entity)-[r:RELATES]->(:Entity) WHERE r.doc IN $docs",
                Map.of("docs", List.copyOf(documentIds)));
    }

    /** Deletes matching relations and chunks, then the entities they mentioned that nothing mentions any more. */
    private void remove(String chunkMatch, String relMatch, Map<String, Object> params) {
        write(tx -> {
            List<String> touched = tx.run(chunkMatch + " MATCH (c)-[:MENTIONS]->(e:Entity) RETURN DISTINCT e.id AS id",
                    params).list(r -> r.get("id").asString());
            tx.run(relMatch + " DELETE r", params).consume();
            tx.run(chunkMatch + " DETACH DELETE c", params).consume();
            // Each entity locked before it is judged (the write lock a SET takes): judged unlocked, one a writer had
            // just merged, its mention not yet committed, was seen unmentioned and deleted with that new mention.
            tx.run("MATCH (e:Entity) WHERE e.id IN $ids SET e._lock = true REMOVE e._lock WITH e "
                    + "WHERE NOT EXISTS { MATCH (:Chunk)-[:MENTIONS]->(e) } DETACH DELETE e",
                    Map.of("ids", touched)).consume();
            return null;
        });
    }

    @Override
    public List<String> entityIds(Collection<String> keys) {
        if (keys.isEmpty()) {
            return List.of();
        }
        return read(lookup, tx -> tx.run("MATCH (e:Entity) WHERE e.id IN $keys OR any(k IN $keys WHERE e.aliases CONTAINS "
                + "('\n' + k + '\n')) RETURN e.id AS id", Map.of("keys", List.copyOf(keys)))
                .list(r -> r.get("id").asString()));
    }

    @Override
    public List<EntityHit> entities(Collection<String> ids) {
        if (ids.isEmpty()) {
            return List.of();
        }
        return read(lookup, tx -> tx.run("MATCH (e:Entity) WHERE e.id IN $ids RETURN e, COUNT { (:Chunk)-[:MENTIONS]->(e) } "
                + "AS n ORDER BY e.id", Map.of("ids", List.copyOf(ids))).list(Neo4jGraphStore::hit));
    }

    @Override
    public List<EntityHit> findEntities(String text, SearchScope scope, int limit) {
        String needle = Entity.key(text);
        if (needle.isEmpty() || limit <= 0) {
            return List.of();
        }
        // CONTAINS first (cheap), then the needle in the name's own part, not in its tenant's namespace.
        String own = Entity.ownPartContaining(needle);
        return read(lookup, tx -> tx.run("MATCH (e:Entity) WHERE (e.id CONTAINS $needle AND e.id =~ $id_re) "
                + "OR (e.aliases CONTAINS $needle AND e.aliases =~ $alias_re) "
                + "WITH e, COUNT { (c:Chunk)-[:MENTIONS]->(e) WHERE size($kbs) = 0 OR c.kb IN $kbs } AS n "
                + "WHERE n > 0 RETURN e, n ORDER BY n DESC, e.id LIMIT $limit",
                Map.of("needle", needle, "id_re", own, "alias_re", "(?s).*\n" + own + "\n.*", "kbs",
                        List.copyOf(scope.knowledgeBases()), "limit", limit))
                .list(Neo4jGraphStore::hit));
    }

    private static EntityHit hit(Record r) {
        Value e = r.get("e");
        List<String> aliases = List.of(e.get("aliases").asString("").strip().split("\n")).stream()
                .filter(a -> !a.isBlank()).toList();
        return new EntityHit(new Entity(e.get("id").asString(), e.get("name").asString(), e.get("type").asString(""),
                aliases), r.get("n").asLong());
    }

    @Override
    public List<GraphEdge> edges(Collection<String> entityIds, SearchScope scope, int limit) {
        if (entityIds.isEmpty() || limit <= 0) {
            return List.of();
        }
        return read(lookup, tx -> tx.run("MATCH (a:Entity)-[r:RELATES]->(b:Entity) WHERE (a.id IN $ids OR b.id IN $ids) "
                + "AND (size($kbs) = 0 OR EXISTS { MATCH (c:Chunk {id: r.chunk}) WHERE c.kb IN $kbs }) "
                + "AND (size($docs) = 0 OR r.doc IN $docs) "
                + "RETURN a.id AS s, r.predicate AS p, b.id AS o, r.chunk AS c, r.doc AS d, r.version AS v "
                + "ORDER BY d, c, s, o LIMIT $limit", Map.of("ids", List.copyOf(entityIds), "kbs",
                List.copyOf(scope.knowledgeBases()), "docs", List.copyOf(scope.documentIds()), "limit", limit))
                .list(r -> new GraphEdge(r.get("s").asString(), r.get("p").asString(), r.get("o").asString(),
                        r.get("c").asString(), r.get("d").asString(), r.get("v").asLong())));
    }

    @Override
    public List<Mention> mentions(Collection<String> entityIds, SearchScope scope, int limit) {
        if (entityIds.isEmpty() || limit <= 0) {
            return List.of();
        }
        return read(lookup, tx -> tx.run("MATCH (c:Chunk)-[:MENTIONS]->(e:Entity) WHERE e.id IN $ids "
                + "AND (size($kbs) = 0 OR c.kb IN $kbs) AND (size($docs) = 0 OR c.doc IN $docs) "
                + "RETURN e.id AS e, c.id AS c, c.doc AS d, c.version AS v ORDER BY d, c LIMIT $limit", Map.of("ids",
                List.copyOf(entityIds), "kbs", List.copyOf(scope.knowledgeBases()), "docs",
                List.copyOf(scope.documentIds()), "limit", limit))
                .list(r -> new Mention(r.get("e").asString(), r.get("c").asString(), r.get("d").asString(),
                        r.get("v").asLong())));
    }

    @Override
    public List<Map<String, String>> readCypher(String cypher, int limit) {
        // A model's query may be a cartesian product or an unbounded path: the server stops it at this timeout
        // (its own default is none).
        return read(TransactionConfig.builder().withTimeout(Duration.ofSeconds(10)).build(), tx -> {
            List<Map<String, String>> rows = new ArrayList<>();
            var result = tx.run(cypher);
            while (result.hasNext() && rows.size() < limit) {
                Record r = result.next();
                Map<String, String> row = new LinkedHashMap<>();
                for (String key : r.keys()) {
                    Value v = r.get(key);
                    row.put(key, v.isNull() ? "" : v.hasType(TypeSystem.getDefault().STRING())
                            ? v.asString() : v.toString());
                }
                rows.add(row);
            }
            result.consume();
            return rows;
        });
    }

    @Override
    public String schema() {
        return "Node (:Entity {id: STRING (normalised name), name: STRING, type: STRING})\n"
                + "Node (:Chunk {id: STRING, doc: STRING, version: INTEGER, kb: STRING})\n"
                + "Relationship (:Chunk)-[:MENTIONS]->(:Entity)\n"
                + "Relationship (:Entity)-[:RELATES {predicate: STRING, chunk: STRING, doc: STRING}]->(:Entity)";
    }

    @Override
    public Map<String, Long> counts() {
        return read(tx -> {
            Map<String, Long> out = new TreeMap<>();
            out.put("entities", tx.run("MATCH (e:Entity) RETURN count(e) AS n").single().get("n").asLong());
            out.put("relations", tx.run("MATCH ()-[r:RELATES]->() RETURN count(r) AS n").single().get("n").asLong());
            out.put("mentions", tx.run("MATCH ()-[m:MENTIONS]->() RETURN count(m) AS n").single().get("n").asLong());
            out.put("chunks", tx.run("MATCH (c:Chunk) RETURN count(c) AS n").single().get("n").asLong());
            return out;
        });
    }

    @Override
    public long size() {
        return read(tx -> tx.run("MATCH (c:Chunk) RETURN count(c) AS n").single().get("n").asLong());
    }

    @Override
    public void ping() {
        read(tx -> tx.run("RETURN 1 AS n").single().get("n").asLong());
    }

    @Override
    public Map<DocumentVersion, Long> versions() {
        return read(tx -> {
            Map<DocumentVersion, Long> out = new HashMap<>();
            tx.run("MATCH (c:Chunk) RETURN c.doc AS doc, c.version AS version, count(c) AS n").forEachRemaining(r ->
                    out.put(new DocumentVersion(r.get("doc").asString(), r.get("version").asLong()),
                            r.get("n").asLong()));
            return out;
        });
    }

    /** One version's chunks by key: the default walked every version of every tenant to answer for one. */
    @Override
    public long records(DocumentVersion v) {
        return read(tx -> tx.run("MATCH (c:Chunk) WHERE c.doc = $d AND c.version = $v RETURN count(c) AS n",
                Map.of("d", v.documentId(), "v", v.version())).single().get("n").asLong());
    }

    @Override
    public void close() {
        driver.close();
    }

    private <T> T write(Function<TransactionContext, T> work) {
        try (Session s = session()) {
            return s.executeWrite(work::apply);
        } catch (RuntimeException e) {
            throw translate("write to", e);
        }
    }

    private <T> T read(Function<TransactionContext, T> work) {
        return read(TransactionConfig.empty(), work);
    }

    private <T> T read(TransactionConfig config, Function<TransactionContext, T> work) {
        try (Session s = session()) {
            return s.executeRead(work::apply, config);
        } catch (RuntimeException e) {
            throw translate("read from", e);
        }
    }

    private RuntimeException translate(String what, RuntimeException e) {
        if (e instanceof ServiceUnavailableException) {
            return new UnavailableException("cannot " + what + " Neo4j at " + uri + ": " + e.getMessage(), e);
        }
        if (e instanceof AuthenticationException) {
            return new StoreException("Neo4j at " + uri + " refused the credentials: check POLYRAG_GRAPH_NEO4J_USER "
                    + "and POLYRAG_GRAPH_NEO4J_PASSWORD", e);
        }
        return new StoreException("cannot " + what + " Neo4j at " + uri + ": " + e.getMessage(), e);
    }

    /** Properties as {@code k=v&k2=v2}, URL-encoded, the same as the embedded graph writes them. */
    static String encode(Map<String, String> properties) {
        StringBuilder b = new StringBuilder();
        new TreeMap<>(properties).forEach((k, v) -> b.append(b.isEmpty() ? "" : "&")
                .append(URLEncoder.encode(k, StandardCharsets.UTF_8)).append('=')
                .append(URLEncoder.encode(v, StandardCharsets.UTF_8)));
        return b.toString();
    }
}
