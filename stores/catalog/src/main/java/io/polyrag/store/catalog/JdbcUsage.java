package io.polyrag.store.catalog;

import io.polyrag.core.port.UsageStore;
import io.polyrag.core.port.UsageStore.Count;
import io.polyrag.core.port.UsageStore.Quotas;
import io.polyrag.core.port.UsageStore.Stock;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Each tenant's usage by day, metric and model, what it holds, and its quotas. */
final class JdbcUsage implements UsageStore {
    private final Jdbc jdbc;

    JdbcUsage(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Adds to the day's rows: an update, and an insert where there was no row. Two replicas inserting the same new row
     * at once fail one transaction on the key; its caller keeps the counts and adds them again later.
     */
    void add(String tenant, LocalDate day, List<Count> counts) {
        addAll(Map.of(tenant, Map.of(day, counts)));
    }

    @Override
    public void addUsage(Map<String, Map<LocalDate, List<Count>>> counts) {
        addAll(counts);
    }

    private void addAll(Map<String, Map<LocalDate, List<Count>>> all) {
        jdbc.tx("count usage", c -> {
            try (PreparedStatement up = c.prepareStatement("UPDATE usage_counts SET amount = amount + ? WHERE tenant = ? "
                    + "AND usage_day = ? AND metric = ? AND model = ?");
                    PreparedStatement ins = c.prepareStatement("INSERT INTO usage_counts (tenant, usage_day, metric, model, "
                            + "amount) VALUES (?, ?, ?, ?, ?)")) {
                for (var perTenant : all.entrySet()) {
                    for (var perDay : perTenant.getValue().entrySet()) {
                        write(up, ins, perTenant.getKey(), perDay.getKey(), perDay.getValue());
                    }
                }
            }
            return null;
        });
    }

    private static void write(PreparedStatement up, PreparedStatement ins, String tenant, LocalDate day,
            List<Count> counts) throws SQLException {
        for (Count n : counts) {
            String model = JdbcCatalog.clip(n.model(), 255);
            up.setLong(1, n.amount());
            up.setString(2, tenant);
            up.setObject(3, day);
            up.setString(4, n.metric());
            up.setString(5, model);
            if (up.executeUpdate() == 0) {
                ins.setString(1, tenant);
                ins.setObject(2, day);
                ins.setString(3, n.metric());
                ins.setString(4, model);
                ins.setLong(5, n.amount());
                ins.executeUpdate();
            }
        }
    }

    @Override
    public List<Count> usage(String tenant, LocalDate from, LocalDate to) {
        return usageOfAll(tenant, from, to).getOrDefault(tenant, List.of());
    }

    @Override
    public Map<String, List<Count>> usageOfAll(LocalDate from, LocalDate to) {
        return usageOfAll(null, from, to);
    }

    /** By tenant; one tenant's only when {@code tenant} is not null. */
    Map<String, List<Count>> usageOfAll(String tenant, LocalDate from, LocalDate to) {
        return jdbc.tx("read usage", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT tenant, metric, model, SUM(amount) FROM usage_counts "
                    + "WHERE usage_day >= ? AND usage_day <= ?" + (tenant == null ? "" : " AND tenant = ?")
                    + " GROUP BY tenant, metric, model ORDER BY tenant, metric, model")) {
                ps.setObject(1, from);
                ps.setObject(2, to);
                if (tenant != null) {
                    ps.setString(3, tenant);
                }
                Map<String, List<Count>> out = new TreeMap<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.computeIfAbsent(rs.getString(1), t -> new ArrayList<>()).add(new Count(rs.getString(2),
                                rs.getString(3), rs.getLong(4)));
                    }
                }
                return out;
            }
        });
    }

    @Override
    public Stock stock(String tenant) {
        return stockOfAll(tenant).getOrDefault(tenant, Stock.NONE);
    }

    @Override
    public Map<String, Stock> stockOfAll() {
        return stockOfAll(null);
    }

    /** By tenant; one tenant's only when {@code tenant} is not null. */
    Map<String, Stock> stockOfAll(String tenant) {
        return jdbc.tx("read what tenants hold", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT k.tenant, COUNT(*), COALESCE(SUM(d.chunk_count), 0), "
                    + "COALESCE(SUM(d.size_bytes), 0) FROM documents d JOIN knowledge_bases k ON k.name = d.kb "
                    + "WHERE d.deleted = FALSE AND d.visible_version > 0" + (tenant == null ? "" : " AND k.tenant = ?")
                    + " GROUP BY k.tenant")) {
                if (tenant != null) {
                    ps.setString(1, tenant);
                }
                Map<String, Stock> out = new TreeMap<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.put(rs.getString(1), new Stock(rs.getLong(2), rs.getLong(3), rs.getLong(4)));
                    }
                }
                return out;
            }
        });
    }

    @Override
    public Quotas quotas(String tenant) {
        return quotasOf(tenant).getOrDefault(tenant, Quotas.NONE);
    }

    /** By tenant; one tenant's only when {@code tenant} is not null. */
    Map<String, Quotas> quotasOf(String tenant) {
        return jdbc.tx("read quotas", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT tenant, documents, stored_mb, "
                    + "extraction_tokens_per_day, searches_per_minute FROM tenant_quotas"
                    + (tenant == null ? "" : " WHERE tenant = ?") + " ORDER BY tenant")) {
                if (tenant != null) {
                    ps.setString(1, tenant);
                }
                Map<String, Quotas> out = new TreeMap<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.put(rs.getString(1), new Quotas(longOrNull(rs, 2), longOrNull(rs, 3), longOrNull(rs, 4),
                                rs.getObject(5) == null ? null : rs.getInt(5)));
                    }
                }
                return out;
            }
        });
    }

    private static Long longOrNull(ResultSet rs, int column) throws SQLException {
        long v = rs.getLong(column);
        return rs.wasNull() ? null : v;
    }

    @Override
    public void putQuotas(String tenant, Quotas q) {
        jdbc.tx("set quotas", c -> {
            JdbcCatalog.update(c, "DELETE FROM tenant_quotas WHERE tenant = ?", tenant);
            if (!q.none()) {
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO tenant_quotas (tenant, documents, "
                        + "stored_mb, extraction_tokens_per_day, searches_per_minute, updated_at) VALUES (?, ?, ?, ?, "
                        + "?, ?)")) {
                    ps.setString(1, tenant);
                    setLong(ps, 2, q.documents());
                    setLong(ps, 3, q.storedMb());
                    setLong(ps, 4, q.extractionTokensPerDay());
                    if (q.searchesPerMinute() == null) {
                        ps.setNull(5, Types.INTEGER);
                    } else {
                        ps.setInt(5, q.searchesPerMinute());
                    }
                    ps.setObject(6, jdbc.now());
                    ps.executeUpdate();
                }
            }
            return null;
        });
    }

    private static void setLong(PreparedStatement ps, int i, Long v) throws SQLException {
        if (v == null) {
            ps.setNull(i, Types.BIGINT);
        } else {
            ps.setLong(i, v);
        }
    }

    @Override
    public void addUsage(String tenant, LocalDate day, List<Count> counts) {
        add(tenant, day, counts);
    }

    @Override
    public Map<String, Quotas> allQuotas() {
        return quotasOf(null);
    }
}
