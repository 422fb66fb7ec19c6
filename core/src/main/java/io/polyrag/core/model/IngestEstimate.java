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
 * @param contextCalls language-model calls contextual retrieval would make (chunks not in its cache; 0 when off)
 * @param contextInputTokens tokens those calls would send (about: words × 4/3)
 * @param contextOutputTokens tokens they would get back (about 60 a chunk)
 */
public record IngestEstimate(long documents, long chunks, long chunkTokens, String extractor, long extractionCalls,
        long extractionInputTokens, long extractionOutputTokens, List<ItemError> errors, long contextCalls,
        long contextInputTokens, long contextOutputTokens) {
    public IngestEstimate {
        errors = List.copyOf(errors);
    }

    /** An estimate without contextual retrieval. */
    public IngestEstimate(long documents, long chunks, long chunkTokens, String extractor, long extractionCalls,
            long extractionInputTokens, long extractionOutputTokens, List<ItemError> errors) {
        this(documents, chunks, chunkTokens, extractor, extractionCalls, extractionInputTokens, extractionOutputTokens,
                errors, 0, 0, 0);
    }

    /** This estimate with other errors. */
    public IngestEstimate withErrors(List<ItemError> others) {
        return new IngestEstimate(documents, chunks, chunkTokens, extractor, extractionCalls, extractionInputTokens,
                extractionOutputTokens, others, contextCalls, contextInputTokens, contextOutputTokens);
    }
}
