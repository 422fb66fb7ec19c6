package io.polyrag.store.catalog;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.polyrag.core.config.Config;
import io.polyrag.core.config.PostgresConnection;

/** Connection pools to the PostgreSQL database the settings name, one per role, each checked when it opens. */
final class Postgres {
    /** How long a statement waits for a row lock before it fails (SQLState 55P03). */
    static final int LOCK_TIMEOUT_MS = 10_000;

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
        // Bounded waits, as H2's LOCK_TIMEOUT: a replica that died inside a transaction (its socket half-open, the
        // session 'idle in transaction' for hours) held its row locks, and every other replica's stage, publish and
        // sweep waited on them for as long, with their jobs heartbeating on. Now a lock wait fails after 10 s and the
        // job waits and resumes (StorageProblems); such a session is ended after 5 minutes, and dead peers are found
        // by TCP keepalive. Set by SQL on each new connection, not as the 'options' startup parameter: PgBouncer and
        // other poolers refuse that one, and an 'options' in the user's URL silently replaced it.
        hc.setConnectionInitSql("SET lock_timeout = " + LOCK_TIMEOUT_MS
                + "; SET idle_in_transaction_session_timeout = 300000");
        hc.addDataSourceProperty("tcpKeepAlive", "true");
        try {
            return new HikariDataSource(hc);
        } catch (RuntimeException e) {
            throw db.unreachable("the catalog", e);
        }
    }
}
