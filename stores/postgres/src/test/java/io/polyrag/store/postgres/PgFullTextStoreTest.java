package io.polyrag.store.postgres;

import io.polyrag.core.config.Config;
import io.polyrag.core.port.FullTextStore;
import io.polyrag.core.spi.ProviderContext;
import io.polyrag.testing.FullTextStoreContract;
import io.polyrag.testing.TestPostgres;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** The full-text store contract on a real PostgreSQL, in an empty schema per test, reopened by name. */
class PgFullTextStoreTest extends FullTextStoreContract {
    private final Map<Path, String> schemas = new HashMap<>();

    @Override
    protected FullTextStore openStore(Path dir) {
        String url = schemas.computeIfAbsent(dir, d -> TestPostgres.freshSchema("fts_" + Integer.toHexString(
                d.toString().hashCode())));
        return new PostgresProviders.FullText().open(new ProviderContext(Config.load(Map.of(), Map.of("postgres.url",
                url, "postgres.pool.search", "2", "postgres.pool.ingest", "1")), dir));
    }

    @Override
    protected boolean keepsWholeTexts() {
        return true;
    }
}
