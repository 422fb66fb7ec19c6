package io.polyrag.core.spi;

import io.polyrag.core.port.Catalog;
import io.polyrag.core.port.ContextCache;
import io.polyrag.core.port.ConversationStore;
import io.polyrag.core.port.EmbeddingCache;
import io.polyrag.core.port.JobStore;
import io.polyrag.core.port.JudgmentStore;
import io.polyrag.core.port.KeyStore;
import io.polyrag.core.port.ResponseCache;
import io.polyrag.core.port.SourceStore;
import io.polyrag.core.port.UsageStore;

/** Makes the catalog, the job store and the embedding cache, which share one database. */
public interface CatalogProvider extends NamedProvider {

    /** A catalog, job store and embedding cache over one database connection pool. */
    interface CatalogAndJobs extends Catalog, JobStore, EmbeddingCache, ContextCache,
            ResponseCache,
            KeyStore, SourceStore, ConversationStore,
            JudgmentStore, UsageStore {
    }

    CatalogAndJobs open(ProviderContext context);
}
