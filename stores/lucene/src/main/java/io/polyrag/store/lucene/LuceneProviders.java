package io.polyrag.store.lucene;

import io.polyrag.core.config.Settings;
import io.polyrag.core.port.FullTextStore;
import io.polyrag.core.port.VectorStore;
import io.polyrag.core.spi.FullTextStoreProvider;
import io.polyrag.core.spi.ProviderContext;
import io.polyrag.core.spi.VectorStoreProvider;
import java.nio.file.Files;
import java.nio.file.Path;

/** The embedded Lucene stores, named {@code lucene}; each keeps its index in its own folder of the data directory. */
public final class LuceneProviders {
    private LuceneProviders() {
    }

    /**
     * {@code POLYRAG_VECTOR_BACKEND=lucene}: HNSW in {@code <data>/vector}, or, when that folder holds another
     * model's vectors, in {@code <data>/vectors/<model>-<dimension>}: each model has an index of its own, so a
     * change of model starts an empty index (to back-fill with {@code polyrag reindex}) and leaves the old one whole.
     */
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
            Path first = context.dataDir().resolve("vector");
            Path own = context.dataDir().resolve("vectors").resolve(folderName(modelId) + "-"
                    + dimension);
            // A model that has a folder of its own keeps it (even when the first folder was emptied or deleted).
            Path path = Files.isDirectory(own)
                    || LuceneVectorStore.holdsOtherModel(first, dimension, modelId) ? own : first;
            return new LuceneVectorStore(path, dimension, modelId,
                    context.config().get(Settings.VECTOR_EXACT_THRESHOLD),
                    LuceneVectorStore.Quantization.of(context.config().get(Settings.VECTOR_QUANTIZATION)));
        }

        /** A folder name for a model id (a name or a path): its safe characters and a hash of the whole. */
        static String folderName(String modelId) {
            String safe = modelId.replaceAll("[^A-Za-z0-9._-]+", "_");
            safe = safe.length() > 60 ? safe.substring(safe.length() - 60) : safe;
            return safe + "-" + Integer.toHexString(modelId.hashCode());
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
