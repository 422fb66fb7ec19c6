package io.polyrag.store.catalog;

import io.polyrag.core.NotFoundException;
import io.polyrag.core.model.KnowledgeBase;
import io.polyrag.core.port.JudgmentStore;
import io.polyrag.core.port.JudgmentStore.Judgment;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Judged queries (one row per query and judged document) and each knowledge base's tuning and evaluation. */
final class JdbcJudgments implements JudgmentStore {
    private final Jdbc jdbc;

    JdbcJudgments(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    void put(String kb, List<Judgment> judgments) {
        jdbc.tx("keep judgments", c -> {
            if (!lockKnowledgeBase(c, kb)) {
                throw new NotFoundException("knowledge base '" + KnowledgeBase.ofStored(kb).name() + "' was deleted");
            }
            try (PreparedStatement del = c.prepareStatement("DELETE FROM judgments WHERE kb = ? AND query_id = ?");
                    PreparedStatement ins = c.prepareStatement("INSERT INTO judgments (kb, query_id, query, "
                            + "document_id, grade) VALUES (?, ?, ?, ?, ?)")) {
                for (Judgment j : judgments) {
                    del.setString(1, kb);
                    del.setString(2, j.queryId());
                    del.addBatch();
                    for (Map.Entry<String, Integer> e : j.relevant().entrySet()) {
                        ins.setString(1, kb);
                        ins.setString(2, j.queryId());
                        ins.setString(3, j.query());
                        ins.setString(4, e.getKey());
                        ins.setInt(5, e.getValue());
                        ins.addBatch();
                    }
                }
                del.executeBatch();
                ins.executeBatch();
            }
            return null;
        });
    }

    List<Judgment> list(String kb) {
        return jdbc.tx("read judgments", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT query_id, query, document_id, grade FROM judgments "
                    + "WHERE kb = ? ORDER BY query_id, document_id")) {
                ps.setString(1, kb);
                Map<String, String> text = new LinkedHashMap<>();
                Map<String, Map<String, Integer>> grades = new LinkedHashMap<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        String q = rs.getString(1);
                        text.putIfAbsent(q, rs.getString(2));
                        grades.computeIfAbsent(q, k -> new LinkedHashMap<>()).put(rs.getString(3), rs.getInt(4));
                    }
                }
                List<Judgment> out = new ArrayList<>();
                text.forEach((q, t) -> out.add(new Judgment(q, t, grades.get(q))));
                return out;
            }
        });
    }

    int delete(String kb, String queryId) {
        return jdbc.tx("delete judgments", c -> {
            int queries = count(c, kb, queryId);
            if (queryId == null) {
                JdbcCatalog.update(c, "DELETE FROM judgments WHERE kb = ?", kb);
            } else {
                JdbcCatalog.update(c, "DELETE FROM judgments WHERE kb = ? AND query_id = ?", kb, queryId);
            }
            return queries;
        });
    }

    private static int count(Connection c, String kb, String queryId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(DISTINCT query_id) FROM judgments WHERE kb = ?"
                + (queryId == null ? "" : " AND query_id = ?"))) {
            ps.setString(1, kb);
            if (queryId != null) {
                ps.setString(2, queryId);
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    Optional<String> column(String kb, String column) {
        return jdbc.tx("read a knowledge base's " + column, c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + column + " FROM kb_fusion WHERE kb = ?")) {
                ps.setString(1, kb);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.ofNullable(rs.getString(1)) : Optional.<String>empty();
                }
            }
        });
    }

    /** Sets one column ({@code tuning} or {@code evaluation}) of the knowledge base's row, creating it. */
    void putColumn(String kb, String column, String json) {
        jdbc.tx("keep a knowledge base's " + column, c -> {
            if (!lockKnowledgeBase(c, kb)) {
                return null; // deleted while it was measured: nothing to keep, nor to bring back with its name
            }
            if (JdbcCatalog.update(c, "UPDATE kb_fusion SET " + column + " = ?, updated_at = ? WHERE kb = ?", json,
                    jdbc.now(), kb) == 0) {
                JdbcCatalog.update(c, "INSERT INTO kb_fusion (kb, " + column + ", updated_at) VALUES (?, ?, ?)", kb,
                        json, jdbc.now());
            }
            return null;
        });
    }

    /**
     * Locks the knowledge base's row; false when there is none. Writes of judgments, a tuning or an evaluation take it
     * before writing and the drop before deleting, so a write that finishes after a delete (an evaluation of 15 s, a
     * tuning job) cannot leave rows that a knowledge base made again under the same name would show as its own.
     */
    private static boolean lockKnowledgeBase(Connection c, String kb) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT name FROM knowledge_bases WHERE name = ? FOR UPDATE")) {
            ps.setString(1, kb);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /** Everything kept for a knowledge base, in the transaction that drops it. */
    static void drop(Connection c, String kb) throws SQLException {
        lockKnowledgeBase(c, kb);
        JdbcCatalog.update(c, "DELETE FROM judgments WHERE kb = ?", kb);
        JdbcCatalog.update(c, "DELETE FROM kb_fusion WHERE kb = ?", kb);
    }

    @Override
    public void putJudgments(String knowledgeBase, List<JudgmentStore.Judgment> list) {
        put(knowledgeBase, list);
    }

    @Override
    public List<JudgmentStore.Judgment> judgments(String knowledgeBase) {
        return list(knowledgeBase);
    }

    @Override
    public int deleteJudgments(String knowledgeBase, String queryId) {
        return delete(knowledgeBase, queryId);
    }

    @Override
    public Optional<String> tuning(String knowledgeBase) {
        return column(knowledgeBase, "tuning");
    }

    @Override
    public void putTuning(String knowledgeBase, String json) {
        putColumn(knowledgeBase, "tuning", json);
    }

    @Override
    public Optional<String> evaluation(String knowledgeBase) {
        return column(knowledgeBase, "evaluation");
    }

    @Override
    public void putEvaluation(String knowledgeBase, String json) {
        putColumn(knowledgeBase, "evaluation", json);
    }
}
