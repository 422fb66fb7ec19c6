package io.polyrag.core.model;

/**
 * One stored relation between two entities, as graph traversal sees it.
 *
 * @param subjectId the subject entity's id
 * @param predicate the relation's name
 * @param objectId the object entity's id
 * @param chunkId the chunk that states it
 * @param documentId that chunk's document
 * @param version that document's version
 */
public record GraphEdge(String subjectId, String predicate, String objectId, String chunkId, String documentId,
        long version) {

    /** The entity at the other end from {@code entityId}. */
    public String other(String entityId) {
        return subjectId.equals(entityId) ? objectId : subjectId;
    }
}
