package io.polyrag.store.postgres;

import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.SearchScope;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * What the PostgreSQL stores' tables share: the scope as SQL (knowledge bases and document ids, bound as arrays),
 * deletes by version or document, counts and version listings. Each table has {@code chunk_id}, {@code document_id},
 * {@code version} and {@code kb}.
 */
final class PgRows {
    private PgRows() {
    }

    /** The scope's conditions, each starting with {@code AND}; bind them with {@link #bindScope}. */
    static String scopeClause(SearchScope scope, String alias) {
        return (scope.knowledgeBases().isEmpty() ? "" : " AND " + alias + "kb = ANY(?)")
                + (scope.documentIds().isEmpty() ? "" : " AND " + alias + "document_id = ANY(?)");
    }

    /** Binds what {@link #scopeClause} asked for from {@code index} on; returns the next index. */
    static int bindScope(Connection c, PreparedStatement ps, int index, SearchScope scope) throws SQLException {
        if (!scope.knowledgeBases().isEmpty()) {
            ps.setArray(index++, c.createArrayOf("varchar", scope.knowledgeBases().stream().sorted().toArray()));
        }
        if (!scope.documentIds().isEmpty()) {
            ps.setArray(index++, c.createArrayOf("varchar", scope.documentIds().stream().sorted().toArray()));
        }
        return index;
    }

    static void deleteVersions(PgDatabase db, String table, Collection<DocumentVersion> versions) {
        if (versions.isEmpty()) {
            return;
        }
        db.tx("delete document versions", c -> {
            deleteVersions(c, table, versions);
            return null;
        });
    }

    static void deleteVersions(Connection c, String table, Collection<DocumentVersion> versions)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + table + " WHERE document_id = ? AND "
                + "version = ?")) {
            for (DocumentVersion v : versions) {
                ps.setString(1, v.documentId());
                ps.setLong(2, v.version());
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    static void deleteDocuments(PgDatabase db, String table, Collection<String> documentIds) {
        if (documentIds.isEmpty()) {
            return;
        }
        db.tx("delete documents", c -> {
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + table + " WHERE document_id = ANY(?)")) {
                Array ids = c.createArrayOf("varchar", documentIds.toArray());
                ps.setArray(1, ids);
                ps.executeUpdate();
            }
            return null;
        });
    }

    /**
     * Reads one row: the table answers. On the search pool: on the write pool a readiness check waited behind
     * writers queued on the full-text writer lock, and the store was reported unreachable.
     */
    static void ping(PgDatabase db, String table) {
        db.search("read the store", c -> {
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT 1 FROM " + table
                    + " LIMIT 1")) {
                return rs.next();
            }
        });
    }

    static long count(PgDatabase db, String table) {
        return db.tx("count records", c -> {
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
                rs.next();
                return rs.getLong(1);
            }
        });
    }

    static Map<DocumentVersion, Long> versions(PgDatabase db, String table) {
        return db.tx("list versions", c -> {
            Map<DocumentVersion, Long> out = new HashMap<>();
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT document_id, version, "
                    + "COUNT(*) FROM " + table + " GROUP BY document_id, version")) {
                while (rs.next()) {
                    out.put(new DocumentVersion(rs.getString(1), rs.getLong(2)), rs.getLong(3));
                }
            }
            return out;
        });
    }

    static long records(PgDatabase db, String table, DocumentVersion v) {
        return db.tx("count a version's records", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM " + table + " WHERE "
                    + "document_id = ? AND version = ?")) {
                ps.setString(1, v.documentId());
                ps.setLong(2, v.version());
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getLong(1);
                }
            }
        });
    }
}
