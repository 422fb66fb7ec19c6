package io.polyrag.core.model;

/**
 * An entity with the number of chunks that mention it.
 *
 * @param entity the entity
 * @param mentions chunks (of any version still stored) that mention it
 */
public record EntityHit(Entity entity, long mentions) {
}
