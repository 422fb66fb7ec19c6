package io.polyrag.store.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.polyrag.core.StoreException;
import io.polyrag.core.config.Config;
import io.polyrag.core.config.PostgresConnection;
import io.polyrag.core.config.Settings;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;

/**
 * One PostgreSQL store's connections: two HikariCP pools on {@code POLYRAG_POSTGRES_URL}, one for searches
 * ({@code postgres.pool.search}) and one for writes and everything else ({@code postgres.pool.ingest}), its tables
 * brought up to date by Flyway (a history table of its own, so stores and the catalog can share a database), and
 * transactions that map failures to {@link StoreException}s naming the store. With one pool, writers waiting on the
 * full-text store's writer lock (another replica deleting a knowledge base) held every connection, and searches lost
 * their leg at the connect timeout.
 */
final class PgDatabase implements AutoCloseable {
    @FunctionalInterface
    interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    private final HikariDataSource pool;
    private final HikariDataSource searchPool;
    private final String name;
    /** How long one search's statements may run ({@code search.timeout.ms}). */
    private final int searchTimeoutMs;

    private PgDatabase(HikariDataSource pool, HikariDataSource searchPool, String name, int searchTimeoutMs) {
        this.pool = pool;
        this.searchPool = searchPool;
        this.name = name;
        this.searchTimeoutMs = searchTimeoutMs;
    }

    /**
     * Connects and migrates.
     *
     * @param store {@code vector} or {@code fulltext}: its migrations and history table
     * @param placeholders values for {@code ${…}} in the migrations
     */
    static PgDatabase open(Config config, String store, Map<String, String> placeholders) {
        PostgresConnection db = PostgresConnection.of(config, "the " + store + " store");
        // At least two: Flyway's migration holds two connections (its lock, and the migration's).
        HikariDataSource pool = pool(db, "polyrag-" + store, Math.max(2, config.get(Settings.POSTGRES_POOL_INGEST)),
                store);
        try {
            migrate(pool, store, placeholders, db);
        } catch (RuntimeException e) {
            pool.close();
            throw e;
        }
        HikariDataSource searchPool;
        try {
            searchPool = pool(db, "polyrag-" + store + "-search", config.get(Settings.POSTGRES_POOL_SEARCH), store);
        } catch (RuntimeException e) {
            pool.close();
            throw e;
        }
        return new PgDatabase(pool, searchPool, store + " store at " + db.redactedUrl(),
                config.get(Settings.SEARCH_TIMEOUT_MS));
    }

    private static HikariDataSource pool(PostgresConnection db, String poolName, int size, String store) {
        String url = db.url();
        HikariConfig hc = new HikariConfig();
        hc.setJdbcUrl(url);
        if (!db.user().isBlank()) {
            hc.setUsername(db.user());
        }
        if (!db.password().isBlank()) {
            hc.setPassword(db.password());
        }
        hc.setPoolName(poolName);
        hc.setMaximumPoolSize(size);
        hc.setMinimumIdle(1);
        hc.setConnectionTimeout(db.connectTimeoutMs());
        hc.setInitializationFailTimeout(db.connectTimeoutMs());
        hc.addDataSourceProperty("ApplicationName", "polyrag-" + store);
        hc.addDataSourceProperty("reWriteBatchedInserts", "true");
        // A replica that died inside a write left its session 'idle in transaction' holding the full-text store's
        // writer lock, and every other replica's writes waited on it for hours: such a session ends after 5
        // minutes, and dead peers are found by TCP keepalive. No lock timeout here: writers queue on that lock by
        // design.
        hc.setConnectionInitSql("SET idle_in_transaction_session_timeout = 300000");
        hc.addDataSourceProperty("tcpKeepAlive", "true");
        try {
            return new HikariDataSource(hc);
        } catch (RuntimeException e) {
            throw db.unreachable("the " + store + " store", e);
        }
    }

