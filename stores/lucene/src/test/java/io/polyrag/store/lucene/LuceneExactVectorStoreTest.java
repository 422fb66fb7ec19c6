package io.polyrag.store.lucene;

import io.polyrag.core.port.VectorStore;
import io.polyrag.testing.VectorStoreContract;
import java.nio.file.Path;

/** The same contract, with the store small enough to be scanned exactly instead of searched through HNSW. */
class LuceneExactVectorStoreTest extends VectorStoreContract {
    @Override
    protected VectorStore openStore(Path dir, int dimension) {
        return new LuceneVectorStore(dir.resolve("vector"), dimension, "test-model", 1_000_000);
    }
}
