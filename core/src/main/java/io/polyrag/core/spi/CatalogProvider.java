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

/** Makes the catalog and the stores that share its database: jobs, keys, sources, caches, conversations, usage. */
public interface CatalogProvider extends NamedProvider {

    /**
     * The catalog, and each role that lives in the same database, as its own object: a facet takes the role it uses,
     * and an implementation keeps each role in its own class instead of one class forwarding for all of them.
     * Closing the catalog closes the database for every role.
     */
    interface CatalogAndJobs extends Catalog {
        JobStore jobStore();

        KeyStore keyStore();

        SourceStore sourceStore();

        ConversationStore conversationStore();

        JudgmentStore judgmentStore();

        UsageStore usageStore();

        EmbeddingCache embeddingCache();

        ContextCache contextCache();

        ResponseCache responseCache();
    }

    CatalogAndJobs open(ProviderContext context);
}
