package io.polyrag.model.onnx;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import io.polyrag.core.ConfigException;
import io.polyrag.core.InFlight;
import io.polyrag.core.PolyragException;
import io.polyrag.core.port.Embedder;
import io.polyrag.core.port.TokenCounter;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.stream.Stream;

/**
 * Runs an embedding model in-process with ONNX Runtime.
 *
 * <p>Threading: one ONNX session, itself single-threaded (one intra-op thread), shared by a pool of
 * {@code threads} platform threads that each embed one text at a time. Measured on a 2-core machine this beats both
 * ORT's own thread pool (which collapses under contention) and batching, which for the int8 models also changes the
 * vectors: their dynamic quantisation range is taken over the whole batch, so a text's vector would depend on its
 * batch-mates. One text per run keeps every vector a function of its text alone.
 */
public final class OnnxEmbedder implements Embedder {
    private static final System.Logger LOG = System.getLogger(OnnxEmbedder.class.getName());
    private final ModelSpec spec;
    private final int maxTokens;
    private final OrtEnvironment env;
    private final OrtSession session;
    private final HuggingFaceTokenizer tokenizer;
    private final HuggingFaceTokenizer counter;
    private final ExecutorService pool;
    /** Model and tokenizer runs in flight: closing waits for them before freeing native memory. */
    private final InFlight inFlight = new InFlight("the embedding model");
    private final int dimension;
    private final EncoderInputs inputs;
    private final String modelId;

    // style: the model's session options and its checks, in the order ONNX Runtime needs them
    OnnxEmbedder(ModelSpec spec, int maxTokens, int threads) {
        Offline.ensure();
        this.spec = spec;
        this.maxTokens = maxTokens;
        try {
            // The model (ONNX Runtime's native library, 34 MB read from its jar, the session) loads on another
            // thread while the tokenizers (their native library) load here: each is about half of a load.
            CompletableFuture<Object[]> loading = CompletableFuture
                    .supplyAsync(() -> {
                        try {
                            OrtEnvironment environment = OrtEnvironment.getEnvironment();
                            OrtSession.SessionOptions options = new OrtSession.SessionOptions();
                            options.setIntraOpNumThreads(1);
                            options.setInterOpNumThreads(1);
                            options.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
                            Path file = spec.model().file();
                            if (file != null) {
                                // Read from its path: a model whose weights are in external data files beside it
                                // (model.onnx_data) cannot be loaded from memory.
                                return new Object[] {environment, environment.createSession(file.toString(),
                                        options), null};
                            }
                            byte[] bytes;
                            try (InputStream in = spec.model().open()) {
                                bytes = in.readAllBytes();
                            }
                            return new Object[] {environment, environment.createSession(bytes, options), bytes};
                        } catch (IOException | OrtException e) {
                            throw new CompletionException(e);
                        }
                    }, r -> Thread.ofPlatform().name("polyrag-model-load").daemon().start(r));
            try {
                this.tokenizer = tokenizer(spec, truncating(maxTokens));
                this.counter = tokenizer(spec, Map.of("truncation", "false", "padding", "false"));
            } catch (IOException | RuntimeException e) {
                loading.thenAccept(loaded -> {
                    try {
                        ((OrtSession) loaded[1]).close();
                    } catch (OrtException ignored) {
                        // Failing already.
                    }
                });
                if (spec.custom() && e instanceof RuntimeException && !(e instanceof ConfigException)) {
                    // The tokenizer library's own words ("expected value at line 1 column 1") named neither the
                    // file nor the setting: a git-lfs pointer cloned in place of the file is the usual cause.
                    throw new ConfigException("POLYRAG_EMBEDDING_MODEL_DIR: its tokenizer.json cannot be read ("
                            + String.valueOf(e.getMessage()).lines().findFirst().orElse("") + "): put the model's "
                            + "real tokenizer.json there (a git-lfs pointer is a few lines of text)");
                }
                throw e;
            }
            Object[] loaded;
            try {
                loaded = loading.join();
            } catch (CompletionException e) {
                tokenizer.close();
                counter.close();
                Throwable cause = e.getCause();
                if (cause instanceof IOException io) {
                    throw io;
                }
                if (cause instanceof OrtException ort) {
                    throw ort;
                }
                if (cause instanceof RuntimeException runtime) {
                    throw runtime;
                }
                throw new PolyragException("cannot load embedding model " + spec.name() + ": " + cause, cause);
            }
            this.env = (OrtEnvironment) loaded[0];
            this.session = (OrtSession) loaded[1];
            byte[] model = (byte[]) loaded[2];
            try {
                this.inputs = EncoderInputs.of(session, "embedding model " + spec.name());
                refuseAClassifier(session, spec);
                this.modelId = identity(spec, model);
            } catch (IOException | RuntimeException e) {
                // Not the model expected (a decoder's inputs): its native session is freed, not left behind.
                session.close();
                tokenizer.close();
                counter.close();
                throw e;
            }
            if (!spec.asShipped()) {
                LOG.log(System.Logger.Level.INFO, "embedding model {0}: {1} pooling, query prefix \"{2}\", passage "
                        + "prefix \"{3}\" ({4})", modelId, spec.pooling(), spec.queryPrefix(), spec.passagePrefix(),
                        spec.origin());
            }
        } catch (IOException | OrtException e) {
            if (spec.custom() && e instanceof OrtException) {
                throw new ConfigException("POLYRAG_EMBEDDING_MODEL_DIR: its model.onnx cannot be loaded ("
                        + String.valueOf(e.getMessage()).lines().findFirst().orElse("") + "): put the model's real "
                        + "ONNX export there (a git-lfs pointer is a few lines of text)");
            }
            throw new PolyragException("cannot load embedding model " + spec.name() + ": " + e.getMessage(), e);
        }
        this.pool = ModelRuns.pool(threads, "embed");
        int probed;
        try {
            probed = run("dimension probe").length;
        } catch (RuntimeException e) {
            // Freed here: the lazy loader tries again every 30 s, and each failed probe kept a whole model's native
            // memory (when memory was what it lacked).
            pool.shutdownNow();
            try {
                session.close();
            } catch (OrtException x) {
                e.addSuppressed(x);
            }
            tokenizer.close();
            counter.close();
            throw e;
        }
        this.dimension = probed;
    }

