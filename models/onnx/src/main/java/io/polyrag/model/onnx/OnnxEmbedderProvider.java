package io.polyrag.model.onnx;

import io.polyrag.core.ConfigException;
import io.polyrag.core.config.Config;
import io.polyrag.core.config.Settings;
import io.polyrag.core.port.Embedder;
import io.polyrag.core.spi.EmbedderProvider;
import io.polyrag.core.spi.ProviderContext;

/** {@code POLYRAG_EMBEDDING_PROVIDER=onnx}: in-process models; bundled ones load from the class path, offline. */
public final class OnnxEmbedderProvider implements EmbedderProvider {
    @Override
    public String name() {
        return "onnx";
    }

    @Override
    public String description() {
        return "in-process ONNX Runtime; bundled: " + String.join(", ", ModelSpec.bundledNames());
    }

    @Override
    public Embedder open(ProviderContext context) {
        return open(context.config());
    }

    public static Embedder open(Config config) {
        ModelSpec spec = ModelSpec.resolve(config.get(Settings.EMBEDDING_MODEL),
                config.get(Settings.EMBEDDING_MODEL_DIR),
                new ModelSpec.Overrides(config.get(Settings.EMBEDDING_POOLING),
                        config.get(Settings.EMBEDDING_QUERY_PREFIX), config.get(Settings.EMBEDDING_PASSAGE_PREFIX)));
        int threads = config.get(Settings.EMBEDDING_THREADS);
        int maxTokens = config.get(Settings.EMBEDDING_MAX_TOKENS);
        // Past its positions the model fails every run of a long text (a whole document's vector, a long query),
        // and every document of that ingest batch with it.
        if (spec.window() > 0 && maxTokens > spec.window()) {
            throw new ConfigException(Settings.EMBEDDING_MAX_TOKENS.env() + "=" + maxTokens + " is more than the "
                    + "embedding model " + spec.name() + " reads (" + spec.window() + " tokens): set it to "
                    + spec.window() + " or less");
        }
        return new OnnxEmbedder(spec, maxTokens,
                threads == 0 ? Runtime.getRuntime().availableProcessors() : threads);
    }
}
