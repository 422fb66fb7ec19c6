package io.polyrag.core.model;

import java.util.List;

/**
 * What an ingest would cost, computed without writing anything or calling a model.
 *
 * @param documents documents that would be indexed
 * @param chunks their chunks
 * @param chunkTokens tokens in those chunks
 * @param extractor the entity extractor that would run, or {@code none}
 * @param extractionCalls language-model calls extraction would make
 * @param extractionInputTokens tokens it would send
 * @param extractionOutputTokens tokens it would expect back
 * @param errors inputs that could not be read or parsed
 */
public record IngestEstimate(long documents, long chunks, long chunkTokens, String extractor, long extractionCalls,
        long extractionInputTokens, long extractionOutputTokens, List<ItemError> errors) {
    public IngestEstimate {
        errors = List.copyOf(errors);
    }
}
