package io.polyrag.model.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.polyrag.core.ConfigException;
import io.polyrag.core.config.Config;
import io.polyrag.core.port.Embedder;
import io.polyrag.testing.Seeded;
import io.polyrag.testing.TinyOnnxModels;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A model from a directory, read the way sentence-transformers exports describe it. The bundled BGE files, copied
 * into a directory, are the custom model: read with its own pooling (CLS) and instruction it must give exactly the
 * bundled model's vectors; read otherwise, other vectors under another identity.
 */
class CustomModelDirTest {
    static final String INSTRUCTION = "Represent this sentence for searching relevant passages: ";
    static final String QUERY = "effects of vitamin D on bone density";
    static final String PASSAGE = "Vitamin D supplements raised bone mineral density in older adults.";

    @TempDir
    Path dir;

    @BeforeEach
    void copyTheModel() throws IOException {
        copy("bge-small-en-v1.5-q.onnx", dir.resolve("model.onnx"));
        copy("bge-small-en-v1.5-q-tokenizer.json", dir.resolve("tokenizer.json"));
    }

    @Test
    void the_sentence_transformers_files_give_the_models_own_pooling_and_prompts() throws IOException {
        Files.createDirectories(dir.resolve("1_Pooling"));
        Files.writeString(dir.resolve("1_Pooling/config.json"), """
                {"word_embedding_dimension": 384, "pooling_mode_cls_token": true, "pooling_mode_mean_tokens": false,
                 "pooling_mode_max_tokens": false, "pooling_mode_mean_sqrt_len_tokens": false}""");
        Files.writeString(dir.resolve("config_sentence_transformers.json"), """
                {"prompts": {"query": "%s", "document": ""}, "default_prompt_name": null}""".formatted(INSTRUCTION));
        try (Embedder bundled = open(Map.of()); Embedder custom = open(Map.of("embedding.model.dir", dir.toString()))) {
            assertSameVectors(bundled, custom);
            assertThat(custom.modelId()).startsWith("bge-small-en-v1.5-q@").isNotEqualTo(bundled.modelId());
        }
    }

