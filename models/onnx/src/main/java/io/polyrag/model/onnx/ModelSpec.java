package io.polyrag.model.onnx;

import io.polyrag.core.ConfigException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.StreamSupport;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

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
 * @param custom whether the files come from a directory the user gave (their identity is then their content)
 * @param origin where pooling and prefixes came from, for the log
 * @param window the most tokens the model reads (its positions), 0 when its files do not say
 */
record ModelSpec(String name, Origin model, Origin tokenizer, Pooling pooling, String queryPrefix,
        String passagePrefix, boolean custom, String origin, int window) {

    /** How token vectors become one: the first token's, their mean, their element-wise max, the last token's. */
    enum Pooling {
        CLS("cls_token"), MEAN("mean_tokens"), MAX("max_tokens"), LASTTOKEN("lasttoken");

        /** The suffix of its {@code pooling_mode_} key in a sentence-transformers pooling config. */
        final String configKey;

        Pooling(String configKey) {
            this.configKey = configKey;
        }
    }

    /** Opens a model or tokenizer file. */
    interface Origin {
        InputStream open() throws IOException;

        /** The file, when it is one on disk: ONNX Runtime reads it there, with any external data beside it. */
        default Path file() {
            return null;
        }
    }

    private static Origin file(Path path) {
        return new Origin() {
            @Override
            public InputStream open() throws IOException {
                return Files.newInputStream(path);
            }

            @Override
            public Path file() {
                return path;
            }
        };
    }

    /**
     * How the user asked to read a model; null fields mean "as the model says".
     *
     * @param pooling {@code auto}, {@code cls} or {@code mean}
     * @param queryPrefix text before queries, or null
     * @param passagePrefix text before passages, or null
     */
    record Overrides(String pooling, String queryPrefix, String passagePrefix) {
        static final Overrides NONE = new Overrides("auto", null, null);

        boolean any() {
            return !pooling.equals("auto") || queryPrefix != null || passagePrefix != null;
        }
    }

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** Models shipped inside Maven artifacts on the class path: no download, ever. */
    private static final Map<String, ModelSpec> BUNDLED = Map.of(
            "bge-small-en-v1.5-q", bundled("bge-small-en-v1.5-q", Pooling.CLS,
                    "Represent this sentence for searching relevant passages: ", ""));

    static List<String> bundledNames() {
        return BUNDLED.keySet().stream().sorted().toList();
    }

    static ModelSpec resolve(String name, Path dir) {
        return resolve(name, dir, Overrides.NONE);
    }

    /**
     * The model named {@code name}, or a custom model in {@code dir} when one is given. A custom model's pooling and
     * prefixes are read from its sentence-transformers files when it has them ({@code 1_Pooling/config.json},
     * {@code config_sentence_transformers.json}), else mean pooling and no prefixes; {@code overrides} win over both.
     */
    static ModelSpec resolve(String name, Path dir, Overrides overrides) {
        ModelSpec spec = dir != null ? custom(name, dir, overrides) : BUNDLED.get(name);
        if (spec == null) {
            throw new ConfigException("POLYRAG_EMBEDDING_MODEL='" + name + "' is not a bundled model: use one of "
                    + String.join(", ", bundledNames()) + ", or set POLYRAG_EMBEDDING_MODEL_DIR to a directory with "
                    + "model.onnx and tokenizer.json");
        }
        if (!overrides.any()) {
            return spec;
        }
        Pooling pooling = overrides.pooling().equals("auto") ? spec.pooling()
                : Pooling.valueOf(overrides.pooling().toUpperCase(Locale.ROOT));
        return new ModelSpec(spec.name(), spec.model(), spec.tokenizer(), pooling,
                overrides.queryPrefix() == null ? spec.queryPrefix() : overrides.queryPrefix(),
                overrides.passagePrefix() == null ? spec.passagePrefix() : overrides.passagePrefix(), spec.custom(),
                spec.origin() + ", overridden by settings", spec.window());
    }

    /** Whether this is a bundled model read exactly as shipped: its name alone identifies its vectors. */
    boolean asShipped() {
        ModelSpec shipped = BUNDLED.get(name);
        return !custom && shipped != null && shipped.pooling == pooling && shipped.queryPrefix.equals(queryPrefix)
                && shipped.passagePrefix.equals(passagePrefix);
    }

    private static ModelSpec custom(String name, Path dir, Overrides overrides) {
        Path model = dir.resolve("model.onnx");
        Path tokenizer = dir.resolve("tokenizer.json");
        for (Path p : List.of(model, tokenizer)) {
            if (!Files.isReadable(p)) {
                throw new ConfigException("POLYRAG_EMBEDDING_MODEL_DIR=" + dir + " has no readable " + p.getFileName()
                        + ": put the model's ONNX file and tokenizer.json there, or unset it to use a bundled model ("
                        + String.join(", ", bundledNames()) + ")");
            }
        }
        Pooling pooling = Pooling.MEAN;
        String origin = "mean pooling, no prefixes (no sentence-transformers files in " + dir + ")";
        Path poolingFile = dir.resolve("1_Pooling").resolve("config.json");
        if (overrides.pooling().equals("auto") && Files.isRegularFile(poolingFile)) {
            pooling = pooling(poolingFile, read(poolingFile));
            origin = "pooling from " + poolingFile;
        }
        String queryPrefix = "";
        String passagePrefix = "";
        Path promptsFile = dir.resolve("config_sentence_transformers.json");
        boolean prefixesOpen = overrides.queryPrefix() == null || overrides.passagePrefix() == null;
        if (prefixesOpen && Files.isRegularFile(promptsFile)) {
            JsonNode prompts = read(promptsFile).path("prompts");
            queryPrefix = prompts.path("query").asString("");
            passagePrefix = prompts.has("document") ? prompts.path("document").asString("")
                    : prompts.path("passage").asString("");
            origin += ", prompts from " + promptsFile;
        }
        return new ModelSpec(name, file(model), file(tokenizer), pooling,
                queryPrefix, passagePrefix, true, origin, window(dir));
    }

    /**
     * The most tokens a model in {@code dir} reads, from what its files say: its positions ({@code config.json},
     * less the two a RoBERTa-family model keeps for padding), the tokenizer's and sentence-transformers' limits;
     * the smallest of them, or 0 when none says.
     */
    static int window(Path dir) {
        int window = Integer.MAX_VALUE;
        JsonNode config = lenient(dir.resolve("config.json"));
        int positions = config.path("max_position_embeddings").asInt(0);
        if (positions > 0) {
            boolean roberta = config.path("model_type").asString("").contains("roberta")
                    || config.path("model_type").asString("").equals("camembert");
            window = roberta ? positions - 2 : positions;
        }
        long tokenizer = lenient(dir.resolve("tokenizer_config.json")).path("model_max_length").asLong(0);
        if (tokenizer > 0 && tokenizer < 1_000_000) {
            window = (int) Math.min(window, tokenizer);
        }
        int sentence = lenient(dir.resolve("sentence_bert_config.json")).path("max_seq_length").asInt(0);
        if (sentence > 0) {
            window = Math.min(window, sentence);
        }
        return window == Integer.MAX_VALUE ? 0 : window;
    }

    /** A JSON file's object, or an empty one when it is missing or not JSON (its limits are then unknown). */
    private static JsonNode lenient(Path file) {
        try {
            return Files.isRegularFile(file) ? JSON.readTree(Files.readString(file)) : JSON.createObjectNode();
        } catch (IOException | JacksonException e) {
            return JSON.createObjectNode();
        }
    }

    /** The pooling a sentence-transformers pooling config declares; one polyrag cannot do is refused. */
    private static Pooling pooling(Path file, JsonNode config) {
        List<String> asked = StreamSupport.stream(config.properties().spliterator(), false)
                .filter(e -> e.getKey().startsWith("pooling_mode_") && e.getValue().asBoolean(false))
                .map(e -> e.getKey().substring("pooling_mode_".length())).sorted().toList();
        List<Pooling> known = Arrays.stream(Pooling.values()).filter(p -> asked.contains(p.configKey))
                .toList();
        if (asked.size() == 1 && known.size() == 1) {
            return known.getFirst();
        }
        throw new ConfigException(file + " asks for " + (asked.isEmpty() ? "no pooling" : "pooling "
                + String.join(" + ", asked)) + "; polyrag pools with one of cls, mean, max or lasttoken: set "
                + "POLYRAG_EMBEDDING_POOLING if one of them is right for this model");
    }

    private static JsonNode read(Path file) {
        try {
            JsonNode node = JSON.readTree(Files.readString(file));
            if (!node.isObject()) {
                throw new ConfigException(file + " is not a JSON object");
            }
            return node;
        } catch (IOException | JacksonException e) {
            throw new ConfigException(file + " cannot be read as JSON (" + e.getMessage().lines().findFirst()
                    .orElse("") + "): fix or remove it, or set POLYRAG_EMBEDDING_POOLING and the prefixes yourself");
        }
    }

    private static ModelSpec bundled(String name, Pooling pooling, String queryPrefix, String passagePrefix) {
        // bge-small-en-v1.5 reads 512 tokens (BERT's positions).
        return new ModelSpec(name, resource(name + ".onnx"), resource(name + "-tokenizer.json"), pooling, queryPrefix,
                passagePrefix, false, "bundled", 512);
    }

    private static Origin resource(String file) {
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
