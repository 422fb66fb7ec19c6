package io.polyrag.bench;

import io.polyrag.core.port.Embedder;
import io.polyrag.core.port.ForwardingEmbedder;
import io.polyrag.core.spi.EmbedderProvider;
import io.polyrag.core.spi.ProviderContext;
import io.polyrag.model.onnx.OnnxEmbedderProvider;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code POLYRAG_EMBEDDING_PROVIDER=bench-replay}, for benchmarks only: a passage of a {@link ScaleCorpus} gets the
 * vector the corpus gives it instead of running the model (or, for bench/run, every passage goes to the model and
 * the lists the pipeline asked for are recorded, to embed the same texts again as a baseline); queries, and any text without a corpus mark, go to the
 * configured ONNX model. It reports that model's id, so the index it builds is served later by the ordinary
 * {@code onnx} provider (queries then embedded for real, as here).
 */
public final class ReplayEmbedderProvider implements EmbedderProvider {
    /** The corpus whose passages are replayed; set by the benchmark before it opens polyrag. */
    static volatile ScaleCorpus corpus;
    /** When set, every passage list the pipeline embeds is added here (bench/run's same-texts baseline). */
    static volatile List<List<String>> recorded;

    @Override
    public String name() {
        return "bench-replay";
    }

    @Override
    public String description() {
        return "benchmarks only: replays a generated corpus's vectors, the ONNX model for everything else";
    }

    @Override
    public Embedder open(ProviderContext context) {
        ScaleCorpus c = corpus;
        if (c == null && recorded == null) {
            throw new IllegalStateException("bench-replay needs a corpus: it is for bench/scale and bench/run only");
        }
        return new Replay(OnnxEmbedderProvider.open(context.config()), c);
    }

    private static final class Replay extends ForwardingEmbedder {
        private final ScaleCorpus corpus;

        Replay(Embedder model, ScaleCorpus corpus) {
            super(model);
            this.corpus = corpus;
        }

        @Override
        public List<float[]> embedPassages(List<String> passages) {
            List<List<String>> record = recorded;
            if (record != null) {
                record.add(List.copyOf(passages));
                return delegate.embedPassages(passages);
            }
            List<float[]> out = new ArrayList<>(passages.size());
            for (String p : passages) {
                long doc = ScaleCorpus.documentOf(p);
                out.add(doc >= 0 ? corpus.vector(doc) : delegate.embedPassages(List.of(p)).get(0));
            }
            return out;
        }
    }
}
