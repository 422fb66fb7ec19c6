package io.polyrag.core.model;

import java.util.List;

/**
 * How far a job has come.
 *
 * @param stage what it is doing now (queued, parsing, embedding, writing, done, …)
 * @param total items to process, 0 while unknown
 * @param processed items finished, successfully or not
 * @param added new documents made visible
 * @param updated documents whose new version replaced the old one
 * @param unchanged documents skipped because their content had not changed
 * @param failed items that failed
 * @param chunks chunks written
 * @param storesWritten the stores the job wrote to
 * @param errors per-item errors (the first ones, bounded)
 */
public record JobProgress(String stage, int total, int processed, int added, int updated, int unchanged, int failed,
        int chunks, List<String> storesWritten, List<ItemError> errors) {
    public JobProgress {
        storesWritten = List.copyOf(storesWritten);
        errors = List.copyOf(errors);
    }

    public static JobProgress queued() {
        return new JobProgress("queued", 0, 0, 0, 0, 0, 0, 0, List.of(), List.of());
    }
}
