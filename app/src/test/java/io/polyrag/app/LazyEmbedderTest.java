package io.polyrag.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.polyrag.core.ConfigException;
import io.polyrag.core.port.Embedder;
import io.polyrag.core.port.TokenCounter;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LazyEmbedderTest {
    /** A model that loads, of the recorded id and dimension. */
    private static final class Tiny implements Embedder {
        @Override
        public String modelId() {
            return "tiny";
        }

        @Override
        public int dimension() {
            return 2;
        }

        @Override
        public int maxTokens() {
            return 8;
        }

        @Override
        public TokenCounter tokenCounter() {
            return String::length;
        }

        @Override
        public float[] embedQuery(String query) {
            return new float[] {1, 0};
        }

        @Override
        public List<float[]> embedPassages(List<String> passages) {
            return passages.stream().map(this::embedQuery).toList();
        }

        @Override
        public void close() {
        }
    }

    /** A load that failed is answered from memory for a while, then tried again: not a second's load per search. */
    @Test
    void a_failed_load_is_not_tried_again_at_every_call_but_is_after_a_while() throws Exception {
        AtomicInteger loads = new AtomicInteger();
        LazyEmbedder lazy = new LazyEmbedder(() -> {
            if (loads.incrementAndGet() <= 1) {
                throw new ConfigException("the model file model.onnx is damaged");
            }
            return new Tiny();
        }, e -> { }, () -> { }, "tiny", 2, 8);
        Throwable first = null;
        for (int i = 0; i < 5; i++) {
            Throwable t = org.assertj.core.api.Assertions.catchThrowable(() -> lazy.embedQuery("tides"));
            assertThat(t).isInstanceOf(ConfigException.class).hasMessageContaining("damaged");
            assertThat(t).as("a new one each time: callers add to what they catch").isNotSameAs(first);
            first = first == null ? t : first;
        }
        assertThat(loads.get()).as("loaded once, failed once").isEqualTo(1);
        lazy.retryNanos = TimeUnit.MILLISECONDS.toNanos(50);
        Thread.sleep(60);
        assertThat(lazy.embedQuery("tides")).containsExactly(1, 0);
        assertThat(loads.get()).isEqualTo(2);
        assertThat(lazy.isLoaded()).isTrue();
        lazy.close();
    }
}
