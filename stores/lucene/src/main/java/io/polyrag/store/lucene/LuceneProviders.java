package io.polyrag.store.lucene;

import io.polyrag.core.config.Settings;
import io.polyrag.core.port.FullTextStore;
import io.polyrag.core.port.VectorStore;
import io.polyrag.core.spi.FullTextStoreProvider;
import io.polyrag.core.spi.ProviderContext;
import io.polyrag.core.spi.VectorStoreProvider;

/** The embedded Lucene stores, named {@code lucene}; each keeps its index in its own folder of the data directory. */
public final class LuceneProviders {
    private LuceneProviders() {
    }

    /** {@code POLYRAG_VECTOR_BACKEND=lucene}: HNSW in {@code <data>/vector}. */
    public static final class Vector implements VectorStoreProvider {
        @Override
        public String name() {
            return "lucene";
        }

        @Override
        public String description() {
            return "embedded Lucene HNSW index in the data directory";
        }

        @Override
        public VectorStore open(ProviderContext context, int dimension, String modelId) {
            return new LuceneVectorStore(context.dataDir().resolve("vector"), dimension, modelId,
                    context.config().get(Settings.VECTOR_EXACT_THRESHOLD));
        }
    }

    /** {@code POLYRAG_FULLTEXT_BACKEND=lucene}: BM25 in {@code <data>/fulltext}. */
    public static final class FullText implements FullTextStoreProvider {
        @Override
        public String name() {
            return "lucene";
        }

        @Override
        public String description() {
            return "embedded Lucene BM25 index in the data directory";
        }

        @Override
        public FullTextStore open(ProviderContext context) {
            return new LuceneFullTextStore(context.dataDir().resolve("fulltext"),
                    context.config().get(Settings.BM25_K1), context.config().get(Settings.BM25_B));
        }
    }
}
