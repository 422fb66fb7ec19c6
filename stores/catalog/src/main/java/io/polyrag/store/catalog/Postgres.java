package io.polyrag.store.catalog;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.polyrag.core.config.Config;
import io.polyrag.core.config.PostgresConnection;

/** Connection pools to the PostgreSQL database the settings name, one per role, each checked when it opens. */
final class Postgres {
    private Postgres() {
    }

    /** A pool of {@code size} connections named {@code polyrag-<role>}; fails naming the address when it cannot connect. */
    static HikariDataSource pool(Config config, String role, int size) {
        PostgresConnection db = PostgresConnection.of(config, "the postgres catalog");
        HikariConfig hc = new HikariConfig();
        hc.setJdbcUrl(db.url());
        if (!db.user().isBlank()) {
            hc.setUsername(db.user());
        }
        if (!db.password().isBlank()) {
            hc.setPassword(db.password());
        }
        hc.setPoolName("polyrag-" + role);
        hc.setMaximumPoolSize(size);
        hc.setMinimumIdle(1);
        hc.setConnectionTimeout(db.connectTimeoutMs());
        hc.setInitializationFailTimeout(db.connectTimeoutMs());
        hc.addDataSourceProperty("ApplicationName", "polyrag-" + role);
        hc.addDataSourceProperty("reWriteBatchedInserts", "true");
        try {
            return new HikariDataSource(hc);
        } catch (RuntimeException e) {
            throw db.unreachable("the catalog", e);
        }
    }
}
