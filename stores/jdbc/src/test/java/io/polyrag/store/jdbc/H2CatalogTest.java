package io.polyrag.store.jdbc;

import io.polyrag.core.spi.CatalogProvider.CatalogAndJobs;
import io.polyrag.testing.CatalogContract;
import java.nio.file.Path;

class H2CatalogTest extends CatalogContract {
    @Override
    protected CatalogAndJobs openCatalog(Path dir, java.time.Clock clock) {
        return H2CatalogProvider.open(dir.resolve("catalog"), clock);
    }
}
