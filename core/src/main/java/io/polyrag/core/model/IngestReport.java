package io.polyrag.core.model;

import java.util.List;

/**
 * What an ingest did.
 *
 * @param documents inputs considered
 * @param added new documents made visible
 * @param updated documents whose content changed and whose new version replaced the old one
 * @param unchanged documents whose content was already indexed: no work done
 * @param failed inputs that failed; see {@code errors}
 * @param chunks chunks written
 * @param tookMs wall time
 * @param errors one entry per failed input
 * @param relations relations extracted into the graph and RDF stores
 * @param extractionTokens language-model tokens spent on extraction
 * @param warnings things the ingest did not do fully (an extraction budget that ran out, …)
 * @param indexed the documents added, updated or found unchanged, with their ids and visible versions (the first
 *     1,000 of a larger ingest)
 */
public record IngestReport(int documents, int added, int updated, int unchanged, int failed, int chunks, long tookMs,
        List<ItemError> errors, int relations, long extractionTokens, List<String> warnings,
        List<IndexedDocument> indexed, long contextTokens) {
    public IngestReport {
        errors = List.copyOf(errors);
        warnings = List.copyOf(warnings);
        indexed = List.copyOf(indexed);
    }

    /** A report of an ingest that wrote no chunk contexts. */
    // style: the positional form existing callers use; building these by name is the house step's next cut
    public IngestReport(int documents, int added, int updated, int unchanged, int failed, int chunks, long tookMs,
            List<ItemError> errors, int relations, long extractionTokens, List<String> warnings,
            List<IndexedDocument> indexed) {
        this(documents, added, updated, unchanged, failed, chunks, tookMs, errors, relations, extractionTokens,
                warnings, indexed, 0);
    }

    /** A report that lists no indexed documents. */
    // style: the positional form existing callers use; building these by name is the house step's next cut
    public IngestReport(int documents, int added, int updated, int unchanged, int failed, int chunks, long tookMs,
            List<ItemError> errors, int relations, long extractionTokens, List<String> warnings) {
        this(documents, added, updated, unchanged, failed, chunks, tookMs, errors, relations, extractionTokens,
                warnings, List.of());
    }

    /** A report of an ingest that extracted nothing. */
    public IngestReport(int documents, int added, int updated, int unchanged, int failed, int chunks, long tookMs,
            List<ItemError> errors) {
        this(documents, added, updated, unchanged, failed, chunks, tookMs, errors, 0, 0, List.of());
    }
}
