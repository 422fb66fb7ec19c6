package io.polyrag.store.catalog;

import io.polyrag.core.port.ContextCache;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/** Cached chunk contexts (contextual retrieval): one row per key. */
final class JdbcContextCache implements ContextCache {
    /** The longest context kept (the column's size); a longer one is cut. */
    static final int MAX = 4000;
    private final Jdbc jdbc;

    JdbcContextCache(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public Map<String, String> contexts(Collection<String> keys) {
        if (keys.isEmpty()) {
            return Map.of();
        }
        return jdbc.tx("read cached chunk contexts", c -> {
            Map<String, String> out = new HashMap<>();
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT cache_key, context FROM chunk_contexts WHERE cache_key = ANY(?)")) {
                ps.setArray(1, c.createArrayOf("VARCHAR", keys.stream().distinct().toArray()));
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.put(rs.getString(1), rs.getString(2));
                    }
                }
            }
            return out;
        });
    }

    void remember(Map<String, String> byKey) {
        if (byKey.isEmpty()) {
            return;
        }
        jdbc.tx("cache chunk contexts", c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO chunk_contexts (cache_key, context, "
                    + "created_at) VALUES (?, ?, CURRENT_TIMESTAMP) ON CONFLICT DO NOTHING")) {
                for (Map.Entry<String, String> e : byKey.entrySet()) {
                    ps.setString(1, e.getKey());
                    ps.setString(2, e.getValue().length() <= MAX ? e.getValue() : e.getValue().substring(0, MAX));
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            return null;
        });
    }

    @Override
    public void rememberContexts(Map<String, String> byKey) {
        remember(byKey);
    }
}
