package io.polyrag.core.model;

/**
 * One result of one store's search.
 *
 * @param chunkId the chunk found
 * @param documentId its document
 * @param version its document version (the catalog drops hits of versions that are not visible)
 * @param score the store's own score: higher is better; only comparable within one result list
 */
public record StoreHit(String chunkId, String documentId, long version, double score) {
}
