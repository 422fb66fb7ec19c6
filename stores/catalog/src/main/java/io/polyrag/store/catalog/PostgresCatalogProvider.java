package io.polyrag.store.catalog;

import com.zaxxer.hikari.HikariDataSource;
import io.polyrag.core.config.Config;
import io.polyrag.core.config.PostgresConnection;
import io.polyrag.core.config.Settings;
import io.polyrag.core.spi.CatalogProvider;
import io.polyrag.core.spi.ProviderContext;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code POLYRAG_CATALOG_BACKEND=postgres}: the same JDBC catalog and job queue as H2, on PostgreSQL at
 * {@code POLYRAG_POSTGRES_URL}, over three HikariCP pools (ingest, search, jobs). Several polyrag processes may
 * share it: jobs are claimed with {@code FOR UPDATE SKIP LOCKED}.
 */
public final class PostgresCatalogProvider implements CatalogProvider {
    @Override
    public String name() {
        return "postgres";
    }

    @Override
    public String description() {
        return "PostgreSQL at POLYRAG_POSTGRES_URL (shared by replicas)";
    }

    @Override
    public CatalogAndJobs open(ProviderContext context) {
        JdbcCatalog catalog = open(context.config(), Clock.systemUTC());
        if ("fsync".equals(context.config().get(Settings.DURABILITY))) {
            unsafeCommits(catalog.jdbc).ifPresent(w -> System.getLogger(PostgresCatalogProvider.class.getName())
                    .log(System.Logger.Level.WARNING, w));
        }
        return catalog;
    }

    /**
     * What keeps the server from making a commit durable before it answers, when anything does: PostgreSQL's own
     * {@code fsync} or {@code synchronous_commit} switched off. polyrag cannot force a server's disk; in fsync mode
     * it says so at start instead of promising what the server does not keep.
     */
    static Optional<String> unsafeCommits(Jdbc jdbc) {
        return jdbc.tx("read the durability settings", c -> {
            List<String> off = new ArrayList<>();
            try (var s = c.createStatement(); var rs = s.executeQuery("SELECT name, setting FROM pg_settings "
                    + "WHERE name IN ('fsync', 'synchronous_commit') ORDER BY name")) {
                while (rs.next()) {
                    if ("off".equals(rs.getString(2))) {
                        off.add(rs.getString(1) + "=off");
                    }
                }
            }
            return off.isEmpty() ? Optional.<String>empty() : Optional.of(Settings.DURABILITY.env()
                    + "=fsync, but the PostgreSQL catalog runs with " + String.join(" and ", off) + ": a commit it "
                    + "acknowledges can be lost when its machine loses power. Set them on in postgresql.conf for "
                    + "that promise to hold.");
        });
    }

    /** Opens the catalog on the configured database, creating or upgrading its schema. */
    public static JdbcCatalog open(Config config, Clock clock) {
        // Two at least: Flyway migrates on a second connection while its first holds the schema's lock (with
        // POLYRAG_POSTGRES_POOL_INGEST=1 the catalog never started: "Connection is not available").
        HikariDataSource ingest = Postgres.pool(config, "catalog-ingest", Math.max(2, config.get(
                Settings.POSTGRES_POOL_INGEST)));
        HikariDataSource search = null;
        HikariDataSource jobs = null;
        try {
            search = Postgres.pool(config, "catalog-search", config.get(Settings.POSTGRES_POOL_SEARCH));
            jobs = Postgres.pool(config, "catalog-jobs", config.get(Settings.POSTGRES_POOL_JOBS));
            HikariDataSource s = search;
            HikariDataSource j = jobs;
            return new JdbcCatalog(ingest, search, jobs, "catalog " + PostgresConnection.redact(config.get(
                    Settings.POSTGRES_URL)), () -> {
                        j.close();
                        s.close();
                        ingest.close();
                    }, null, clock, true);
        } catch (RuntimeException e) {
            if (jobs != null) {
                jobs.close();
            }
            if (search != null) {
                search.close();
            }
            ingest.close();
            throw e;
        }
    }
}
