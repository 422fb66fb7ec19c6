package io.polyrag.model.onnx;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.polyrag.core.ConfigException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cross-encoder's loading and its refusal of wrong models. No cross-encoder is published on Maven Central, so
 * none can be fetched here to check scores; the bundled embedding model stands in as a model that is not one.
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
