package io.polyrag.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Small real cross-encoders for tests: ONNX models (made by {@code cross-encoder/make.py} beside them) that score a
 * BERT pair encoding by how many of the passage's word tokens also occur in the query (or by token positions), with
 * the bundled BGE model's tokenizer. No trained cross-encoder can be fetched here; these run through ONNX Runtime exactly as one would, and
 * every score they give can be predicted.
 */
public final class CrossEncoders {
    /** The models. */
    public enum Model {
        /** logits [batch, 1]: the overlap count. */
        OVERLAP("overlap-1.onnx"),
        /** logits [batch, 2]: [-count, count], the "relevant" column second. */
        OVERLAP_TWO_COLUMNS("overlap-2.onnx"),
        /** takes position_ids too; logits [batch, 1]: the sum of the tokens' positions, n(n-1)/2 for n tokens. */
        POSITIONS("positions.onnx"),
        /** wants an input no encoder export has (past_key_values.0.key). */
        EXTRA_INPUT("extra-input.onnx");

        private final String file;

        Model(String file) {
            this.file = file;
        }
    }

    private CrossEncoders() {
    }

    /** Writes {@code model.onnx} and {@code tokenizer.json} into {@code dir} and returns it. */
    public static Path install(Path dir, Model model) {
        try {
            Files.createDirectories(dir);
            copy("io/polyrag/testing/cross-encoder/" + model.file, dir.resolve("model.onnx"));
            copy("bge-small-en-v1.5-q-tokenizer.json", dir.resolve("tokenizer.json"));
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void copy(String resource, Path to) throws IOException {
        try (InputStream in = CrossEncoders.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is not on the test class path (the tokenizer comes with "
                        + "the bundled BGE model's jar)");
            }
            Files.copy(in, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
