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
import io.polyrag.core.port.Reranker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;

/**
 * A cross-encoder run in-process: each (query, passage) pair is tokenised together and the model's relevance logit
 * is the score. Works with the usual Hugging Face exports ({@code model.onnx} and {@code tokenizer.json} in one
 * directory, inputs {@code input_ids}, {@code attention_mask} and optionally {@code token_type_ids} and
 * {@code position_ids}, output logits of shape [1, 1], or [1, 2] whose second column is "relevant": scored by the
 * difference of the two, the log-odds of relevance).
 *
 * <p>Each pair is one model run on one thread, and the runs of a rerank are spread over the cores: every score is a
 * function of its pair alone (batching would pad pairs together and, for a quantised export, make a score depend on
 * its batch-mates), and on two cores this is 1.34x faster than one run at a time with both cores inside it (30
 * candidates with a BERT-small sized model: p50 800 ms against 1,069 ms; {@code bench/run --rerank-model DIR},
 * docs/benchmarks.md).
 */
public final class CrossEncoderReranker implements Reranker, AutoCloseable {
    private final Path dir;
    private final OrtEnvironment env;
    private final OrtSession session;
    private final InFlight inFlight = new InFlight("the cross-encoder");
    private final HuggingFaceTokenizer tokenizer;
    private final EncoderInputs inputs;
    private final ExecutorService pool;

    public CrossEncoderReranker(Path dir, int maxTokens) {
        this(dir, maxTokens, Runtime.getRuntime().availableProcessors());
    }

    /**
     * @param pairThreads pairs scored at once, each run on one thread; 1 scores them one after another with every
     *     core inside each run (the way this reranker worked before, kept as the benchmark's baseline)
     */
    public CrossEncoderReranker(Path dir, int maxTokens, int pairThreads) {
        this.dir = dir;
        Path model = dir.resolve("model.onnx");
        Path vocab = dir.resolve("tokenizer.json");
        for (Path p : List.of(model, vocab)) {
            if (!Files.isReadable(p)) {
                throw new ConfigException("POLYRAG_RERANK_MODEL_DIR=" + dir + " has no readable " + p.getFileName()
                        + ": put the cross-encoder's ONNX export (model.onnx) and its tokenizer.json there");
            }
        }
        HuggingFaceTokenizer t = null;
        OrtSession s = null;
        try {
            Offline.ensure();
            t = HuggingFaceTokenizer.newInstance(vocab, Map.of("truncation", "true", "maxLength",
                    String.valueOf(maxTokens), "padding", "false"));
            this.env = OrtEnvironment.getEnvironment();
            OrtSession.SessionOptions options = new OrtSession.SessionOptions();
            options.setIntraOpNumThreads(pairThreads > 1 ? 1 : Runtime.getRuntime().availableProcessors());
            options.setInterOpNumThreads(1);
            s = env.createSession(model.toString(), options);
            this.inputs = EncoderInputs.of(s, "the cross-encoder in " + dir);
        } catch (IOException | OrtException | RuntimeException e) {
            // What was made is freed: a model refused (its inputs) kept its native session and tokenizer for good.
            if (s != null) {
                try {
                    s.close();
                } catch (OrtException x) {
                    e.addSuppressed(x);
                }
            }
            if (t != null) {
                t.close();
            }
            if (e instanceof RuntimeException r) {
                throw r;
            }
            throw new PolyragException("cannot load the cross-encoder in " + dir + ": " + e.getMessage(), e);
        }
        this.tokenizer = t;
        this.session = s;
        this.pool = pairThreads <= 1 ? null : ModelRuns.pool(pairThreads, "rerank");
    }

    @Override
    public String id() {
        return "onnx:" + dir.getFileName();
    }

    @Override
    public List<Double> score(String query, List<String> passages) {
        if (pool == null || passages.size() == 1) {
            List<Double> out = new ArrayList<>(passages.size());
            for (String p : passages) {
                out.add(score(query, p));
            }
            return out;
        }
        return ModelRuns.map(pool, passages, p -> score(query, p), "reranking");
    }

    private double score(String query, String passage) {
        inFlight.enter();
        try {
            return score(tokenizer.encode(query, passage, true, false));
        } finally {
            inFlight.exit();
        }
    }

    private double score(Encoding enc) {
        Map<String, OnnxTensor> tensors = Map.of();
        try {
            tensors = inputs.tensors(env, enc);
            try (OrtSession.Result r = session.run(tensors)) {
                Object value = r.get(0).getValue();
                if (value instanceof float[][] logits && logits.length == 1 && logits[0].length == 1) {
                    return logits[0][0];
                }
                // A two-class head (monoBERT and its kin): only the difference means anything, the log-odds of
                // "relevant". Its second column alone ranked (5, 6) above (-5, 3), a 0.73 above a 0.9997.
                if (value instanceof float[][] logits && logits.length == 1 && logits[0].length == 2) {
                    return (double) logits[0][1] - logits[0][0];
                }
                throw new ConfigException("the model in " + dir + " is not a cross-encoder: its first output is not "
                        + "a [1, 1] or [1, 2] relevance logit (it is " + describe(value) + ")");
            }
        } catch (OrtException e) {
            throw new PolyragException("the cross-encoder in " + dir + " failed: " + e.getMessage(), e);
        } finally {
            tensors.values().forEach(OnnxTensor::close);
        }
    }

    private static String describe(Object value) {
        if (value instanceof float[][][] a) {
            return "float[" + a.length + "][" + a[0].length + "][" + a[0][0].length + "]";
        }
        if (value instanceof float[][] a) {
            return "float[" + a.length + "][" + (a.length == 0 ? 0 : a[0].length) + "]";
        }
        return value.getClass().getSimpleName();
    }

    /** Refuses new runs, waits for those in flight, then frees the native session (never under a running one). */
    @Override
    public void close() {
        if (pool != null) {
            pool.shutdown();
        }
        if (!inFlight.close(Duration.ofSeconds(10))) {
            return;
        }
        try {
            session.close();
        } catch (OrtException e) {
            throw new PolyragException("cannot close the cross-encoder: " + e.getMessage(), e);
        } finally {
            tokenizer.close();
        }
    }
}
