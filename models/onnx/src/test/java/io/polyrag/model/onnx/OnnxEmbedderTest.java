package io.polyrag.model.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.polyrag.core.ConfigException;
import io.polyrag.core.config.Config;
import io.polyrag.core.port.Embedder;
import io.polyrag.testing.EmbedderContract;
import io.polyrag.testing.Seeded;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OnnxEmbedderTest extends EmbedderContract {
    @Override
    protected Embedder openEmbedder() {
        return OnnxEmbedderProvider.open(Config.defaults(Map.of()));
    }

    @Test
    void the_bundled_default_is_bge_small_with_384_dimensions() {
        assertThat(embedder.modelId()).isEqualTo("bge-small-en-v1.5-q");
        assertThat(embedder.dimension()).isEqualTo(384);
    }

    @Test
    void queries_carry_the_model_instruction_so_they_differ_from_the_same_text_as_a_passage() {
        String text = "effects of vitamin D on bone density";
        assertThat(Seeded.cosine(embedder.embedQuery(text), embedder.embedPassages(List.of(text)).getFirst()))
                .isLessThan(0.999);
    }

    /** A model with a window longer than 512 tokens reads as many as POLYRAG_EMBEDDING_MAX_TOKENS says. */
    @Test
    void the_tokenizer_cuts_at_the_configured_length_not_at_512() throws Exception {
        try (var in = ModelSpec.resolve("bge-small-en-v1.5-q", null).tokenizer().open();
                var tokenizer = ai.djl.huggingface.tokenizers.HuggingFaceTokenizer.newInstance(in,
                        OnnxEmbedder.truncating(1024))) {
            assertThat(tokenizer.encode("word ".repeat(3000)).getIds()).hasSize(1024);
        }
    }

    @Test
    void an_unknown_model_name_lists_the_bundled_ones() {
        assertThatThrownBy(() -> OnnxEmbedderProvider.open(Config.defaults(Map.of("embedding.model", "nope"))))
                .isInstanceOf(ConfigException.class).hasMessageContaining("POLYRAG_EMBEDDING_MODEL='nope'")
                .hasMessageContaining("bge-small-en-v1.5-q");
    }

    @Test
    void a_custom_model_directory_without_its_files_is_refused_with_the_fix(@TempDir Path dir) {
        assertThatThrownBy(() -> OnnxEmbedderProvider.open(Config.defaults(Map.of("embedding.model.dir",
                dir.toString())))).isInstanceOf(ConfigException.class).hasMessageContaining("model.onnx")
                .hasMessageContaining("tokenizer.json");
    }
}
