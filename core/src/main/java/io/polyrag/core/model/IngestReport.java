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
 * @param indexed the documents added, updated or found unchanged, with their ids and visible versions (every one;
 *     a response lists the first 1,000)
 */
public record IngestReport(int documents, int added, int updated, int unchanged, int failed, int chunks, long tookMs,
        List<ItemError> errors, int relations, long extractionTokens, List<String> warnings,
        List<IndexedDocument> indexed, long contextTokens) {
    public IngestReport {
        errors = List.copyOf(errors);
        warnings = List.copyOf(warnings);
        indexed = List.copyOf(indexed);
    }

    /** A report built by name: every count 0, every list empty until set. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this report, to change some of its fields. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.documents = documents;
        b.added = added;
        b.updated = updated;
        b.unchanged = unchanged;
        b.failed = failed;
        b.chunks = chunks;
        b.tookMs = tookMs;
        b.errors = errors;
        b.relations = relations;
        b.extractionTokens = extractionTokens;
        b.warnings = warnings;
        b.indexed = indexed;
        b.contextTokens = contextTokens;
        return b;
    }

    /** Builds an {@link IngestReport}; see {@link IngestReport#builder()}. */
    public static final class Builder {
        private int documents;
        private int added;
        private int updated;
        private int unchanged;
        private int failed;
        private int chunks;
        private long tookMs;
        private List<ItemError> errors = List.of();
        private int relations;
        private long extractionTokens;
        private List<String> warnings = List.of();
        private List<IndexedDocument> indexed = List.of();
        private long contextTokens;

        private Builder() {
        }

        /** Inputs considered, and of them: added, updated, unchanged, failed. */
        public Builder counts(int documents, int added, int updated, int unchanged, int failed) {
            this.documents = documents;
            this.added = added;
            this.updated = updated;
            this.unchanged = unchanged;
            this.failed = failed;
            return this;
        }

        public Builder chunks(int chunks) {
            this.chunks = chunks;
            return this;
        }

        public Builder tookMs(long tookMs) {
            this.tookMs = tookMs;
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

        public Builder warnings(List<String> warnings) {
            this.warnings = warnings;
            return this;
        }

        public Builder indexed(List<IndexedDocument> indexed) {
            this.indexed = indexed;
            return this;
        }

        public Builder contextTokens(long contextTokens) {
            this.contextTokens = contextTokens;
            return this;
        }

        public IngestReport build() {
            return new IngestReport(documents, added, updated, unchanged, failed, chunks, tookMs, errors, relations,
                    extractionTokens, warnings, indexed, contextTokens);
        }
    }
}
