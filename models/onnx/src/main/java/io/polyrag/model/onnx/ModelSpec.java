package io.polyrag.model.onnx;

import io.polyrag.core.ConfigException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * An embedding model: where its ONNX graph and tokenizer are, how to pool token vectors into one, and what to put
 * before a query or a passage.
 *
 * @param name the name users configure
 * @param model opens the ONNX file
 * @param tokenizer opens the tokenizer.json
 * @param pooling how token vectors become one
 * @param queryPrefix text put before every query (an instruction, or {@code "query: "})
 * @param passagePrefix text put before every passage
 */
record ModelSpec(String name, Source model, Source tokenizer, Pooling pooling, String queryPrefix,
        String passagePrefix) {

    enum Pooling { CLS, MEAN }

    /** Opens a model or tokenizer file. */
    interface Source {
        InputStream open() throws IOException;
    }

    /** Models shipped inside Maven artifacts on the class path: no download, ever. */
    private static final Map<String, ModelSpec> BUNDLED = Map.of(
            "bge-small-en-v1.5-q", bundled("bge-small-en-v1.5-q", Pooling.CLS,
                    "Represent this sentence for searching relevant passages: ", ""));

    static List<String> bundledNames() {
        return BUNDLED.keySet().stream().sorted().toList();
    }

    /** The model named {@code name}, or a custom model in {@code dir} when one is given. */
    static ModelSpec resolve(String name, Path dir) {
        if (dir != null) {
            Path model = dir.resolve("model.onnx");
            Path tokenizer = dir.resolve("tokenizer.json");
            for (Path p : List.of(model, tokenizer)) {
                if (!Files.isReadable(p)) {
                    throw new ConfigException("POLYRAG_EMBEDDING_MODEL_DIR=" + dir + " has no readable " + p.getFileName()
                            + ": put the model's ONNX file and tokenizer.json there, or unset it to use a bundled model ("
                            + String.join(", ", bundledNames()) + ")");
                }
            }
            return new ModelSpec(name, () -> Files.newInputStream(model), () -> Files.newInputStream(tokenizer),
                    Pooling.MEAN, "", "");
        }
        ModelSpec spec = BUNDLED.get(name);
        if (spec == null) {
            throw new ConfigException("POLYRAG_EMBEDDING_MODEL='" + name + "' is not a bundled model: use one of "
                    + String.join(", ", bundledNames()) + ", or set POLYRAG_EMBEDDING_MODEL_DIR to a directory with "
                    + "model.onnx and tokenizer.json");
        }
        return spec;
    }

    private static ModelSpec bundled(String name, Pooling pooling, String queryPrefix, String passagePrefix) {
        return new ModelSpec(name, resource(name + ".onnx"), resource(name + "-tokenizer.json"), pooling, queryPrefix,
                passagePrefix);
    }

    private static Source resource(String file) {
        return () -> {
            InputStream in = ModelSpec.class.getClassLoader().getResourceAsStream(file);
            if (in == null) {
                throw new ConfigException("the bundled model file " + file + " is not on the class path: the "
                        + "distribution is incomplete; rebuild it with ./mvnw package");
            }
            return in;
        };
    }
}
