package io.polyrag.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.port.Embedder;
import java.util.List;
import java.util.stream.IntStream;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The contract every {@link Embedder} passes; one embedder is opened per test class (models are slow to load). */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class EmbedderContract {
    protected Embedder embedder;

    protected abstract Embedder openEmbedder();

    @BeforeAll
    void openOnce() {
        embedder = openEmbedder();
    }

    @AfterAll
    void closeOnce() {
        embedder.close();
    }

    private static double norm(float[] v) {
        double s = 0;
        for (float x : v) {
            s += x * x;
        }
        return Math.sqrt(s);
    }

    @Test
    void vectors_are_unit_length_and_of_the_declared_dimension() {
        float[] q = embedder.embedQuery("how do tides work?");
        List<float[]> ps = embedder.embedPassages(List.of("Tides are caused by the moon.", ""));
        for (float[] v : List.of(q, ps.get(0), ps.get(1))) {
            assertThat(v).hasSize(embedder.dimension());
        }
        assertThat(norm(q)).isCloseTo(1.0, Offset.offset(1e-4));
        assertThat(norm(ps.getFirst())).isCloseTo(1.0, Offset.offset(1e-4));
    }

    @Test
    void similar_meanings_are_closer_than_unrelated_ones() {
        List<float[]> v = embedder.embedPassages(List.of("A cat is sleeping on the sofa.",
                "A kitten naps on the couch.", "Quarterly revenue grew by five percent."));
        assertThat(Seeded.cosine(v.get(0), v.get(1))).isGreaterThan(Seeded.cosine(v.get(0), v.get(2)) + 0.1);
        float[] query = embedder.embedQuery("where is the cat sleeping?");
        assertThat(Seeded.cosine(query, v.get(0))).isGreaterThan(Seeded.cosine(query, v.get(2)));
    }

    @Test
    void a_text_gets_the_same_vector_alone_or_among_many() {
        List<String> texts = IntStream.range(0, 12).mapToObj(i -> "Passage number " + i + " about topic " + (i * 7))
                .toList();
        List<float[]> together = embedder.embedPassages(texts);
        for (int i = 0; i < texts.size(); i++) {
            assertThat(embedder.embedPassages(List.of(texts.get(i))).getFirst()).containsExactly(together.get(i));
        }
    }

    @Test
    void text_longer_than_the_window_is_truncated_not_refused() {
        String longText = "word ".repeat(20_000);
        assertThat(embedder.embedPassages(List.of(longText)).getFirst()).hasSize(embedder.dimension());
        assertThat(embedder.tokenCounter().count(longText)).isGreaterThan(embedder.maxTokens());
    }

    @Test
    void the_token_counter_counts_without_special_tokens() {
        assertThat(embedder.tokenCounter().count("")).isZero();
        int one = embedder.tokenCounter().count("hello");
        assertThat(one).isPositive();
        assertThat(embedder.tokenCounter().count("hello hello hello")).isEqualTo(3 * one);
        assertThat(embedder.modelId()).isNotBlank();
    }
}
