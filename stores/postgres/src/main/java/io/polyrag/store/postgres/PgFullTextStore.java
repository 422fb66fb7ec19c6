package io.polyrag.store.postgres;

import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.StoreHit;
import io.polyrag.core.model.StoreRecord;
import io.polyrag.core.model.Lexical;
import io.polyrag.core.model.WholeText;
import io.polyrag.core.model.WholeTextCoverage;
import io.polyrag.core.port.FullTextStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
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
    /** Where a kind of entry lives: its rows, its lexemes' document frequencies, its counters in the stats row. */
    private record Tables(String rows, String terms, String count, String tokens) {
    }

    private static final Tables CHUNKS = new Tables(TABLE, "polyrag_fulltext_terms", "chunks", "tokens");
    private static final Tables WHOLES = new Tables("polyrag_fulltext_docs", "polyrag_fulltext_doc_terms", "docs",
            "doc_tokens");
    /**
     * The most characters of a whole text indexed: a tsvector holds at most 1 MB and positions up to 16,383, beyond
     * which term frequencies are no longer counted; the first 100,000 characters are about 16,000 words.
     */
    private static final int MAX_WHOLE_CHARS = 100_000;
    private final PgDatabase db;
    private final double k1;
    private final double b;
    private final WholeTextCoverage coverage = new WholeTextCoverage("the full-text tables in PostgreSQL ("
            + TABLE + ")");

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
            removeWhere(c, CHUNKS, "chunk_id = ANY(?)", ps -> ps.setArray(1, c.createArrayOf("varchar", ids)));
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + TABLE + " (chunk_id, document_id, version, "
                    + "kb, tsv, len) SELECT ?, ?, ?, ?, v.tsv, (SELECT COALESCE(SUM(array_length(u.positions, 1)), 0) "
                    + "FROM unnest(v.tsv) u) FROM (SELECT to_tsvector('english', ?) AS tsv) v "
                    + "ON CONFLICT (chunk_id) DO NOTHING")) {
                for (StoreRecord r : records) {
                    ps.setString(1, r.chunkId());
                    ps.setString(2, r.documentId());
                    ps.setLong(3, r.version());
                    ps.setString(4, r.knowledgeBase());
                    ps.setString(5, searchable(r.text()));
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            addStatistics(c, CHUNKS, "f.chunk_id = ANY(?)", ps -> ps.setArray(1, c.createArrayOf("varchar", ids)));
            for (WholeText w : WholeText.of(records)) {
                writeWhole(c, w);
            }
            return null;
        });
    }

    /**
     * Text as PostgreSQL's parser should see it: no NUL, a space around each Han and Hiragana character, and around
     * each run of Katakana. Its parser takes a run of them for one word ("我住在北京" one lexeme), so no word inside
     * could be found; cut as Lucene's and OpenSearch's standard tokenizer cuts them (UAX #29: an ideograph or a
     * Hiragana character a token, a Katakana run with its prolonged sound marks one word), they are, and the same
     * query finds the same chunks on every backend ("タワー" no longer matches "データ" by its ー). (Text indexed before
     * this is found again after a re-index.)
     */
    static String searchable(String raw) {
        // Folded as every full-text store folds it, at index and query time alike (Lexical).
        String text = Lexical.fold(raw);
        StringBuilder out = null;
        boolean inKatakana = false;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            int n = Character.charCount(cp);
            boolean katakana = cp >= 0x3099 && katakana(cp);
            boolean single = !katakana && cp >= 0x2E80 && single(cp);
            if ((single || katakana || cp == 0) && out == null) {
                out = new StringBuilder(text.length() + 16).append(text, 0, i);
            }
            if (out != null) {
                if (inKatakana && !katakana) {
                    out.append(' ');
                }
                if (cp == 0) {
                    out.append(' ');
                } else if (single) {
                    out.append(' ').appendCodePoint(cp).append(' ');
                } else if (katakana && !inKatakana) {
                    out.append(' ').appendCodePoint(cp);
                } else {
                    out.appendCodePoint(cp);
                }
            }
            inKatakana = katakana;
            i += n;
        }
        if (inKatakana) {
            out.append(' ');
        }
        return out == null ? text : out.toString();
    }

    /** A character the standard tokenizer makes a token alone: an ideograph, a Hiragana character. */
    private static boolean single(int cp) {
        Character.UnicodeScript s = Character.UnicodeScript.of(cp);
        return s == Character.UnicodeScript.HAN || s == Character.UnicodeScript.HIRAGANA;
    }

    /** A character of a Katakana word: the script's, its prolonged sound and voicing marks, half-width forms. */
    private static boolean katakana(int cp) {
        return cp == 0x30FC || cp == 0xFF70 || cp >= 0x3099 && cp <= 0x309C
                || Character.UnicodeScript.of(cp) == Character.UnicodeScript.KATAKANA;
    }

    /** Replaces a version's whole text, its lexemes and tokens moved in the statistics with it. */
    private static void writeWhole(Connection c, WholeText w) throws SQLException {
        Binder version = ps -> {
            ps.setString(1, w.version().documentId());
            ps.setLong(2, w.version().version());
        };
        removeWhere(c, WHOLES, "document_id = ? AND version = ?", version);
        String text = searchable(w.text());
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + WHOLES.rows() + " (document_id, version, kb, "
                + "tsv, len) SELECT ?, ?, ?, v.tsv, (SELECT COALESCE(SUM(array_length(u.positions, 1)), 0) FROM "
                + "unnest(v.tsv) u) FROM (SELECT to_tsvector('english', ?) AS tsv) v")) {
            version.bind(ps);
            ps.setString(3, w.knowledgeBase());
            ps.setString(4, text.length() > MAX_WHOLE_CHARS ? text.substring(0, MAX_WHOLE_CHARS) : text);
            ps.executeUpdate();
        }
        addStatistics(c, WHOLES, "f.document_id = ? AND f.version = ?", version);
    }

    /**
     * BM25 of the query over {@code t}'s rows as a query whose rows are {@code columns} (of alias f) and the score,
     * grouped by them, within the scope and {@code where}. Its parameters: the query text, k1, b, b, the scope's,
     * then {@code where}'s.
     */
    private static String scored(Tables t, String columns, SearchScope scope, String where) {
        return """
                WITH q AS (SELECT DISTINCT l AS lexeme FROM unnest(tsvector_to_array(to_tsvector('english', ?))) l),
                tq AS (SELECT to_tsquery('simple', string_agg(quote_literal(lexeme), ' | ')) AS query FROM q),
                n AS (SELECT GREATEST(%2$s, 1) AS entries,
                             CASE WHEN %2$s > 0 THEN %3$s::float8 / %2$s ELSE 1 END AS avg_len
                      FROM polyrag_fulltext_stats WHERE id = 1),
                idf AS (SELECT q.lexeme, ln(1 + (n.entries - COALESCE(t.df, 0) + 0.5) / (COALESCE(t.df, 0) + 0.5)) AS w
                        FROM q CROSS JOIN n LEFT JOIN %4$s t ON t.lexeme = q.lexeme)
                SELECT %5$s,
                       SUM(idf.w * array_length(u.positions, 1)
                           / (array_length(u.positions, 1) + ? * (1 - ? + ? * f.len / n.avg_len))) AS score
                FROM %1$s f CROSS JOIN tq CROSS JOIN n
                     CROSS JOIN LATERAL unnest(f.tsv) u JOIN idf ON idf.lexeme = u.lexeme
                WHERE f.tsv @@ tq.query""".formatted(t.rows(), t.count(), t.tokens(), t.terms(), columns)
                + PgRows.scopeClause(scope, "f.") + where + " GROUP BY " + columns;
    }

    /** Binds {@link #scored}'s parameters up to the scope's; returns the next index. */
    private int bindScored(Connection c, PreparedStatement ps, String query, SearchScope scope) throws SQLException {
        int i = 1;
        ps.setString(i++, searchable(query));
        ps.setDouble(i++, k1);
        ps.setDouble(i++, b);
        ps.setDouble(i++, b);
        return PgRows.bindScope(c, ps, i, scope);
    }

    @Override
    public List<StoreHit> search(String query, SearchScope scope, int limit) {
        if (limit <= 0 || query == null || query.isBlank()) {
            return List.of();
        }
        String sql = scored(CHUNKS, "f.chunk_id, f.document_id, f.version", scope, "")
                + " ORDER BY score DESC, f.chunk_id LIMIT ?";
        return db.search("search chunks", c -> {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                ps.setInt(bindScored(c, ps, query, scope), limit);
                return hits(ps);
            }
        });
    }

    @Override
    public Map<DocumentVersion, Double> searchDocuments(String query, SearchScope scope, int limit) {
        if (limit <= 0 || query == null || query.isBlank() || !wholeComplete()) {
            return Map.of();
        }
        String sql = scored(WHOLES, "f.document_id, f.version", scope, "")
                + " ORDER BY score DESC, f.document_id, f.version LIMIT ?";
        return db.search("search documents", c -> {
            Map<DocumentVersion, Double> out = new LinkedHashMap<>();
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                ps.setInt(bindScored(c, ps, query, scope), limit);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.put(new DocumentVersion(rs.getString(1), rs.getLong(2)), rs.getDouble(3));
                    }
                }
            }
            return out;
        });
    }

    @Override
    public List<StoreHit> bestPassages(String query, SearchScope scope, Collection<DocumentVersion> versions) {
        if (query == null || query.isBlank() || versions.isEmpty()) {
            return List.of();
        }
        List<DocumentVersion> wanted = versions.stream().distinct().toList();
        String sql = "SELECT DISTINCT ON (document_id, version) chunk_id, document_id, version, score FROM ("
                + scored(CHUNKS, "f.chunk_id, f.document_id, f.version", scope, " AND (f.document_id, f.version) IN "
                        + "(SELECT * FROM unnest(?::varchar[], ?::bigint[]))")
                + ") s ORDER BY document_id, version, score DESC, chunk_id";
        return db.search("search best passages", c -> {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                int i = bindScored(c, ps, query, scope);
                ps.setArray(i++, c.createArrayOf("varchar", wanted.stream().map(DocumentVersion::documentId)
                        .toArray()));
                ps.setArray(i, c.createArrayOf("bigint", wanted.stream().map(DocumentVersion::version).toArray()));
                return hits(ps);
            }
        });
    }

    private static List<StoreHit> hits(PreparedStatement ps) throws SQLException {
        List<StoreHit> hits = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                hits.add(new StoreHit(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getDouble(4)));
            }
        }
        return hits;
    }

    /** Whether every document version has its whole text, counted again at most once a minute while not. */
    private boolean wholeComplete() {
        return coverage.complete(WholeTextCoverage.minute(), () -> db.search("count whole texts", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT (SELECT COUNT(*) FROM " + WHOLES.rows()
                    + ") >= (SELECT COUNT(*) FROM (SELECT DISTINCT document_id, version FROM " + TABLE + ") v)");
                    ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }));
    }

    @Override
    public void delete(Collection<DocumentVersion> versions) {
        if (versions.isEmpty()) {
            return;
        }
        db.tx("delete document versions", c -> {
            lock(c);
            for (DocumentVersion v : versions) {
                for (Tables t : List.of(CHUNKS, WHOLES)) {
                    removeWhere(c, t, "document_id = ? AND version = ?", ps -> {
                        ps.setString(1, v.documentId());
                        ps.setLong(2, v.version());
                    });
                }
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
            for (Tables t : List.of(CHUNKS, WHOLES)) {
                removeWhere(c, t, "document_id = ANY(?)", ps -> ps.setArray(1, c.createArrayOf("varchar",
                        documentIds.toArray())));
            }
            return null;
        });
    }

    @Override
    public long size() {
        return PgRows.count(db, TABLE);
    }

    @Override
    public void ping() {
        PgRows.ping(db, TABLE);
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
    private static void removeWhere(Connection c, Tables t, String condition, Binder binder) throws SQLException {
        List<String> touched = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("UPDATE " + t.terms() + " t SET df = t.df - d.n FROM "
                + "(SELECT l AS lexeme, COUNT(*) AS n FROM " + t.rows() + " f, unnest(tsvector_to_array(f.tsv)) l "
                + "WHERE " + condition + " GROUP BY l) d WHERE t.lexeme = d.lexeme RETURNING t.lexeme, t.df")) {
            binder.bind(ps);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (rs.getLong(2) <= 0) {
                        touched.add(rs.getString(1));
                    }
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement("UPDATE polyrag_fulltext_stats s SET " + t.count() + " = s."
                + t.count() + " - x.n, " + t.tokens() + " = s." + t.tokens() + " - x.t FROM (SELECT COUNT(*) AS n, "
                + "COALESCE(SUM(len), 0) AS t FROM " + t.rows() + " WHERE " + condition + ") x WHERE s.id = 1")) {
            binder.bind(ps);
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + t.rows() + " WHERE " + condition)) {
            binder.bind(ps);
            ps.executeUpdate();
        }
        // Only the lexemes this removal took to zero, by key: "WHERE df <= 0" scanned the whole vocabulary for every
        // version removed (a knowledge base of 20,000 documents deleted in 40,000 scans, under the global lock).
        if (!touched.isEmpty()) {
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + t.terms() + " WHERE lexeme = ANY(?) "
                    + "AND df <= 0")) {
                ps.setArray(1, c.createArrayOf("varchar", touched.toArray()));
                ps.executeUpdate();
            }
        }
    }

    private static void addStatistics(Connection c, Tables t, String condition, Binder binder) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + t.terms() + " (lexeme, df) SELECT l, "
                + "COUNT(*) FROM " + t.rows() + " f, unnest(tsvector_to_array(f.tsv)) l WHERE " + condition
                + " GROUP BY l ORDER BY l ON CONFLICT (lexeme) DO UPDATE SET df = " + t.terms() + ".df + "
                + "EXCLUDED.df")) {
            binder.bind(ps);
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("UPDATE polyrag_fulltext_stats s SET " + t.count() + " = s."
                + t.count() + " + x.n, " + t.tokens() + " = s." + t.tokens() + " + x.t FROM (SELECT COUNT(*) AS n, "
                + "COALESCE(SUM(len), 0) AS t FROM " + t.rows() + " f WHERE " + condition + ") x WHERE s.id = 1")) {
            binder.bind(ps);
            ps.executeUpdate();
        }
    }
}
