package io.polyrag.store.jdbc;

import io.polyrag.core.config.Config;
import io.polyrag.core.spi.CatalogProvider.CatalogAndJobs;
import io.polyrag.testing.CatalogContract;
import io.polyrag.testing.TestPostgres;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** The catalog contract on a real PostgreSQL: each test in an empty schema of its own, reopened by name. */
class PostgresCatalogTest extends CatalogContract {
    private final Map<Path, String> schemas = new HashMap<>();

    @Override
    protected CatalogAndJobs openCatalog(Path dir, java.time.Clock clock) {
        String url = schemas.computeIfAbsent(dir, d -> TestPostgres.freshSchema("catalog_" + Integer.toHexString(
                d.toString().hashCode())));
        return PostgresCatalogProvider.open(Config.load(Map.of(), Map.of("postgres.url", url, "postgres.pool.search",
                "2", "postgres.pool.ingest", "2", "postgres.pool.jobs", "1")), clock);
    }
}
