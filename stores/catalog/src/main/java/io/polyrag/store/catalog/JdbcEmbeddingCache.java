package io.polyrag.store.catalog;

import io.polyrag.core.port.EmbeddingCache;
import io.polyrag.core.model.Ids;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/** Cached passage vectors: one row per (model, text hash), the vector as little-endian float32 bytes. */
final class JdbcEmbeddingCache implements EmbeddingCache {
    private final Jdbc jdbc;

    JdbcEmbeddingCache(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public Map<String, float[]> vectors(String model, Collection<String> textHashes) {
        if (textHashes.isEmpty()) {
            return Map.of();
        }
        return jdbc.tx("read cached embeddings", c -> {
            Map<String, float[]> out = new HashMap<>();
            // By text hash alone, the model checked here: with "model = ?" in the query, H2's planner (without
            // fresh statistics) walks the primary key by model, reading every cached vector of the model.
            String stored = key(model);
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT text_hash, model, vector FROM embedding_cache WHERE text_hash = ANY(?)")) {
                ps.setArray(1, c.createArrayOf("VARCHAR", textHashes.stream().distinct().toArray()));
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        if (stored.equals(rs.getString(2))) {
                            out.put(rs.getString(1), floats(rs.getBytes(3)));
                        }
                    }
                }
            }
            return out;
        });
    }

    @Override
    public void remember(String model, Map<String, float[]> vectorsByTextHash) {
        if (vectorsByTextHash.isEmpty()) {
            return;
        }
        Map<String, float[]> known = vectors(model, vectorsByTextHash.keySet());
        jdbc.tx("cache embeddings", c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO embedding_cache (model, text_hash, vector) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")) {
                for (Map.Entry<String, float[]> e : vectorsByTextHash.entrySet()) {
                    if (!known.containsKey(e.getKey())) {
                        ps.setString(1, key(model));
                        ps.setString(2, e.getKey());
                        ps.setBytes(3, bytes(e.getValue()));
                        ps.addBatch();
                    }
                }
                ps.executeBatch();
            }
            return null;
        });
    }

    @Override
    public void forget(String model, Collection<String> textHashes) {
        if (textHashes.isEmpty()) {
            return;
        }
        // Point deletes by the whole primary key, batched: with "= ANY(?)" H2 walked the key on the model alone, every
        // cached vector of it (as vectors() found), at each update or delete of a document.
        jdbc.tx("forget cached embeddings", c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "DELETE FROM embedding_cache WHERE model = ? AND text_hash = ?")) {
                for (String hash : textHashes.stream().distinct().toList()) {
                    ps.setString(1, key(model));
                    ps.setString(2, hash);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            return null;
        });
    }

    /**
     * The model column's value: the model id itself, or, when it is longer than the column (a model given by a long
     * path), its start and a hash of the whole, so two long ids that share their first characters never share rows.
     */
    static String key(String model) {
        if (model.length() <= 255) {
            return model;
        }
        return model.substring(0, 190) + "#" + Ids.sha256Hex(model.getBytes(
                StandardCharsets.UTF_8));
    }

    private static byte[] bytes(float[] v) {
        ByteBuffer b = ByteBuffer.allocate(v.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        b.asFloatBuffer().put(v);
        return b.array();
    }

    private static float[] floats(byte[] bytes) {
        float[] v = new float[bytes.length / 4];
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(v);
        return v;
    }
}
