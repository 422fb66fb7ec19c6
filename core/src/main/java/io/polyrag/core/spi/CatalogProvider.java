package io.polyrag.core.spi;

import io.polyrag.core.port.Catalog;
import io.polyrag.core.port.JobStore;

/** Makes the catalog and the job store, which share one database. */
public interface CatalogProvider extends NamedProvider {

    /** A catalog and job store over one database connection pool. */
    interface CatalogAndJobs extends Catalog, JobStore {
    }

    CatalogAndJobs open(ProviderContext context);
}
