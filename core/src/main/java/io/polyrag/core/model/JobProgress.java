package io.polyrag.core.model;

import java.util.ArrayList;
import java.util.List;

/**
 * How far a job has come.
 *
 * @param stage what it is doing now (queued, parsing, embedding, writing, done, waiting for a store, …)
 * @param total items to process, 0 while unknown
 * @param processed items finished, successfully or not
 * @param added new documents made visible
 * @param updated documents whose new version replaced the old one
 * @param unchanged documents skipped because their content had not changed
 * @param failed items that failed
 * @param chunks chunks written
 * @param storesWritten the stores the job wrote to
 * @param errors per-item errors (the first ones, bounded)
 * @param relations relations extracted for the graph and RDF stores so far
 * @param extractionTokens language-model tokens spent on extraction so far
 * @param estimatedCalls language-model calls extraction was estimated to need before the job started
 * @param estimatedTokens tokens (input and output) it was estimated to spend
 * @param warnings what the job did not do fully (an extraction budget that ran out, …)
 * @param deleted documents removed because their source item is gone (a sync)
 */
public record JobProgress(String stage, int total, int processed, int added, int updated, int unchanged, int failed,
        int chunks, List<String> storesWritten, List<ItemError> errors, int relations, long extractionTokens,
        long estimatedCalls, long estimatedTokens, List<String> warnings, int deleted) {
    public JobProgress {
        storesWritten = List.copyOf(storesWritten);
        errors = List.copyOf(errors);
        warnings = List.copyOf(warnings);
    }

    /** Progress that deleted nothing. */
    // style: the positional form existing callers use; building these by name is the house step's next cut
    public JobProgress(String stage, int total, int processed, int added, int updated, int unchanged, int failed,
            int chunks, List<String> storesWritten, List<ItemError> errors, int relations, long extractionTokens,
            long estimatedCalls, long estimatedTokens, List<String> warnings) {
        this(stage, total, processed, added, updated, unchanged, failed, chunks, storesWritten, errors, relations,
                extractionTokens, estimatedCalls, estimatedTokens, warnings, 0);
    }

    /** Progress with no extraction figures. */
    // style: the positional form existing callers use; building these by name is the house step's next cut
    public JobProgress(String stage, int total, int processed, int added, int updated, int unchanged, int failed,
            int chunks, List<String> storesWritten, List<ItemError> errors) {
        this(stage, total, processed, added, updated, unchanged, failed, chunks, storesWritten, errors, 0, 0, 0, 0,
                List.of());
    }

    /** This progress with the pre-run estimate of extraction calls and tokens. */
    public JobProgress withEstimate(long calls, long tokens) {
        return new JobProgress(stage, total, processed, added, updated, unchanged, failed, chunks, storesWritten, errors,
                relations, extractionTokens, calls, tokens, warnings, deleted);
    }

    /** The stage of a job put back in the queue until a store it writes to answers again. */
    public static final String WAITING = "waiting for a store";

    /**
     * This progress while the job waits for a store that cannot be reached: the stage says so and one warning says
     * why (replacing the one of an earlier wait).
     */
    public JobProgress waiting(String why) {
        List<String> w = new ArrayList<>(warnings);
        w.removeIf(s -> s.startsWith(WAITING));
        w.add(WAITING + ": " + why);
        return new JobProgress(WAITING, total, processed, added, updated, unchanged, failed, chunks, storesWritten, errors,
                relations, extractionTokens, estimatedCalls, estimatedTokens, w, deleted);
    }

    public static JobProgress queued() {
        return new JobProgress("queued", 0, 0, 0, 0, 0, 0, 0, List.of(), List.of());
    }
}
