package io.polyrag.store.catalog;

import io.polyrag.core.port.ResponseCache;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Optional;

/** Language-model responses by the hash of their request (the response_cache table). */
final class JdbcResponseCache implements ResponseCache {
    private final Jdbc jdbc;
    private final Jdbc search;

    /** @param search the pool reads go through (the search pool on PostgreSQL; the one pool on H2) */
    JdbcResponseCache(Jdbc jdbc, Jdbc search) {
        this.jdbc = jdbc;
        this.search = search;
    }

    @Override
    public Optional<String> response(String key) {
        return search.tx("read a cached response", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT response FROM response_cache WHERE cache_key = ?")) {
                ps.setString(1, key);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(rs.getString(1)) : Optional.<String>empty();
                }
            }
        });
    }

    @Override
    public void rememberResponse(String key, String response) {
        jdbc.tx("cache a response", c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO response_cache (cache_key, response, "
                    + "created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")) {
                ps.setString(1, JdbcCatalog.clip(key, 64));
                ps.setString(2, response);
                ps.setObject(3, jdbc.now());
                ps.executeUpdate();
            }
            return null;
        });
    }
}
