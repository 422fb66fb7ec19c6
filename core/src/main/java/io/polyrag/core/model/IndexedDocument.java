package io.polyrag.core.model;

/**
 * A document an ingest made visible or found already indexed.
 *
 * @param uri its uri
 * @param documentId its id
 * @param version the visible version after the ingest
 * @param outcome {@code added}, {@code updated} or {@code unchanged}
 */
public record IndexedDocument(String uri, String documentId, long version, String outcome) {
}
