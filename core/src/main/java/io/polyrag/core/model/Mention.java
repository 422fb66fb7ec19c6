package io.polyrag.core.model;

/**
 * A chunk that mentions an entity.
 *
 * @param entityId the entity
 * @param chunkId the chunk
 * @param documentId the chunk's document
 * @param version the document version
 */
public record Mention(String entityId, String chunkId, String documentId, long version) {
}
