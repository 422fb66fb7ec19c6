package io.polyrag.app.api;

import io.polyrag.core.model.Modality;
import java.util.List;
import java.util.Map;

/**
 * The server's state, for health checks and {@code polyrag config}.
 *
 * @param modalities enabled modalities
 * @param documents visible documents
 * @param storeRecords records per store
 * @param embeddingModel the embedding model, or null when the vector modality is off
 * @param dimension its vector length, or 0
 * @param problems what keeps this server from being ready, one line each naming the fix (a store that lacks
 *     records the catalog has); empty when ready
 */
public record Status(List<Modality> modalities, long documents, Map<String, Long> storeRecords,
        String embeddingModel, int dimension, List<String> problems) {
}
