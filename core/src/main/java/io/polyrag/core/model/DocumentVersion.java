package io.polyrag.core.model;

/** One version of one document: the unit that stores delete and the catalog makes visible. */
public record DocumentVersion(String documentId, long version) {
}
