package io.polyrag.app.api;

import io.polyrag.core.model.IngestReport;

/**
 * What a path ingest did.
 *
 * @param report the ingest's counts and errors (paths that did not exist included)
 * @param skipped files in walked directories that were not of an accepted type or were left out by globs
 */
public record PathIngestReport(IngestReport report, int skipped) {
}
