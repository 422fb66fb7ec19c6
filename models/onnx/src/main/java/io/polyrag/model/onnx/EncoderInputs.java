package io.polyrag.model.onnx;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import io.polyrag.core.ConfigException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The inputs polyrag gives a transformer encoder export, checked once against what the model asks for: token ids and
 * attention mask always, token type ids and position ids when the model takes them. A model that wants anything
 * else (a decoder's past key values, say) is refused when it is loaded, naming the inputs, not at its first run.
 */
final class EncoderInputs {
    static final List<String> PROVIDED = List.of("input_ids", "attention_mask", "token_type_ids", "position_ids");

    private final boolean typeIds;
    private final boolean positions;

    private EncoderInputs(boolean typeIds, boolean positions) {
        this.typeIds = typeIds;
        this.positions = positions;
    }

    /** What {@code session} takes; {@code what} names the model in the error. */
    static EncoderInputs of(OrtSession session, String what) {
        Set<String> wanted = session.getInputNames();
        List<String> unknown = wanted.stream().filter(n -> !PROVIDED.contains(n)).sorted().toList();
        if (!unknown.isEmpty() || !wanted.contains("input_ids")) {
            throw new ConfigException(what + " takes inputs " + wanted.stream().sorted().toList() + "; polyrag gives "
                    + "an encoder " + String.join(", ", PROVIDED) + (unknown.isEmpty() ? " and needs input_ids"
                    : ", not " + String.join(", ", unknown)) + ": use an encoder export for feature extraction or "
                    + "sequence classification (e.g. optimum-cli export onnx --task feature-extraction)");
        }
        return new EncoderInputs(wanted.contains("token_type_ids"), wanted.contains("position_ids"));
    }

    /** The tensors for one encoded text; the caller closes them. */
    Map<String, OnnxTensor> tensors(OrtEnvironment env, Encoding enc) throws OrtException {
        Map<String, OnnxTensor> inputs = new HashMap<>();
        try {
            inputs.put("input_ids", OnnxTensor.createTensor(env, new long[][] {enc.getIds()}));
            inputs.put("attention_mask", OnnxTensor.createTensor(env, new long[][] {enc.getAttentionMask()}));
            if (typeIds) {
                inputs.put("token_type_ids", OnnxTensor.createTensor(env, new long[][] {enc.getTypeIds()}));
            }
            if (positions) {
                long[] p = new long[enc.getIds().length];
                for (int i = 0; i < p.length; i++) {
                    p[i] = i;
                }
                inputs.put("position_ids", OnnxTensor.createTensor(env, new long[][] {p}));
            }
            return inputs;
        } catch (OrtException | RuntimeException e) {
            inputs.values().forEach(OnnxTensor::close);
            throw e;
        }
    }
}