    private static void migrate(HikariDataSource pool, String store, Map<String, String> placeholders,
            PostgresConnection db) {
        try {
            flyway(pool, store, "polyrag_" + store + "_schema_history", placeholders);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreException("interrupted while the " + store + " store's tables were created", e);
        } catch (RuntimeException e) {
            String why = PostgresConnection.rootCause(e).getMessage();
            String hint = why != null && why.contains("type \"vector\" does not exist") ? vectorHint(pool) : "";
            throw new StoreException("cannot create the " + store + " store's tables in " + db.redactedUrl() + ": " + why
                    + hint, e);
        }
    }

    /**
     * Why the type {@code vector} is not there: pgvector not installed, or installed in a schema the connection's
     * search path leaves out ({@code ?currentSchema=polyrag} sets the path to that schema alone, and the extension
     * usually lives in {@code public}), which was reported as "is the pgvector extension installed?".
     */
    private static String vectorHint(HikariDataSource pool) {
        try (Connection c = pool.getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT n.nspname, current_setting('search_path'), n.nspname = "
                        + "ANY(current_schemas(false)) FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace "
                        + "WHERE e.extname = 'vector'")) {
            if (rs.next()) {
                // Installed and on the path: the message says the rest.
                return rs.getBoolean(3) ? "" : " (the pgvector extension is installed in schema '" + rs.getString(1)
                        + "', which this connection's search path ('" + rs.getString(2) + "') leaves out: add it, e.g. "
                        + "currentSchema=polyrag," + rs.getString(1) + " in POLYRAG_POSTGRES_URL)";
            }
        } catch (SQLException | RuntimeException ignored) {
            // The general hint below.
        }
        return " (is the pgvector extension installed? CREATE EXTENSION vector needs it on the server)";
    }

    /**
     * Migrates {@code location}, recording it in {@code table}. Replicas starting together on one empty schema race
     * before Flyway takes its lock (as the catalog's do): the first one's migration completes within moments, then
     * there is nothing to do; the others try again for up to ten seconds.
     */
    private static void flyway(HikariDataSource pool, String location, String table, Map<String, String> placeholders)
            throws InterruptedException {
        for (int attempt = 1; ; attempt++) {
            try {
                Flyway.configure(PgDatabase.class.getClassLoader()).dataSource(pool)
                        .locations("classpath:io/polyrag/store/postgres/" + location).table(table)
                        .baselineOnMigrate(true).baselineVersion("0").placeholders(placeholders).loggers("slf4j")
                        .load().migrate();
                return;
            } catch (FlywayException e) {
                String message = String.valueOf(e.getMessage());
                if (attempt >= 20 || !message.contains("already exists, and is empty")
                        && !message.contains("already contains migrations")) {
                    throw e;
                }
                Thread.sleep(500);
            }
        }
    }

    /**
     * Runs another set of migrations ({@code location} beside the store's: a new embedding model's tables) with a
     * history table of its own; replicas starting together after a model change race as at the first start.
     */
    void migrate(String location, String historyTable, Map<String, String> placeholders) {
        try {
            flyway(pool, location, historyTable, placeholders);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreException("interrupted while the tables of " + location + " were created in the " + name, e);
        } catch (RuntimeException e) {
            throw new StoreException("cannot create the tables of " + location + " in the " + name + ": "
                    + PostgresConnection.rootCause(e).getMessage(), e);
        }
    }

    /**
     * A search's transaction: its statements end at the search's time limit. A leg cut at its deadline closes its
     * connection, but PostgreSQL ran the query on (a BM25 scan of a common word scores every row) until it had rows
     * to send, so cut searches piled up on the server past the pool's size.
     */
    <T> T search(String what, Work<T> work) {
        return tx(searchPool, what, c -> {
            try (Statement s = c.createStatement()) {
                s.execute("SET LOCAL statement_timeout = " + searchTimeoutMs);
            }
            return work.run(c);
        });
    }

    <T> T tx(String what, Work<T> work) {
        return tx(pool, what, work);
    }

    private <T> T tx(HikariDataSource from, String what, Work<T> work) {
        try (Connection c = from.getConnection()) {
            c.setAutoCommit(false);
            try {
                T out = work.run(c);
                c.commit();
                return out;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw new StoreException("cannot " + what + " in the " + name + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        try (searchPool) {
            pool.close();
        }
    }
}