    /**
     * A sequence-classification export (a cross-encoder, a sentiment model) names its output {@code logits}: one or
     * two scores a text, which were taken as a one- or two-number "vector" (every text then the same after
     * normalising, every search a tie). An embedding export names its output otherwise ({@code last_hidden_state},
     * {@code sentence_embedding}, {@code token_embeddings}).
     */
    private static void refuseAClassifier(OrtSession session, ModelSpec spec) {
        if (session.getOutputNames().stream().findFirst().orElse("").equals("logits")) {
            throw new ConfigException("embedding model " + spec.name() + " is a classifier or cross-encoder (its "
                    + "output is 'logits', scores, not vectors): a cross-encoder goes in "
                    + "POLYRAG_RERANK_MODEL_DIR with POLYRAG_RERANK_PROVIDER=onnx; give POLYRAG_EMBEDDING_MODEL_DIR a text "
                    + "embedding model's export (optimum-cli export onnx --task feature-extraction)");
        }
    }

    /**
     * A bundled model read as shipped is known by its name (the name every existing index recorded). Anything else,
     * a custom model or a bundled one read with other pooling or prefixes, makes other vectors from the same text:
     * its id adds a digest of the model, tokenizer, pooling and prefixes, so neither the embedding cache nor a
     * vector store mixes its vectors with another's.
     */
    private static void digest(MessageDigest sha, Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] buf = new byte[1 << 16];
            for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
                sha.update(buf, 0, n);
            }
        }
    }

    private static String identity(ModelSpec spec, byte[] model) throws IOException {
        if (spec.asShipped()) {
            return spec.name();
        }
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        if (model != null) {
            sha.update(model);
        } else {
            digest(sha, spec.model().file());
            // External data beside it (model.onnx_data, model.onnx.data): the weights, so their digest too; a model
            // without any keeps the identity it had when it was read from memory.
            Path file = spec.model().file();
            try (Stream<Path> beside = Files.list(file.getParent())) {
                for (Path data : beside.filter(p -> !p.equals(file) && p.getFileName().toString().startsWith(
                        file.getFileName().toString())).sorted().toList()) {
                    digest(sha, data);
                }
            }
        }
        try (InputStream in = spec.tokenizer().open()) {
            sha.update(in.readAllBytes());
        }
        sha.update((spec.pooling() + "\u0000" + spec.queryPrefix() + "\u0000" + spec.passagePrefix())
                .getBytes(StandardCharsets.UTF_8));
        return spec.name() + "@" + HexFormat.of().formatHex(sha.digest(), 0, 6);
    }

    /**
     * The options of a tokenizer that cuts at {@code maxTokens}: modelMaxLength too, or DJL caps maxLength at 512
     * whatever the setting says (a model with a longer window read each chunk's first 510 tokens, without a word).
     */
    static Map<String, String> truncating(int maxTokens) {
        return Map.of("truncation", "true", "maxLength", String.valueOf(maxTokens), "modelMaxLength",
                String.valueOf(maxTokens), "padding", "false");
    }

    private static HuggingFaceTokenizer tokenizer(ModelSpec spec, Map<String, String> options) throws IOException {
        try (InputStream in = spec.tokenizer().open()) {
            return HuggingFaceTokenizer.newInstance(in, options);
        }
    }

    @Override
    public String modelId() {
        return modelId;
    }

    @Override
    public int dimension() {
        return dimension;
    }

    @Override
    public int maxTokens() {
        return maxTokens;
    }

    @Override
    public TokenCounter tokenCounter() {
        return text -> {
            if (text.isEmpty()) {
                return 0;
            }
            inFlight.enter();
            try {
                return counter.encode(text, false, false).getIds().length;
            } finally {
                inFlight.exit();
            }
        };
    }

    @Override
    public float[] embedQuery(String query) {
        return run(spec.queryPrefix() + query);
    }

    @Override
    public List<float[]> embedPassages(List<String> passages) {
        if (passages.size() == 1) {
            return List.of(run(spec.passagePrefix() + passages.getFirst()));
        }
        return ModelRuns.map(pool, passages, p -> run(spec.passagePrefix() + p), "embedding");
    }

    /** Tokenises, runs the model, pools and normalises one text. */
    private float[] run(String text) {
        inFlight.enter();
        try {
            return runInside(text);
        } finally {
            inFlight.exit();
        }
    }

    private float[] runInside(String text) {
        Encoding enc = tokenizer.encode(text, true, false);
        long[] mask = enc.getAttentionMask();
        Map<String, OnnxTensor> tensors = Map.of();
        try {
            tensors = inputs.tensors(env, enc);
            try (OrtSession.Result result = session.run(tensors)) {
                Object out = result.get(0).getValue();
                if (out instanceof float[][][] hidden) {
                    return normalise(pool(hidden[0], mask));
                }
                if (out instanceof float[][] pooled && pooled.length == 1) {
                    return normalise(pooled[0].clone()); // an export that pools inside the graph
                }
                throw new ConfigException("embedding model " + spec.name() + " is not a text "
                        + "embedding model: its first output is neither token vectors [1, tokens, dim] nor a sentence "
                        + "vector [1, dim] (it is a " + out.getClass().getSimpleName() + ")");
            }
        } catch (OrtException e) {
            throw new PolyragException("embedding model " + spec.name() + " failed: " + e.getMessage(), e);
        } finally {
            tensors.values().forEach(OnnxTensor::close);
        }
    }

    /** One vector from the token vectors of one text; padding (mask 0) never counts. */
    private float[] pool(float[][] tokens, long[] mask) {
        int dim = tokens[0].length;
        return switch (spec.pooling()) {
            case CLS -> tokens[0].clone();
            case LASTTOKEN -> {
                int last = mask.length - 1;
                while (last > 0 && mask[last] == 0) {
                    last--;
                }
                yield tokens[last].clone();
            }
            case MAX -> {
                float[] max = new float[dim];
                Arrays.fill(max, Float.NEGATIVE_INFINITY);
                for (int t = 0; t < tokens.length; t++) {
                    for (int i = 0; i < dim && mask[t] != 0; i++) {
                        max[i] = Math.max(max[i], tokens[t][i]);
                    }
                }
                yield max;
            }
            case MEAN -> {
                float[] sum = new float[dim];
                int n = 0;
                for (int t = 0; t < tokens.length; t++) {
                    if (mask[t] == 0) {
                        continue;
                    }
                    n++;
                    for (int i = 0; i < dim; i++) {
                        sum[i] += tokens[t][i];
                    }
                }
                for (int i = 0; i < dim; i++) {
                    sum[i] /= Math.max(1, n);
                }
                yield sum;
            }
        };
    }

    private static float[] normalise(float[] v) {
        double norm = 0;
        for (float x : v) {
            norm += x * x;
        }
        float inv = norm == 0 ? 0 : (float) (1 / Math.sqrt(norm));
        for (int i = 0; i < v.length; i++) {
            v[i] *= inv;
        }
        return v;
    }

    /**
     * Refuses new runs, lets the ones in flight finish (up to ten seconds), then frees the session and tokenizers:
     * freeing them under a running model crashes the process (SIGTERM during an ingest did). Runs still going after
     * the wait leave them to the process's end.
     */
    @Override
    public void close() {
        pool.shutdown();
        if (!inFlight.close(Duration.ofSeconds(10))) {
            return;
        }
        try {
            session.close();
        } catch (OrtException e) {
            throw new PolyragException("cannot close the ONNX session: " + e.getMessage(), e);
        } finally {
            tokenizer.close();
            counter.close();
        }
    }
}
