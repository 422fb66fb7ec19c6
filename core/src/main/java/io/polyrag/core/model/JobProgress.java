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

    /** This progress with the pre-run estimate of extraction calls and tokens. */
    public JobProgress withEstimate(long calls, long tokens) {
        return toBuilder().estimatedCalls(calls).estimatedTokens(tokens).build();
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
        return toBuilder().stage(WAITING).warnings(w).build();
    }

    public static JobProgress queued() {
        return at("queued").build();
    }

    /** Progress built by name, at {@code stage}; every count not set is 0 and every list empty. */
    public static Builder at(String stage) {
        return new Builder().stage(stage);
    }

    /** A builder holding this progress, to change some of it. */
    public Builder toBuilder() {
        return new Builder().stage(stage).total(total).processed(processed).added(added).updated(updated)
                .unchanged(unchanged)
                .failed(failed).chunks(chunks).storesWritten(storesWritten).errors(errors).relations(relations)
                .extractionTokens(extractionTokens).estimatedCalls(estimatedCalls).estimatedTokens(estimatedTokens)
                        .warnings(warnings).deleted(deleted);
    }

    /** Builds a {@link JobProgress} by name. */
    public static final class Builder {
        private String stage;
        private int total;
        private int processed;
        private int added;
        private int updated;
        private int unchanged;
        private int failed;
        private int chunks;
        private List<String> storesWritten = List.of();
        private List<ItemError> errors = List.of();
        private int relations;
        private long extractionTokens;
        private long estimatedCalls;
        private long estimatedTokens;
        private List<String> warnings = List.of();
        private int deleted;

        private Builder() {
        }

        public Builder stage(String stage) {
            this.stage = stage;
            return this;
        }

        public Builder total(int total) {
            this.total = total;
            return this;
        }

        public Builder processed(int processed) {
            this.processed = processed;
            return this;
        }

        public Builder added(int added) {
            this.added = added;
            return this;
        }

        public Builder updated(int updated) {
            this.updated = updated;
            return this;
        }

        public Builder unchanged(int unchanged) {
            this.unchanged = unchanged;
            return this;
        }

        public Builder failed(int failed) {
            this.failed = failed;
            return this;
        }

        public Builder chunks(int chunks) {
            this.chunks = chunks;
            return this;
        }

        public Builder storesWritten(List<String> storesWritten) {
            this.storesWritten = storesWritten;
            return this;
        }

        public Builder errors(List<ItemError> errors) {
            this.errors = errors;
            return this;
        }

        public Builder relations(int relations) {
            this.relations = relations;
            return this;
        }

        public Builder extractionTokens(long extractionTokens) {
            this.extractionTokens = extractionTokens;
            return this;
        }

        public Builder estimatedCalls(long estimatedCalls) {
            this.estimatedCalls = estimatedCalls;
            return this;
        }

        public Builder estimatedTokens(long estimatedTokens) {
            this.estimatedTokens = estimatedTokens;
            return this;
        }

        public Builder warnings(List<String> warnings) {
            this.warnings = warnings;
            return this;
        }

        public Builder deleted(int deleted) {
            this.deleted = deleted;
            return this;
        }

        public JobProgress build() {
            return new JobProgress(stage, total, processed, added, updated, unchanged, failed, chunks,
                    storesWritten, errors, relations, extractionTokens, estimatedCalls, estimatedTokens, warnings,
                            deleted);
        }
    }
}
