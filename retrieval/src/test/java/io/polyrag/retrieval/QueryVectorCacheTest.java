package io.polyrag.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.polyrag.testing.StubEmbedder;
import java.util.List;
import org.junit.jupiter.api.Test;

class QueryVectorCacheTest {
    /** A text's vector: its length and first character. */
    private static StubEmbedder model() {
        return new StubEmbedder(2, t -> new float[] {t.length(), t.isEmpty() ? 0 : t.charAt(0)});
    }

    @Test
    void a_query_asked_again_is_not_embedded_again_and_its_vector_cannot_be_changed_by_a_caller() {
        StubEmbedder model = model();
        QueryVectorCache cache = new QueryVectorCache(model, 10);
        float[] first = cache.embedQuery("tide pools");
        first[0] = -1;
        assertThat(cache.embedQuery("tide pools")).containsExactly(10f, 't');
        assertThat(cache.embedQuery("tide pools")).containsExactly(10f, 't');
        assertThat(model.queries).containsExactly("tide pools");
        assertThat(cache.embedQuery("Tide pools")).as("the exact text is the key").containsExactly(10f, 'T');
        assertThat(cache.hits()).isEqualTo(2);
        assertThat(cache.misses()).isEqualTo(2);
    }

    @Test
    void the_least_recently_used_query_goes_first_when_the_cache_is_full() {
        StubEmbedder model = model();
        QueryVectorCache cache = new QueryVectorCache(model, 2);
        cache.embedQuery("a");
        cache.embedQuery("b");
        cache.embedQuery("a");
        cache.embedQuery("c");
        model.queries.clear();
        cache.embedQuery("a");
        cache.embedQuery("c");
        cache.embedQuery("b");
        assertThat(model.queries).as("b, used least recently, was dropped for c").containsExactly("b");
    }

    @Test
    void passages_and_very_long_queries_always_go_to_the_model() {
        StubEmbedder model = model();
        QueryVectorCache cache = new QueryVectorCache(model, 10);
        cache.embedPassages(List.of("x", "y"));
        cache.embedPassages(List.of("x"));
        assertThat(model.passages).containsExactly("x", "y", "x");
        assertThat(cache.embedPassages(List.of("abc")).getFirst()).containsExactly(3f, 'a');
        String longQuery = "w".repeat(QueryVectorCache.MAX_KEY_CHARS + 1);
        cache.embedQuery(longQuery);
        cache.embedQuery(longQuery);
        assertThat(model.queries).hasSize(2);
        assertThat(cache.modelId()).isEqualTo("stub");
        assertThat(cache.dimension()).isEqualTo(2);
        assertThatThrownBy(() -> new QueryVectorCache(model, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
