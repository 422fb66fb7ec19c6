package io.polyrag.store.postgres;

import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.StoreHit;
import io.polyrag.core.model.StoreRecord;
import io.polyrag.core.port.FullTextStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * {@code POLYRAG_FULLTEXT_BACKEND=postgres}: chunks as English {@code tsvector}s under a GIN index, ranked by BM25
 * (Lucene's formula, the same k1 and b) rather than {@code ts_rank}, which has no inverse document frequency and so
 * cannot tell a rare query word from a common one. The statistics BM25 needs — how many chunks hold each lexeme, how
 * many chunks and tokens there are — live in two tables that every write keeps in step in its own transaction;
 * writes are serialised by an advisory lock (ingest is bound by embedding, not by this), searches never wait.
 *
 * <p>A query matches chunks holding any of its lexemes (an OR, as BM25 in Lucene), not all of them, which is what
 * {@code websearch_to_tsquery} would ask: natural-language questions rarely share every word with their answer.
 */
final class PgFullTextStore implements FullTextStore {
    /** The advisory lock writers take: statistics are read-modify-write. */
    private static final long WRITE_LOCK = 0x706f6c7972616701L;
    private static final String TABLE = "polyrag_fulltext";
    private final PgDatabase db;
    private final double k1;
    private final double b;

    PgFullTextStore(PgDatabase db, double k1, double b) {
        this.db = db;
        this.k1 = k1;
        this.b = b;
    }

    @Override
    public void upsert(List<StoreRecord> records) {
        if (records.isEmpty()) {
            return;
        }
        String[] ids = records.stream().map(StoreRecord::chunkId).distinct().toArray(String[]::new);
        db.tx("index chunks", c -> {
            lock(c);
            removeWhere(c, "chunk_id = ANY(?)", ps -> ps.setArray(1, c.createArrayOf("varchar", ids)));
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + TABLE + " (chunk_id, document_id, version, "
                    + "kb, tsv, len) SELECT ?, ?, ?, ?, v.tsv, (SELECT COALESCE(SUM(array_length(u.positions, 1)), 0) "
                    + "FROM unnest(v.tsv) u) FROM (SELECT to_tsvector('english', ?) AS tsv) v "
                    + "ON CONFLICT (chunk_id) DO NOTHING")) {
                for (StoreRecord r : records) {
                    ps.setString(1, r.chunkId());
                    ps.setString(2, r.documentId());
                    ps.setLong(3, r.version());
                    ps.setString(4, r.knowledgeBase());
                    ps.setString(5, r.text().replace('\u0000', ' '));
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            addStatistics(c, ids);
            return null;
        });
    }

    @Override
    public List<StoreHit> search(String query, SearchScope scope, int limit) {
        if (limit <= 0 || query == null || query.isBlank()) {
            return List.of();
        }
        StringBuilder sql = new StringBuilder("""
                WITH q AS (SELECT DISTINCT l AS lexeme FROM unnest(tsvector_to_array(to_tsvector('english', ?))) l),
                tq AS (SELECT to_tsquery('simple', string_agg(quote_literal(lexeme), ' | ')) AS query FROM q),
                n AS (SELECT GREATEST(chunks, 1) AS chunks,
                             CASE WHEN chunks > 0 THEN tokens::float8 / chunks ELSE 1 END AS avg_len
                      FROM polyrag_fulltext_stats WHERE id = 1),
                idf AS (SELECT q.lexeme, ln(1 + (n.chunks - COALESCE(t.df, 0) + 0.5) / (COALESCE(t.df, 0) + 0.5)) AS w
                        FROM q CROSS JOIN n LEFT JOIN polyrag_fulltext_terms t ON t.lexeme = q.lexeme)
                SELECT f.chunk_id, f.document_id, f.version,
                       SUM(idf.w * array_length(u.positions, 1)
                           / (array_length(u.positions, 1) + ? * (1 - ? + ? * f.len / n.avg_len))) AS score
                FROM polyrag_fulltext f CROSS JOIN tq CROSS JOIN n
                     CROSS JOIN LATERAL unnest(f.tsv) u JOIN idf ON idf.lexeme = u.lexeme
                WHERE f.tsv @@ tq.query""").append(PgRows.scopeClause(scope, "f."));
        sql.append(" GROUP BY f.chunk_id, f.document_id, f.version ORDER BY score DESC, f.chunk_id LIMIT ?");
        return db.tx("search chunks", c -> {
            List<StoreHit> hits = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
                int i = 1;
                ps.setString(i++, query.replace('\u0000', ' '));
                ps.setDouble(i++, k1);
                ps.setDouble(i++, b);
                ps.setDouble(i++, b);
                ps.setInt(PgRows.bindScope(c, ps, i, scope), limit);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        hits.add(new StoreHit(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getDouble(4)));
                    }
                }
            }
            return hits;
        });
    }

    @Override
    public void delete(Collection<DocumentVersion> versions) {
        if (versions.isEmpty()) {
            return;
        }
        db.tx("delete document versions", c -> {
            lock(c);
            for (DocumentVersion v : versions) {
                removeWhere(c, "document_id = ? AND version = ?", ps -> {
                    ps.setString(1, v.documentId());
                    ps.setLong(2, v.version());
                });
            }
            return null;
        });
    }

    @Override
    public void deleteDocuments(Collection<String> documentIds) {
        if (documentIds.isEmpty()) {
            return;
        }
        db.tx("delete documents", c -> {
            lock(c);
            removeWhere(c, "document_id = ANY(?)", ps -> ps.setArray(1, c.createArrayOf("varchar",
                    documentIds.toArray())));
            return null;
        });
    }

    @Override
    public long size() {
        return PgRows.count(db, TABLE);
    }

    @Override
    public Map<DocumentVersion, Long> versions() {
        return PgRows.versions(db, TABLE);
    }

    @Override
    public long records(DocumentVersion version) {
        return PgRows.records(db, TABLE, version);
    }

    @Override
    public void close() {
        db.close();
    }

    @FunctionalInterface
    private interface Binder {
        void bind(PreparedStatement ps) throws SQLException;
    }

    private static void lock(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_advisory_xact_lock(?)")) {
            ps.setLong(1, WRITE_LOCK);
            ps.execute();
        }
    }

    /** Deletes the rows the condition selects, taking their lexemes and tokens out of the statistics first. */
    private static void removeWhere(Connection c, String condition, Binder binder) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE polyrag_fulltext_terms t SET df = t.df - d.n FROM "
                + "(SELECT l AS lexeme, COUNT(*) AS n FROM " + TABLE + " f, unnest(tsvector_to_array(f.tsv)) l WHERE "
                + condition + " GROUP BY l) d WHERE t.lexeme = d.lexeme")) {
            binder.bind(ps);
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("UPDATE polyrag_fulltext_stats s SET chunks = s.chunks - x.n, "
                + "tokens = s.tokens - x.t FROM (SELECT COUNT(*) AS n, COALESCE(SUM(len), 0) AS t FROM " + TABLE
                + " WHERE " + condition + ") x WHERE s.id = 1")) {
            binder.bind(ps);
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + TABLE + " WHERE " + condition)) {
            binder.bind(ps);
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM polyrag_fulltext_terms WHERE df <= 0")) {
            ps.executeUpdate();
        }
    }

    private static void addStatistics(Connection c, String[] chunkIds) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO polyrag_fulltext_terms (lexeme, df) SELECT l, "
                + "COUNT(*) FROM " + TABLE + " f, unnest(tsvector_to_array(f.tsv)) l WHERE f.chunk_id = ANY(?) "
                + "GROUP BY l ORDER BY l ON CONFLICT (lexeme) DO UPDATE SET df = polyrag_fulltext_terms.df + "
                + "EXCLUDED.df")) {
            ps.setArray(1, c.createArrayOf("varchar", chunkIds));
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("UPDATE polyrag_fulltext_stats s SET chunks = s.chunks + x.n, "
                + "tokens = s.tokens + x.t FROM (SELECT COUNT(*) AS n, COALESCE(SUM(len), 0) AS t FROM " + TABLE
                + " WHERE chunk_id = ANY(?)) x WHERE s.id = 1")) {
            ps.setArray(1, c.createArrayOf("varchar", chunkIds));
            ps.executeUpdate();
        }
    }
}
