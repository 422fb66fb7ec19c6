package io.polyrag.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Small real ONNX models for tests (made by {@code onnx/make.py} beside them), with the bundled BGE model's
 * tokenizer: cross-encoders that score a BERT pair encoding by how many of the passage's word tokens also occur in
 * the query (or by token positions), and an embedding model whose token vectors are [position, token id]. No
 * trained model but the bundled one can be fetched here; these run through ONNX Runtime exactly as one would, and
 * every output they give can be predicted.
 */
public final class TinyOnnxModels {
    /** The models. */
    public enum Model {
        /** logits [batch, 1]: the overlap count. */
        OVERLAP("overlap-1.onnx"),
        /** logits [batch, 2]: [-count, count], the "relevant" column second. */
        OVERLAP_TWO_COLUMNS("overlap-2.onnx"),
        /** takes position_ids too; logits [batch, 1]: the sum of the tokens' positions, n(n-1)/2 for n tokens. */
        POSITIONS("positions.onnx"),
        /** wants an input no encoder export has (past_key_values.0.key). */
        EXTRA_INPUT("extra-input.onnx"),
        /** an embedding model whose token vectors are [position, token id], output [batch, tokens, 2]. */
        TOKENS("tokens.onnx");

        private final String file;

        Model(String file) {
            this.file = file;
        }
    }

    private TinyOnnxModels() {
    }

    /** Writes {@code model.onnx} and {@code tokenizer.json} into {@code dir} and returns it. */
    public static Path install(Path dir, Model model) {
        try {
            Files.createDirectories(dir);
            copy("io/polyrag/testing/onnx/" + model.file, dir.resolve("model.onnx"));
            copy("bge-small-en-v1.5-q-tokenizer.json", dir.resolve("tokenizer.json"));
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void copy(String resource, Path to) throws IOException {
        try (InputStream in = TinyOnnxModels.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is not on the test class path (the tokenizer comes with "
                        + "the bundled BGE model's jar)");
            }
            Files.copy(in, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
