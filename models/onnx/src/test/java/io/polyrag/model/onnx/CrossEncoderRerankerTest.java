package io.polyrag.model.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.polyrag.core.ConfigException;
import io.polyrag.testing.TinyOnnxModels;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cross-encoder's loading, its scoring and its refusal of wrong models. No trained cross-encoder is published on
 * Maven Central, so the scores are checked with {@link TinyOnnxModels}: real ONNX models that read the pair encoding
 * and count the passage's tokens that occur in the query, so every score is known. The bundled embedding model
 * stands in as a model that is not a cross-encoder.
 */
class CrossEncoderRerankerTest {
    @TempDir
    Path dir;

    @Test
    void a_directory_without_the_model_files_is_refused_with_the_fix() {
        assertThatThrownBy(() -> new CrossEncoderReranker(dir, 512)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("model.onnx").hasMessageContaining("POLYRAG_RERANK_MODEL_DIR");
    }

    @Test
    void the_score_is_the_models_logit_for_the_query_and_passage_read_together() {
        try (CrossEncoderReranker r = new CrossEncoderReranker(TinyOnnxModels.install(dir.resolve("one"),
                TinyOnnxModels.Model.OVERLAP), 512)) {
            // query words: keeper, lighthouse; the passage side is segment B, so "the" counts nowhere
            List<Double> scores = r.score("lighthouse keeper", List.of("the keeper keeper of the lighthouse",
                    "a keeper", "sourdough bread", ""));
            assertThat(scores).hasSize(4);
            assertThat(scores.get(0)).isEqualTo(3.0 + extraPieces(r, "lighthouse"));
            assertThat(scores.get(1)).isEqualTo(1.0);
            assertThat(scores.get(2)).isZero();
            assertThat(scores.get(3)).isZero();
            // the query is segment A: its own words never count for it
            assertThat(r.score("sourdough bread", List.of("lighthouse keeper"))).containsExactly(0.0);
        }
    }

    @Test
    void a_two_column_export_is_read_by_its_relevant_column() {
        try (CrossEncoderReranker one = new CrossEncoderReranker(TinyOnnxModels.install(dir.resolve("one"),
                TinyOnnxModels.Model.OVERLAP), 512);
                CrossEncoderReranker two = new CrossEncoderReranker(TinyOnnxModels.install(dir.resolve("two"),
                        TinyOnnxModels.Model.OVERLAP_TWO_COLUMNS), 512)) {
            List<String> passages = List.of("a keeper", "keeper keeper", "bread");
            assertThat(one.score("keeper", passages)).containsExactly(1.0, 2.0, 0.0);
            // [-c, c]: scored by the log-odds c - (-c), not by the second column alone (which ranks (5, 6) above
            // (-5, 3), though the second is the likelier relevant).
            assertThat(two.score("keeper", passages)).containsExactly(2.0, 4.0, 0.0);
        }
    }

    @Test
    void a_long_pair_is_cut_at_the_models_length_on_the_passage_side() {
        String filler = "bread ".repeat(40);
        try (CrossEncoderReranker r = new CrossEncoderReranker(TinyOnnxModels.install(dir.resolve("one"),
                TinyOnnxModels.Model.OVERLAP), 16)) {
            assertThat(r.score("keeper", List.of("keeper " + filler, filler + "keeper", "keeper")))
                    .containsExactly(1.0, 0.0, 1.0);
        }
    }

    @Test
    void pairs_scored_at_once_on_several_threads_score_as_they_do_one_after_another() {
        Path model = TinyOnnxModels.install(dir.resolve("one"), TinyOnnxModels.Model.OVERLAP);
        List<String> passages = java.util.stream.IntStream.range(0, 40)
                .mapToObj(i -> "keeper ".repeat(i % 7) + "bread ".repeat(i) + (i % 3 == 0 ? "lighthouse" : ""))
                .toList();
        try (CrossEncoderReranker one = new CrossEncoderReranker(model, 64, 1);
                CrossEncoderReranker four = new CrossEncoderReranker(model, 64, 4)) {
            List<Double> expected = one.score("lighthouse keeper", passages);
            assertThat(four.score("lighthouse keeper", passages)).containsExactlyElementsOf(expected);
            assertThat(expected.get(5)).isEqualTo(5.0); // five "keeper", no "lighthouse"
        }
    }

    @Test
    void a_model_that_takes_position_ids_gets_them() {
        try (CrossEncoderReranker r = new CrossEncoderReranker(TinyOnnxModels.install(dir.resolve("pos"),
                TinyOnnxModels.Model.POSITIONS), 512)) {
            // [CLS] keeper [SEP] bread [SEP]: positions 0..4 sum to 10; one more token adds position 5
            assertThat(r.score("keeper", List.of("bread", "bread bread"))).containsExactly(10.0, 15.0);
        }
    }

    @Test
    void a_model_wanting_inputs_an_encoder_does_not_have_is_refused_when_loaded() {
        Path model = TinyOnnxModels.install(dir.resolve("extra"), TinyOnnxModels.Model.EXTRA_INPUT);
        assertThatThrownBy(() -> new CrossEncoderReranker(model, 512)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("past_key_values.0.key").hasMessageContaining("feature-extraction");
    }

    /** Word pieces beyond the first that the tokenizer makes of {@code word} (each counts as a token). */
    private static double extraPieces(CrossEncoderReranker r, String word) {
        return r.score(word, List.of(word)).getFirst() - 1.0;
    }

    @Test
    void an_embedding_model_is_refused_as_not_a_cross_encoder() throws IOException {
        copy("bge-small-en-v1.5-q.onnx", dir.resolve("model.onnx"));
        copy("bge-small-en-v1.5-q-tokenizer.json", dir.resolve("tokenizer.json"));
        try (CrossEncoderReranker r = new CrossEncoderReranker(dir, 128)) {
            assertThatThrownBy(() -> r.score("query", List.of("a passage"))).isInstanceOf(ConfigException.class)
                    .hasMessageContaining("is not a cross-encoder").hasMessageContaining("float[1][");
        }
    }

    private static void copy(String resource, Path to) throws IOException {
        try (InputStream in = CrossEncoderRerankerTest.class.getClassLoader().getResourceAsStream(resource)) {
            Files.copy(in, to);
        }
    }
}
