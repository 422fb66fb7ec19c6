package io.polyrag.store.catalog;

import io.polyrag.core.model.ApiKey;
import io.polyrag.core.port.KeyStore;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** API key rows: by the SHA-256 of the key, never the key. */
final class JdbcKeys implements KeyStore {
    private final Jdbc jdbc;
    /**
     * The reads every request makes (its key, whether keys exist, local mode's owner): on the search pool, as a
     * server catalog keeps it apart from writes, or a knowledge base's delete and a few upload batches holding the
     * write connections made every tenant's requests wait, then fail as if keys could not be checked.
     */
    private final Jdbc reads;

    JdbcKeys(Jdbc jdbc, Jdbc reads) {
        this.jdbc = jdbc;
        this.reads = reads;
    }

    ApiKey create(String id, String tenant, String name, String keyHash) {
        jdbc.tx("create an API key", c -> JdbcCatalog.update(c, "INSERT INTO api_keys (id, tenant, name, key_hash, "
                + "created_at) VALUES (?, ?, ?, ?, ?)", id, tenant, name == null ? "" : name, keyHash, jdbc.now()));
        return byId(id).orElseThrow();
    }

    List<ApiKey> list() {
        return jdbc.tx("list API keys", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT * FROM api_keys ORDER BY created_at, id");
                    ResultSet rs = ps.executeQuery()) {
                List<ApiKey> out = new ArrayList<>();
                while (rs.next()) {
                    out.add(key(rs));
                }
                return out;
            }
        });
    }

    boolean revoke(String id) {
        return jdbc.tx("revoke an API key", c -> JdbcCatalog.update(c, "UPDATE api_keys SET revoked_at = ? "
                + "WHERE id = ? AND revoked_at IS NULL", jdbc.now(), id)) > 0;
    }

    Optional<KeyStore.Active> active(String id) {
        return reads.tx("read an API key", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT k.*, o.tenant AS owner FROM api_keys k "
                    + "LEFT JOIN local_owner o ON o.tenant = k.tenant WHERE k.id = ? AND k.revoked_at IS NULL")) {
                ps.setString(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(new KeyStore.Active(key(rs),
                            rs.getString("key_hash"), rs.getString("owner") != null))
                            : Optional.<KeyStore.Active>empty();
                }
            }
        });
    }

    boolean anyActive() {
        return reads.tx("count API keys", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM api_keys WHERE revoked_at IS NULL LIMIT 1");
                    ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        });
    }

    @Override
    public Optional<String> localOwner() {
        return reads.tx("read local mode's owner", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT tenant FROM local_owner");
                    ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(rs.getString(1)) : Optional.<String>empty();
            }
        });
    }

    @Override
    public boolean adoptLocal(String tenant) {
        Optional<String> owner = localOwner();
        if (owner.isPresent()) {
            return owner.get().equals(tenant);
        }
        try {
            jdbc.tx("record local mode's owner", c -> {
                JdbcCatalog.update(c, "INSERT INTO local_owner (only_row, tenant, adopted_at) VALUES (1, ?, ?)",
                        tenant, jdbc.now());
                // From now on the tenant's rows are the local tenant's (""): its quotas and the usage counted
                // under its name before go with it. They were left under the name, which nothing read any more (a
                // limit set on the tenant stopped applying, its month's counts were lost from its report).
                JdbcCatalog.update(c, "UPDATE tenant_quotas SET tenant = '' WHERE tenant = ? AND NOT EXISTS "
                        + "(SELECT 1 FROM tenant_quotas q WHERE q.tenant = '')", tenant);
                JdbcCatalog.update(c, "UPDATE usage_counts SET amount = amount + (SELECT o.amount FROM usage_counts o "
                        + "WHERE o.tenant = ? AND o.usage_day = usage_counts.usage_day AND o.metric = "
                        + "usage_counts.metric AND o.model = usage_counts.model) WHERE tenant = '' AND EXISTS (SELECT 1 "
                        + "FROM usage_counts o WHERE o.tenant = ? AND o.usage_day = usage_counts.usage_day AND o.metric "
                        + "= usage_counts.metric AND o.model = usage_counts.model)", tenant, tenant);
                JdbcCatalog.update(c, "DELETE FROM usage_counts WHERE tenant = ? AND EXISTS (SELECT 1 FROM "
                        + "usage_counts u WHERE u.tenant = '' AND u.usage_day = usage_counts.usage_day AND u.metric = "
                        + "usage_counts.metric AND u.model = usage_counts.model)", tenant);
                return JdbcCatalog.update(c, "UPDATE usage_counts SET tenant = '' WHERE tenant = ?", tenant);
            });
            return true;
        } catch (RuntimeException e) {
            // Another process adopted it between the read and the insert (the primary key holds one row).
            return localOwner().map(tenant::equals).orElseThrow(() -> e);
        }
    }

    private Optional<ApiKey> byId(String id) {
        return one("SELECT * FROM api_keys WHERE id = ?", id);
    }

    private Optional<ApiKey> one(String sql, String arg) {
        return reads.tx("read an API key", c -> {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                ps.setString(1, arg);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(key(rs)) : Optional.<ApiKey>empty();
                }
            }
        });
    }

    private static ApiKey key(ResultSet rs) throws SQLException {
        return new ApiKey(rs.getString("id"), rs.getString("tenant"), rs.getString("name"),
                JdbcCatalog.instant(rs, "created_at"), rs.getObject("revoked_at") == null ? null
                        : JdbcCatalog.instant(rs, "revoked_at"));
    }

    @Override
    public ApiKey createKey(String id, String tenant, String name, String keyHash) {
        return create(id, tenant, name, keyHash);
    }

    @Override
    public List<ApiKey> keys() {
        return list();
    }

    @Override
    public boolean revokeKey(String id) {
        return revoke(id);
    }

    @Override
    public Optional<KeyStore.Active> activeKey(String id) {
        return active(id);
    }

    @Override
    public boolean anyActiveKey() {
        return anyActive();
    }
}
