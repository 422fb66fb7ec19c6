package io.polyrag.store.catalog;

import io.polyrag.core.port.SourceStore;
import io.polyrag.core.model.Source;
import io.polyrag.core.model.SyncItem;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Source rows and their item state. */
final class JdbcSources implements SourceStore {
    private final Jdbc jdbc;

    JdbcSources(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    boolean create(Source s) {
        return jdbc.tx("register a source", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM sources WHERE tenant = ? AND id = ?")) {
                ps.setString(1, s.tenant());
                ps.setString(2, s.id());
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        return false;
                    }
                }
            }
            JdbcCatalog.update(c, "INSERT INTO sources (tenant, id, type, config, kb, interval_seconds, enabled, "
                    + "created_at, registered_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", s.tenant(), s.id(), s.type(),
                    s.config(), s.knowledgeBase(), s.intervalSeconds(), s.enabled(), jdbc.now(), s.registeredBy());
            return true;
        });
    }

    boolean update(Source s) {
        // Who set the settings too: a sync runs within that tenant's folders (the settings were checked against them).
        return jdbc.tx("update a source", c -> JdbcCatalog.update(c, "UPDATE sources SET type = ?, config = ?, "
                + "kb = ?, interval_seconds = ?, enabled = ?, registered_by = ? WHERE tenant = ? AND id = ?", s.type(),
                s.config(), s.knowledgeBase(), s.intervalSeconds(), s.enabled(), s.registeredBy(), s.tenant(), s.id())
                > 0);
    }

    Optional<Source> get(String tenant, String id) {
        return jdbc.tx("read a source", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT * FROM sources WHERE tenant = ? AND id = ?")) {
                ps.setString(1, tenant);
                ps.setString(2, id);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(source(rs)) : Optional.<Source>empty();
                }
            }
        });
    }

    List<Source> list(String tenant) {
        return jdbc.tx("list sources", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT * FROM sources" + (tenant == null ? ""
                    : " WHERE tenant = ?") + " ORDER BY tenant, id")) {
                if (tenant != null) {
                    ps.setString(1, tenant);
                }
                List<Source> out = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(source(rs));
                    }
                }
                return out;
            }
        });
    }

    boolean delete(String tenant, String id) {
        return jdbc.tx("delete a source", c -> {
            JdbcCatalog.update(c, "DELETE FROM source_items WHERE tenant = ? AND source_id = ?", tenant, id);
            return JdbcCatalog.update(c, "DELETE FROM sources WHERE tenant = ? AND id = ?", tenant, id) > 0;
        });
    }

    void scanned(String tenant, String id, Instant at, String error) {
        jdbc.tx("record a scan", c -> JdbcCatalog.update(c, "UPDATE sources SET last_scan_at = ?, last_error = ? "
                + "WHERE tenant = ? AND id = ?", at.atOffset(ZoneOffset.UTC), error, tenant, id));
    }

    String indexedWith(String tenant, String id) {
        return jdbc.tx("read a source's settings", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT indexed_with FROM sources WHERE tenant = ? AND "
                    + "id = ?")) {
                ps.setString(1, tenant);
                ps.setString(2, id);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? rs.getString(1) : "";
                }
            }
        });
    }

    void indexedWith(String tenant, String id, String signature) {
        jdbc.tx("record a source's settings", c -> JdbcCatalog.update(c, "UPDATE sources SET indexed_with = ? "
                + "WHERE tenant = ? AND id = ?", signature, tenant, id));
    }

    private static SyncItem item(ResultSet rs) throws SQLException {
        return new SyncItem(rs.getString("item"), rs.getLong("modified_ms"), rs.getLong("size_bytes"),
                rs.getString("hash"), rs.getString("document_id"), rs.getString("validator"));
    }

    /**
     * These items' states: one point lookup each on the primary key, in one transaction (an {@code IN} list of
     * hundreds is not an index lookup in every database: H2 scanned the source's rows for each).
     */
    Map<String, SyncItem> items(String tenant, String sourceId, Collection<String> items) {
        if (items.isEmpty()) {
            return Map.of();
        }
        return jdbc.tx("read a source's items", c -> {
            Map<String, SyncItem> out = new HashMap<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT * FROM source_items WHERE tenant = ? AND "
                    + "source_id = ? AND item = ?")) {
                for (String item : new LinkedHashSet<>(items)) {
                    ps.setString(1, tenant);
                    ps.setString(2, sourceId);
                    ps.setString(3, item);
                    try (ResultSet rs = ps.executeQuery()) {
                        if (rs.next()) {
                            out.put(item, item(rs));
                        }
                    }
                }
            }
            return out;
        });
    }

    void seen(String tenant, String sourceId, Collection<String> items, long scan) {
        if (items.isEmpty()) {
            return;
        }
        jdbc.tx("mark a source's items seen", c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE source_items SET seen_scan = ? WHERE tenant = ? "
                    + "AND source_id = ? AND item = ?")) {
                for (String i : items) {
                    ps.setLong(1, scan);
                    ps.setString(2, tenant);
                    ps.setString(3, sourceId);
                    ps.setString(4, i);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            return null;
        });
    }

    List<SyncItem> unseen(String tenant, String sourceId, long scan, int limit) {
        return jdbc.tx("find a source's unseen items", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT * FROM source_items WHERE tenant = ? AND "
                    + "source_id = ? AND seen_scan <> ? ORDER BY item LIMIT ?")) {
                ps.setString(1, tenant);
                ps.setString(2, sourceId);
                ps.setLong(3, scan);
                ps.setInt(4, limit);
                List<SyncItem> out = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(item(rs));
                    }
                }
                return out;
            }
        });
    }

    Map<String, SyncItem> items(String tenant, String sourceId) {
        return jdbc.tx("read a source's items", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT * FROM source_items WHERE tenant = ? AND "
                    + "source_id = ?")) {
                ps.setString(1, tenant);
                ps.setString(2, sourceId);
                Map<String, SyncItem> out = new HashMap<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.put(rs.getString("item"), new SyncItem(rs.getString("item"), rs.getLong("modified_ms"),
                                rs.getLong("size_bytes"), rs.getString("hash"), rs.getString("document_id"),
                                rs.getString("validator")));
                    }
                }
                return out;
            }
        });
    }

    @Override
    public int countUnseenSourceItems(String tenant, String sourceId, long scan) {
        return jdbc.tx("count a source's unseen items", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM source_items WHERE tenant = ? AND "
                    + "source_id = ? AND seen_scan <> ?")) {
                ps.setString(1, tenant);
                ps.setString(2, sourceId);
                ps.setLong(3, scan);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getInt(1);
                }
            }
        });
    }

    int count(String tenant, String sourceId) {
        return jdbc.tx("count a source's items", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM source_items WHERE tenant = ? AND "
                    + "source_id = ?")) {
                ps.setString(1, tenant);
                ps.setString(2, sourceId);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getInt(1);
                }
            }
        });
    }

    void put(String tenant, String sourceId, List<SyncItem> items) {
        if (items.isEmpty()) {
            return;
        }
        jdbc.tx("record a source's items", c -> {
            try (PreparedStatement del = c.prepareStatement("DELETE FROM source_items WHERE tenant = ? AND "
                    + "source_id = ? AND item = ?");
                    PreparedStatement ins = c.prepareStatement("INSERT INTO source_items (tenant, source_id, item, "
                            + "modified_ms, size_bytes, hash, document_id, validator) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
                for (SyncItem i : items) {
                    del.setString(1, tenant);
                    del.setString(2, sourceId);
                    del.setString(3, i.item());
                    del.addBatch();
                    ins.setString(1, tenant);
                    ins.setString(2, sourceId);
                    ins.setString(3, i.item());
                    ins.setLong(4, i.modifiedMs());
                    ins.setLong(5, i.sizeBytes());
                    ins.setString(6, i.hash());
                    ins.setString(7, i.documentId());
                    ins.setString(8, i.validator());
                    ins.addBatch();
                }
                del.executeBatch();
                ins.executeBatch();
            }
            return null;
        });
    }

    void delete(String tenant, String sourceId, List<String> items) {
        if (items.isEmpty()) {
            return;
        }
        jdbc.tx("forget a source's items", c -> {
            try (PreparedStatement del = c.prepareStatement("DELETE FROM source_items WHERE tenant = ? AND "
                    + "source_id = ? AND item = ?")) {
                for (String i : items) {
                    del.setString(1, tenant);
                    del.setString(2, sourceId);
                    del.setString(3, i);
                    del.addBatch();
                }
                del.executeBatch();
            }
            return null;
        });
    }

    private static Source source(ResultSet rs) throws SQLException {
        return new Source(rs.getString("tenant"), rs.getString("id"), rs.getString("type"), rs.getString("config"),
                rs.getString("kb"), rs.getInt("interval_seconds"), rs.getBoolean("enabled"),
                JdbcCatalog.instant(rs, "created_at"), JdbcCatalog.instant(rs, "last_scan_at"),
                rs.getString("last_error"), rs.getString("registered_by"));
    }

    @Override
    public boolean createSource(Source source) {
        return create(source);
    }

    @Override
    public boolean updateSource(Source source) {
        return update(source);
    }

    @Override
    public Optional<Source> source(String tenant, String id) {
        return get(tenant, id);
    }

    @Override
    public List<Source> sources(String tenant) {
        return list(tenant);
    }

    @Override
    public boolean deleteSource(String tenant, String id) {
        return delete(tenant, id);
    }

    @Override
    public void sourceScanned(String tenant, String id, Instant at, String error) {
        scanned(tenant, id, at, error);
    }

    @Override
    public String sourceIndexedWith(String tenant, String id) {
        return indexedWith(tenant, id);
    }

    @Override
    public void sourceIndexedWith(String tenant, String id, String signature) {
        indexedWith(tenant, id, signature);
    }

    @Override
    public Map<String, SyncItem> sourceItems(String tenant, String sourceId) {
        return items(tenant, sourceId);
    }

    @Override
    public int countSourceItems(String tenant, String sourceId) {
        return count(tenant, sourceId);
    }

    @Override
    public void putSourceItems(String tenant, String sourceId, List<SyncItem> items) {
        put(tenant, sourceId, items);
    }

    @Override
    public void deleteSourceItems(String tenant, String sourceId, List<String> items) {
        delete(tenant, sourceId, items);
    }

    @Override
    public Map<String, SyncItem> sourceItems(String tenant, String sourceId,
            Collection<String> items) {
        return items(tenant, sourceId, items);
    }

    @Override
    public void markSourceItemsSeen(String tenant, String sourceId, Collection<String> items, long scan) {
        seen(tenant, sourceId, items, scan);
    }

    @Override
    public List<SyncItem> unseenSourceItems(String tenant, String sourceId, long scan,
            int limit) {
        return unseen(tenant, sourceId, scan, limit);
    }

    @Override
    public void forgetDocuments(String tenant, Collection<String> documentIds) {
        if (documentIds.isEmpty()) {
            return;
        }
        jdbc.tx("forget deleted documents' source items", c -> {
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM source_items WHERE tenant = ? AND "
                    + "document_id = ANY(?)")) {
                ps.setString(1, tenant);
                ps.setArray(2, c.createArrayOf("VARCHAR", documentIds.stream().distinct().toArray()));
                return ps.executeUpdate();
            }
        });
    }

    @Override
    public Set<String> documentsOfOtherSources(String tenant, String sourceId, Collection<String> documentIds) {
        if (documentIds.isEmpty()) {
            return Set.of();
        }
        return jdbc.tx("find documents other sources hold", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT DISTINCT document_id FROM source_items WHERE "
                    + "tenant = ? AND document_id = ANY(?) AND source_id <> ?")) {
                ps.setString(1, tenant);
                ps.setArray(2, c.createArrayOf("VARCHAR", documentIds.stream().distinct().toArray()));
                ps.setString(3, sourceId);
                Set<String> out = new HashSet<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(rs.getString(1));
                    }
                }
                return out;
            }
        });
    }
}
