package io.polyrag.core.spi;

import io.polyrag.core.port.Catalog;
import io.polyrag.core.port.EmbeddingCache;
import io.polyrag.core.port.JobStore;

/** Makes the catalog, the job store and the embedding cache, which share one database. */
public interface CatalogProvider extends NamedProvider {

    /** A catalog, job store and embedding cache over one database connection pool. */
    interface CatalogAndJobs extends Catalog, JobStore, EmbeddingCache, io.polyrag.core.port.ContextCache,
            io.polyrag.core.port.ResponseCache,
            io.polyrag.core.port.KeyStore, io.polyrag.core.port.SourceStore, io.polyrag.core.port.ConversationStore,
            io.polyrag.core.port.JudgmentStore, io.polyrag.core.port.UsageStore {
    }

    CatalogAndJobs open(ProviderContext context);
}
