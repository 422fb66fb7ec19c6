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
 */
public record IngestReport(int documents, int added, int updated, int unchanged, int failed, int chunks, long tookMs,
        List<ItemError> errors) {
    public IngestReport {
        errors = List.copyOf(errors);
    }
}
