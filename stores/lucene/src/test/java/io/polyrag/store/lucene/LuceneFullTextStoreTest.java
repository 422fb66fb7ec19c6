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
    void searches_score_with_the_configured_bm25_parameters() {
        // k1 0 ignores term frequency and b 0 ignores length: both chunks must score the same. Lucene's default
        // (k1 1.2, b 0.75) would rank the short one first.
        try (FullTextStore store = new LuceneFullTextStore(dir.resolve("flat"), 0.0, 0.0)) {
            store.upsert(List.of(rec("short", "d1", 1, "kb", "apple"),
                    rec("long", "d2", 1, "kb", "apple apple apple banana cherry date elderberry fig grape")));
            List<StoreHit> hits = store.search("apple", SearchScope.ALL, 5);
            assertThat(hits).hasSize(2);
            assertThat(hits.get(0).score()).isEqualTo(hits.get(1).score());
        }
        try (FullTextStore store = new LuceneFullTextStore(dir.resolve("normed"), 1.2, 1.0)) {
            store.upsert(List.of(rec("short", "d1", 1, "kb", "apple"),
                    rec("long", "d2", 1, "kb", "apple banana cherry date elderberry fig grape")));
            assertThat(store.search("apple", SearchScope.ALL, 5)).extracting(StoreHit::chunkId)
                    .containsExactly("short", "long");
        }
    }

    @Test
    void a_second_writer_on_the_same_directory_is_told_it_is_in_use() {
        open();
        assertThatThrownBy(() -> openStore(dir)).isInstanceOf(UnavailableException.class)
                .hasMessageContaining("already in use");
    }
}
