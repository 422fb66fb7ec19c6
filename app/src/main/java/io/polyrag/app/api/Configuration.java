package io.polyrag.app.api;

import java.util.List;
import java.util.Map;

/**
 * What this server runs: which retrievers, on which backends, with which models and fusion; no secret, no address.
 *
 * @param version the build
 * @param modalities the enabled retrievers
 * @param backends the backend of each enabled store, and of the catalog and the stored originals
 * @param embeddingModel the embedding model, null when vectors are off
 * @param dimension its vector size, 0 when vectors are off
 * @param fusion {@code weighted} or {@code rrf}
 * @param weights each modality's weight in weighted fusion
 * @param rrfK the RRF constant
 * @param reranker the reranker provider, {@code none} when off
 * @param answers {@code extractive} (no language model) or the language-model provider
 * @param answerModel the language model's name, null when answers are extractive
 * @param graphExtractor how entities and relations are extracted, null when the graph and RDF stores are off
 * @param chunkMaxTokens chunk size in the embedding model's tokens
 * @param maxRequestBytes the largest request body, uploads included
 */
public record Configuration(String version, List<String> modalities, Map<String, String> backends,
        String embeddingModel, int dimension, String fusion, Map<String, Double> weights, int rrfK, String reranker,
        String answers, String answerModel, String graphExtractor, int chunkMaxTokens, long maxRequestBytes) {
}
