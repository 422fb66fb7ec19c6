package io.polyrag.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.config.Config;
import io.polyrag.core.port.Embedder;
import io.polyrag.model.onnx.OnnxEmbedderProvider;
import io.polyrag.store.catalog.H2CatalogProvider;
import io.polyrag.store.catalog.JdbcCatalog;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cache in front of the real model, over the real catalog database. */
class CachingEmbedderTest {
    @TempDir
    Path dir;

    /** The real embedder, recording which passages reach the model. */
    private static final class Recording extends io.polyrag.core.port.ForwardingEmbedder {
        private final List<String> seen;

        Recording(Embedder real, List<String> seen) {
            super(real);
            this.seen = seen;
        }

        @Override
        public List<float[]> embedPassages(List<String> passages) {
            seen.addAll(passages);
            return delegate.embedPassages(passages);
        }
    }

    @Test
    void text_embedded_once_is_not_embedded_again_even_after_a_restart() {
        List<String> seen = new ArrayList<>();
        try (Embedder real = OnnxEmbedderProvider.open(Config.defaults(Map.of()))) {
            List<float[]> first;
            try (JdbcCatalog catalog = H2CatalogProvider.open(dir)) {
                CachingEmbedder cached = new CachingEmbedder(new Recording(real, seen), catalog.embeddingCache());
                first = cached.embedPassages(List.of("alpha passage", "beta passage", "alpha passage"));
                assertThat(seen).containsExactly("alpha passage", "beta passage");
                assertThat(first.get(0)).containsExactly(first.get(2));
            }
            seen.clear();
            try (JdbcCatalog catalog = H2CatalogProvider.open(dir)) {
                CachingEmbedder cached = new CachingEmbedder(new Recording(real, seen), catalog.embeddingCache());
                List<float[]> again = cached.embedPassages(List.of("beta passage", "gamma passage", "alpha passage"));
                assertThat(seen).containsExactly("gamma passage");
                assertThat(again.get(0)).containsExactly(first.get(1));
                assertThat(again.get(2)).containsExactly(first.get(0));
                assertThat(again.get(1)).containsExactly(real.embedPassages(List.of("gamma passage")).getFirst());
            }
        }
    }

    /** A vector the model overflowed on is not kept: cached, it failed every later ingest of that text. */
    @Test
    void a_vector_that_is_not_all_numbers_is_never_cached() {
        List<String> seen = new ArrayList<>();
        try (Embedder real = OnnxEmbedderProvider.open(Config.defaults(Map.of()));
                JdbcCatalog catalog = H2CatalogProvider.open(dir)) {
            Embedder overflowing = new io.polyrag.core.port.ForwardingEmbedder(new Recording(real, seen)) {
                @Override
                public List<float[]> embedPassages(List<String> passages) {
                    List<float[]> out = new ArrayList<>();
                    for (float[] v : delegate.embedPassages(passages)) {
                        float[] copy = v.clone();
                        copy[0] = Float.NaN;
                        out.add(copy);
                    }
                    return out;
                }
            };
            CachingEmbedder cached = new CachingEmbedder(overflowing, catalog.embeddingCache());
            cached.embedPassages(List.of("delta passage"));
            cached.embedPassages(List.of("delta passage"));
            assertThat(seen).as("asked again, not served from the cache").containsExactly("delta passage",
                    "delta passage");
        }
    }
}
