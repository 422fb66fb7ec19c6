package io.polyrag.model.onnx;

import io.polyrag.core.ConfigException;
import io.polyrag.core.config.Settings;
import io.polyrag.core.port.Reranker;
import io.polyrag.core.spi.ProviderContext;
import io.polyrag.core.spi.RerankerProvider;
import java.nio.file.Path;

/** {@code POLYRAG_RERANK_PROVIDER=onnx}: a cross-encoder from a directory the user provides. */
public final class CrossEncoderProvider implements RerankerProvider {
    @Override
    public String name() {
        return "onnx";
    }

    @Override
    public String description() {
        return "in-process ONNX cross-encoder from POLYRAG_RERANK_MODEL_DIR";
    }

    @Override
    public Reranker open(ProviderContext context) {
        Path dir = context.config().get(Settings.RERANK_MODEL_DIR);
        if (dir == null) {
            throw new ConfigException("POLYRAG_RERANK_PROVIDER=onnx needs POLYRAG_RERANK_MODEL_DIR: a directory with "
                    + "the cross-encoder's model.onnx and tokenizer.json");
        }
        return new CrossEncoderReranker(dir, 512);
    }
}
