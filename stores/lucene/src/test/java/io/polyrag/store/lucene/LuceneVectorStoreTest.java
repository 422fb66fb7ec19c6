package io.polyrag.store.lucene;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.polyrag.core.ConfigException;
import io.polyrag.core.port.VectorStore;
import io.polyrag.testing.VectorStoreContract;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class LuceneVectorStoreTest extends VectorStoreContract {
    @Override
    protected VectorStore openStore(Path dir, int dimension) {
        return new LuceneVectorStore(dir.resolve("vector"), dimension, "test-model");
    }

    @Test
    void refuses_to_open_an_index_built_by_another_model() {
        new LuceneVectorStore(dir.resolve("vector"), DIM, "test-model").close();
        assertThatThrownBy(() -> new LuceneVectorStore(dir.resolve("vector"), 384, "other-model"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("test-model").hasMessageContaining("other-model")
                .hasMessageContaining("re-ingest");
    }
}
