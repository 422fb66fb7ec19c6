package io.polyrag.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.polyrag.core.UnavailableException;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.StoreHit;
import io.polyrag.core.port.FullTextStore;
import io.polyrag.testing.FullTextStoreContract;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class LuceneFullTextStoreTest extends FullTextStoreContract {
    @Override
    protected FullTextStore openStore(Path dir) {
        return new LuceneFullTextStore(dir.resolve("fulltext"), 0.9, 0.4);
    }

    @Test
    void matches_inflected_forms_through_stemming() {
        FullTextStore store = open();
        store.upsert(List.of(rec("c1", "d1", 1, "kb", "The runners were running through the forests.")));
        assertThat(store.search("forest run", SearchScope.ALL, 5)).extracting(StoreHit::chunkId).containsExactly("c1");
    }

    @Test
    void a_second_writer_on_the_same_directory_is_told_it_is_in_use() {
        open();
        assertThatThrownBy(() -> openStore(dir)).isInstanceOf(UnavailableException.class)
                .hasMessageContaining("already in use");
    }
}
