package io.polyrag.app.api;

import io.polyrag.core.model.EntityHit;
import java.util.List;

/**
 * An entity and its neighbours.
 *
 * @param entity the entity
 * @param neighbours the relations touching it
 */
public record EntityNeighbours(EntityHit entity, List<Neighbour> neighbours) {
    public EntityNeighbours {
        neighbours = List.copyOf(neighbours);
    }

    /**
     * One relation from the entity's point of view.
     *
     * @param predicate the relation's name
     * @param direction {@code out} when the entity is the subject, {@code in} when it is the object
     * @param entity the entity at the other end
     * @param documentId the document that states it
     * @param chunkId the chunk that states it
     */
    public record Neighbour(String predicate, String direction, EntityHit entity, String documentId,
            String chunkId) {
    }
}
