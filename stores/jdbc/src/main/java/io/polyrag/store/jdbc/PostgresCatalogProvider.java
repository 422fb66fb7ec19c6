package io.polyrag.store.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import io.polyrag.core.config.Config;
import io.polyrag.core.config.Settings;
import io.polyrag.core.spi.CatalogProvider;
import io.polyrag.core.spi.ProviderContext;

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
        return open(context.config(), java.time.Clock.systemUTC());
    }

    /** Opens the catalog on the configured database, creating or upgrading its schema. */
    public static JdbcCatalog open(Config config, java.time.Clock clock) {
        HikariDataSource ingest = Postgres.pool(config, "catalog-ingest", config.get(Settings.POSTGRES_POOL_INGEST));
        HikariDataSource search = null;
        HikariDataSource jobs = null;
        try {
            search = Postgres.pool(config, "catalog-search", config.get(Settings.POSTGRES_POOL_SEARCH));
            jobs = Postgres.pool(config, "catalog-jobs", config.get(Settings.POSTGRES_POOL_JOBS));
            HikariDataSource s = search;
            HikariDataSource j = jobs;
            return new JdbcCatalog(ingest, search, jobs, "catalog " + Postgres.redact(config.get(
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
