package io.polyrag.store.postgres;

import io.polyrag.core.ConfigException;
import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.StoreHit;
import io.polyrag.core.model.StoreRecord;
import io.polyrag.core.port.VectorStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code POLYRAG_VECTOR_BACKEND=pgvector}: chunk embeddings in a pgvector column with an HNSW index (cosine
 * distance). The scope (knowledge bases, and document ids when given) is a SQL condition of the nearest-neighbour
 * query itself, and pgvector 0.8's iterative index scan keeps walking the graph until enough rows pass it, so a
 * filtered search returns {@code limit} hits whenever that many exist in scope. Below {@code exactThreshold} rows
 * (the planner's estimate) the index is not used and the scan is exact, as the Lucene store does.
 */
final class PgVectorStore implements VectorStore {
    private final PgDatabase db;
    private final int dimension;
    private final int exactThreshold;
    private final String table;
    private final String modelTable;
    /** Whole document versions' vectors ({@link #upsert(List, Map)}), beside the chunks'. */
    private final String wholeTable;
    /**
     * Whether the whole-vector table held none when last looked at ({@link #wholesCheckedAt}, {@link System#nanoTime};
     * 0 never): while it is empty a search skips the lookup (most collections have none), looking again after
     * {@link #WHOLES_RECHECK_NANOS}, when another replica may have written some; a write of this store's clears it.
     */
    private volatile boolean wholesEmpty;
    private volatile long wholesCheckedAt;
    /** Writes of whole vectors through this store, counted once committed: a look begun before one is stale. */
    private final AtomicLong wholeWrites = new AtomicLong();
    private static final long WHOLES_RECHECK_NANOS = 30_000_000_000L;

    /**
     * @param table the vectors' table: {@code polyrag_vectors} for the first model the database saw,
     *     {@code polyrag_vectors_m<hash>} for each other one
     */
    PgVectorStore(PgDatabase db, int dimension, String modelId, int exactThreshold, String table) {
        this.db = db;
        this.table = table;
        this.modelTable = table.replace("polyrag_vectors", "polyrag_vector_model");
        this.wholeTable = table + "_whole";
        this.dimension = dimension;
        this.exactThreshold = exactThreshold;
        db.tx("check the embedding model", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT model, dimension FROM " + modelTable)) {
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        if (rs.getInt(2) != dimension || !rs.getString(1).equals(modelId)) {
                            throw new ConfigException("the pgvector store holds vectors of " + rs.getString(1) + " ("
                                    + rs.getInt(2) + " dimensions), not of " + modelId + " (" + dimension + "): set "
                                    + "POLYRAG_EMBEDDING_MODEL back, or give this model its own database");
                        }
                        return null;
                    }
                }
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + modelTable + " (id, model, dimension) "
                    + "VALUES (1, ?, ?) ON CONFLICT (id) DO NOTHING")) {
                ps.setString(1, modelId);
                ps.setInt(2, dimension);
                ps.executeUpdate();
            }
            return null;
        });
    }

    @Override
    public int dimension() {
        return dimension;
    }

    @Override
    public void upsert(List<StoreRecord> records) {
        upsert(records, Map.of());
    }

    @Override
    public void upsert(List<StoreRecord> records, Map<DocumentVersion, float[]> wholes) {
        if (records.isEmpty()) {
            return;
        }
        for (StoreRecord r : records) {
            if (r.vector() == null || r.vector().length != dimension) {
                throw new IllegalArgumentException("record " + r.chunkId() + " has " + (r.vector() == null ? "no vector"
                        : r.vector().length + " floats") + "; this store holds " + dimension);
            }
        }
        Map<DocumentVersion, String> kbs = new HashMap<>();
        records.forEach(r -> kbs.putIfAbsent(r.documentVersion(), r.knowledgeBase()));
        for (Map.Entry<DocumentVersion, float[]> w : wholes.entrySet()) {
            if (w.getValue() == null || w.getValue().length != dimension) {
                throw new IllegalArgumentException("the whole vector of " + w.getKey() + " has " + (w.getValue() == null
                        ? "none" : w.getValue().length + " floats") + "; this store holds " + dimension);
            }
        }
        db.tx("write vectors", c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (chunk_id, document_id, "
                    + "version, kb, embedding) VALUES (?, ?, ?, ?, ?::vector) ON CONFLICT (chunk_id) DO UPDATE SET "
                    + "document_id = EXCLUDED.document_id, version = EXCLUDED.version, kb = EXCLUDED.kb, "
                    + "embedding = EXCLUDED.embedding")) {
                for (StoreRecord r : records) {
                    ps.setString(1, r.chunkId());
                    ps.setString(2, r.documentId());
                    ps.setLong(3, r.version());
                    ps.setString(4, r.knowledgeBase());
                    ps.setString(5, literal(r.vector()));
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            if (!wholes.isEmpty()) {
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + wholeTable + " (document_id, version, "
                        + "kb, embedding) VALUES (?, ?, ?, ?::vector) ON CONFLICT (document_id, version) DO UPDATE SET "
                        + "kb = EXCLUDED.kb, embedding = EXCLUDED.embedding")) {
                    for (Map.Entry<DocumentVersion, float[]> w : wholes.entrySet()) {
                        String kb = kbs.get(w.getKey());
                        if (kb == null) {
                            continue;
                        }
                        ps.setString(1, w.getKey().documentId());
                        ps.setLong(2, w.getKey().version());
                        ps.setString(3, kb);
                        ps.setString(4, literal(w.getValue()));
                        ps.addBatch();
                    }
                    ps.executeBatch();
                }
            }
            return null;
        });
        if (!wholes.isEmpty()) {
            wholeWrites.incrementAndGet();
            wholesEmpty = false;
        }
    }

    @Override
    public Map<DocumentVersion, Double> wholeCosines(float[] vector, Collection<DocumentVersion> versions) {
        if (versions.isEmpty() || vector.length != dimension) {
            return Map.of();
        }
        long now = System.nanoTime();
        long writes = wholeWrites.get();
        boolean recheck = wholesCheckedAt == 0 || now - wholesCheckedAt >= WHOLES_RECHECK_NANOS;
        if (wholesEmpty && !recheck) {
            return Map.of();
        }
        Set<DocumentVersion> wanted = new HashSet<>(versions);
        return db.search("read whole vectors", c -> {
            if (recheck) {
                try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT EXISTS (SELECT 1 FROM "
                        + wholeTable + ")")) {
                    boolean empty = rs.next() && !rs.getBoolean(1);
                    // A write committed since this look began makes it stale: only then-unwritten emptiness counts.
                    wholesEmpty = empty && wholeWrites.get() == writes;
                    wholesCheckedAt = now == 0 ? 1 : now;
                    if (empty) {
                        return Map.of();
                    }
                }
            }
            Map<DocumentVersion, Double> out = new HashMap<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT document_id, version, 1 - (embedding <=> ?::vector) "
                    + "FROM " + wholeTable + " WHERE document_id = ANY(?)")) {
                ps.setString(1, literal(vector));
                ps.setArray(2, c.createArrayOf("varchar", wanted.stream().map(DocumentVersion::documentId).distinct()
                        .toArray()));
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        DocumentVersion v = new DocumentVersion(rs.getString(1), rs.getLong(2));
                        if (wanted.contains(v)) {
                            out.put(v, rs.getDouble(3));
                        }
                    }
                }
            }
            return out;
        });
    }

    @Override
    public List<StoreHit> search(float[] vector, SearchScope scope, int limit) {
        if (vector.length != dimension) {
            throw new IllegalArgumentException("query vector has " + vector.length + " floats; this store holds "
                    + dimension);
        }
        if (limit <= 0) {
            return List.of();
        }
        String q = literal(vector);
        return db.search("search vectors", c -> {
            boolean exact = estimatedRows(c) < exactThreshold;
            try (Statement s = c.createStatement()) {
                s.execute("SET LOCAL hnsw.ef_search = " + Math.min(1000, Math.max(40, 2 * limit)));
                s.execute("SET LOCAL hnsw.iterative_scan = relaxed_order");
                if (exact) {
                    s.execute("SET LOCAL enable_indexscan = off");
                }
            }
            List<StoreHit> hits = nearest(c, q, scope, limit, exact);
            // The iterative scan stops at hnsw.max_scan_tuples (20,000): a knowledge base that is a sliver of a large
            // table got a short list, or none. Scanned exactly then (the scope's own rows, by its index).
            if (!exact && hits.size() < limit && !scope.equals(SearchScope.ALL)) {
                try (Statement s = c.createStatement()) {
                    s.execute("SET LOCAL enable_indexscan = off");
                }
                hits = nearest(c, q, scope, limit, true);
            }
            // The iterative scan's relaxed order may be slightly off: the contract is best first, ties by chunk id.
            hits.sort(Comparator.comparingDouble(StoreHit::score).reversed().thenComparing(StoreHit::chunkId));
            return hits;
        });
    }

    private List<StoreHit> nearest(Connection c, String q, SearchScope scope, int limit, boolean exact)
            throws SQLException {
        StringBuilder sql = new StringBuilder("SELECT chunk_id, document_id, version, embedding <=> ?::vector AS d "
                + "FROM " + table + " WHERE TRUE" + PgRows.scopeClause(scope, ""));
        // The HNSW index can serve ORDER BY distance alone: a second key would make every search a full scan.
        sql.append(exact ? " ORDER BY d, chunk_id LIMIT ?" : " ORDER BY d LIMIT ?");
        List<StoreHit> hits = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
            ps.setString(1, q);
            ps.setInt(PgRows.bindScope(c, ps, 2, scope), limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    hits.add(new StoreHit(rs.getString(1), rs.getString(2), rs.getLong(3), 1 - rs.getDouble(4)));
                }
            }
        }
        return hits;
    }

    private long estimatedRows(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT reltuples::bigint FROM pg_class WHERE oid = "
                        + "'" + table + "'::regclass")) {
            return rs.next() ? Math.max(0, rs.getLong(1)) : 0;
        }
    }

    @Override
    public void delete(Collection<DocumentVersion> versions) {
        if (versions.isEmpty()) {
            return;
        }
        db.tx("delete document versions", c -> {
            PgRows.deleteVersions(c, table, versions);
            PgRows.deleteVersions(c, wholeTable, versions);
            return null;
        });
    }

    @Override
    public void deleteDocuments(Collection<String> documentIds) {
        if (documentIds.isEmpty()) {
            return;
        }
        db.tx("delete documents", c -> {
            for (String t : List.of(table, wholeTable)) {
                try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + t + " WHERE document_id = ANY(?)")) {
                    ps.setArray(1, c.createArrayOf("varchar", documentIds.toArray()));
                    ps.executeUpdate();
                }
            }
            return null;
        });
    }

    @Override
    public long size() {
        return PgRows.count(db, table);
    }

    @Override
    public void ping() {
        PgRows.ping(db, table);
    }

    @Override
    public Map<DocumentVersion, Long> versions() {
        return PgRows.versions(db, table);
    }

    @Override
    public long records(DocumentVersion version) {
        return PgRows.records(db, table, version);
    }

    @Override
    public void close() {
        db.close();
    }

    /** pgvector's text form, {@code [0.1,0.2,…]}: what the driver sends and the server casts. */
    static String literal(float[] v) {
        StringBuilder b = new StringBuilder(v.length * 10).append('[');
        for (int i = 0; i < v.length; i++) {
            if (i > 0) {
                b.append(',');
            }
            if (!Float.isFinite(v[i])) {
                throw new IllegalArgumentException("a vector component is " + v[i] + ": embeddings must be finite");
            }
            b.append(v[i]);
        }
        return b.append(']').toString();
    }
}