    /** Past its positions the model failed every long text's run, and every document of its batch with it. */
    @Test
    void a_token_window_past_what_the_model_reads_is_refused_at_start() throws IOException {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> open(Map.of("embedding.max.tokens", "1024")))
                .isInstanceOf(io.polyrag.core.ConfigException.class)
                .hasMessageContaining("POLYRAG_EMBEDDING_MAX_TOKENS=1024").hasMessageContaining("512 tokens");
        Files.writeString(dir.resolve("config.json"), "{\"model_type\": \"xlm-roberta\", \"max_position_embeddings\": 514}");
        assertThat(ModelSpec.window(dir)).isEqualTo(512);
        Files.writeString(dir.resolve("sentence_bert_config.json"), "{\"max_seq_length\": 256}");
        Files.writeString(dir.resolve("tokenizer_config.json"), "{\"model_max_length\": 1000000000000000019884624838656}");
        assertThat(ModelSpec.window(dir)).as("the smallest limit said; a tokenizer's 'no limit' ignored").isEqualTo(256);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> open(Map.of("embedding.model.dir", dir.toString(),
                "embedding.max.tokens", "512"))).hasMessageContaining("(256 tokens)");
        try (Embedder ok = open(Map.of("embedding.model.dir", dir.toString(), "embedding.max.tokens", "256"))) {
            assertThat(ok.dimension()).isEqualTo(384);
        }
        Files.delete(dir.resolve("config.json"));
        Files.delete(dir.resolve("sentence_bert_config.json"));
        Files.delete(dir.resolve("tokenizer_config.json"));
        assertThat(ModelSpec.window(dir)).as("nothing said: unknown").isZero();
    }

    /** A git-lfs pointer cloned in place of a file was a stack trace naming neither the file nor the setting. */
    @Test
    void a_file_that_is_not_what_it_should_be_is_named_with_the_setting() throws IOException {
        String pointer = "version https://git-lfs.github.com/spec/v1\noid sha256:0123\nsize 90868376\n";
        Files.writeString(dir.resolve("tokenizer.json"), pointer);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> open(Map.of("embedding.model.dir", dir.toString())))
                .isInstanceOf(io.polyrag.core.ConfigException.class).hasMessageContaining("POLYRAG_EMBEDDING_MODEL_DIR")
                .hasMessageContaining("tokenizer.json");
        Files.delete(dir.resolve("tokenizer.json"));
        copy("bge-small-en-v1.5-q-tokenizer.json", dir.resolve("tokenizer.json"));
        Files.writeString(dir.resolve("model.onnx"), pointer);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> open(Map.of("embedding.model.dir", dir.toString())))
                .isInstanceOf(io.polyrag.core.ConfigException.class).hasMessageContaining("POLYRAG_EMBEDDING_MODEL_DIR")
                .hasMessageContaining("model.onnx");
    }

    @Test
    void settings_override_what_the_directory_says_or_lacks() {
        try (Embedder bundled = open(Map.of()); Embedder custom = open(Map.of("embedding.model.dir", dir.toString(),
                "embedding.pooling", "cls", "embedding.query.prefix", INSTRUCTION))) {
            assertSameVectors(bundled, custom);
        }
    }

    @Test
    void without_those_files_it_pools_by_mean_under_an_identity_of_its_own() {
        try (Embedder cls = open(Map.of("embedding.model.dir", dir.toString(), "embedding.pooling", "cls"));
                Embedder mean = open(Map.of("embedding.model.dir", dir.toString()))) {
            float[] a = cls.embedPassages(List.of(PASSAGE)).getFirst();
            float[] b = mean.embedPassages(List.of(PASSAGE)).getFirst();
            assertThat(Seeded.cosine(a, b)).isLessThan(0.999);
            // no prefix: the query is embedded as the same text would be as a passage
            assertThat(Seeded.cosine(mean.embedQuery(QUERY), mean.embedPassages(List.of(QUERY)).getFirst()))
                    .isGreaterThan(0.9999);
            // same files, other pooling: other vectors, so another id for the cache and the stores
            assertThat(mean.modelId()).isNotEqualTo(cls.modelId());
        }
    }

    @Test
    void a_bundled_model_read_another_way_is_not_known_by_its_bare_name() {
        try (Embedder noInstruction = open(Map.of("embedding.query.prefix", ""))) {
            assertThat(noInstruction.modelId()).startsWith("bge-small-en-v1.5-q@");
        }
    }

    @Test
    void a_pooling_polyrag_cannot_do_or_an_unreadable_file_is_refused_with_the_fix() throws IOException {
        Files.createDirectories(dir.resolve("1_Pooling"));
        Files.writeString(dir.resolve("1_Pooling/config.json"), """
                {"pooling_mode_cls_token": false, "pooling_mode_mean_tokens": false,
                 "pooling_mode_mean_sqrt_len_tokens": true}""");
        Map<String, String> settings = Map.of("embedding.model.dir", dir.toString());
        assertThatThrownBy(() -> open(settings)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("pooling mean_sqrt_len_tokens").hasMessageContaining("POLYRAG_EMBEDDING_POOLING");
        Map<String, String> chosen = new HashMap<>(settings);
        chosen.put("embedding.pooling", "mean");
        try (Embedder e = open(chosen)) {
            assertThat(e.dimension()).isEqualTo(384);
        }
        Files.writeString(dir.resolve("config_sentence_transformers.json"), "{\"prompts\": ");
        assertThatThrownBy(() -> open(chosen)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("config_sentence_transformers.json").hasMessageContaining("cannot be read");
    }

    @Test
    void a_model_wanting_inputs_an_encoder_does_not_have_is_refused_naming_them() throws IOException {
        Path other = dir.resolve("decoder");
        TinyOnnxModels.install(other, TinyOnnxModels.Model.EXTRA_INPUT);
        assertThatThrownBy(() -> open(Map.of("embedding.model.dir", other.toString())))
                .isInstanceOf(ConfigException.class).hasMessageContaining("past_key_values.0.key")
                .hasMessageContaining("input_ids, attention_mask, token_type_ids, position_ids");
    }

    /** A cross-encoder's directory given as the embedding model loaded as a one-number "embedder": every text alike. */
    @Test
    void a_cross_encoder_given_as_the_embedding_model_is_refused_naming_where_it_goes() {
        for (TinyOnnxModels.Model m : List.of(TinyOnnxModels.Model.POSITIONS, TinyOnnxModels.Model.OVERLAP_TWO_COLUMNS)) {
            Path scorer = TinyOnnxModels.install(dir.resolve(m.name()), m);
            assertThatThrownBy(() -> open(Map.of("embedding.model.dir", scorer.toString())))
                    .isInstanceOf(ConfigException.class).hasMessageContaining("cross-encoder")
                    .hasMessageContaining("POLYRAG_RERANK_MODEL_DIR");
        }
    }

    @Test
    void each_pooling_takes_the_token_vectors_it_names() throws IOException {
        // token vectors [position, token id]: [CLS] keeper [SEP] at positions 0, 1, 2
        Path tokens = TinyOnnxModels.install(dir.resolve("tokens"), TinyOnnxModels.Model.TOKENS);
        long keeper;
        try (var tokenizer = ai.djl.huggingface.tokenizers.HuggingFaceTokenizer.newInstance(
                tokens.resolve("tokenizer.json"))) {
            long[] ids = tokenizer.encode("keeper").getIds();
            assertThat(ids).hasSize(3).startsWith(101).endsWith(102);
            keeper = ids[1];
        }
        Map<String, float[]> expected = Map.of("cls", new float[] {0, 101}, "lasttoken", new float[] {2, 102},
                "mean", new float[] {1, (101 + keeper + 102) / 3f}, "max", new float[] {2, Math.max(keeper, 102)});
        for (var e : expected.entrySet()) {
            try (Embedder m = open(Map.of("embedding.model.dir", tokens.toString(), "embedding.pooling", e.getKey()))) {
                assertDirection(m.embedPassages(List.of("keeper")).getFirst(), e.getValue(), e.getKey());
            }
        }
        Files.createDirectories(tokens.resolve("1_Pooling"));
        Files.writeString(tokens.resolve("1_Pooling/config.json"), "{\"pooling_mode_lasttoken\": true}");
        try (Embedder m = open(Map.of("embedding.model.dir", tokens.toString()))) {
            assertDirection(m.embedPassages(List.of("keeper")).getFirst(), new float[] {2, 102}, "from the file");
        }
    }

    /** A unit vector pointing where {@code expected} does: the ratio of its two parts, to 0.01%. */
    private static void assertDirection(float[] actual, float[] expected, String pooling) {
        assertThat(Math.hypot(actual[0], actual[1])).as(pooling)
                .isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-6));
        assertThat((double) actual[0] / actual[1]).as(pooling)
                .isCloseTo((double) expected[0] / expected[1], org.assertj.core.data.Percentage.withPercentage(0.01));
    }

    /**
     * A model whose weights are in an external data file beside it (as exports over 2 GB are) loads from its path: it
     * was read into memory, where ONNX Runtime cannot find the data file. It also pools inside its graph: its one
     * output is a vector per text. The data file is part of its identity.
     */
    @Test
    void a_model_with_external_data_and_its_own_pooling_loads_and_the_data_is_in_its_identity() throws IOException {
        Path ext = Files.createDirectories(dir.resolve("external"));
        copy("bge-small-en-v1.5-q-tokenizer.json", ext.resolve("tokenizer.json"));
        copy("io/polyrag/model/onnx/external/model.onnx", ext.resolve("model.onnx"));
        copy("io/polyrag/model/onnx/external/model.onnx_data", ext.resolve("model.onnx_data"));
        String id;
        try (Embedder e = open(Map.of("embedding.model.dir", ext.toString()))) {
            assertThat(e.dimension()).isEqualTo(3);
            float[] v = e.embedPassages(List.of("keeper of the light")).getFirst();
            assertThat(v).containsExactly(new float[] {1f / 3, 2f / 3, 2f / 3}, org.assertj.core.data.Offset.offset(
                    1e-6f));
            id = e.modelId();
        }
        byte[] data = Files.readAllBytes(ext.resolve("model.onnx_data"));
        data[3] ^= 1; // another weight
        Files.write(ext.resolve("model.onnx_data"), data);
        try (Embedder e = open(Map.of("embedding.model.dir", ext.toString()))) {
            assertThat(e.modelId()).isNotEqualTo(id);
        }
    }

    private static void assertSameVectors(Embedder expected, Embedder actual) {
        assertThat(Seeded.cosine(expected.embedQuery(QUERY), actual.embedQuery(QUERY))).isGreaterThan(0.99999);
        assertThat(Seeded.cosine(expected.embedPassages(List.of(PASSAGE)).getFirst(),
                actual.embedPassages(List.of(PASSAGE)).getFirst())).isGreaterThan(0.99999);
    }

    private static Embedder open(Map<String, String> settings) {
        return OnnxEmbedderProvider.open(Config.defaults(settings));
    }

    private static void copy(String resource, Path to) throws IOException {
        try (InputStream in = CustomModelDirTest.class.getClassLoader().getResourceAsStream(resource)) {
            Files.copy(in, to);
        }
    }
}
