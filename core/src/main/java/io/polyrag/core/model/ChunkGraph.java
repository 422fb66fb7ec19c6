package io.polyrag.core.model;

import java.util.List;

/**
 * The part of the knowledge graph one chunk contributes: the entities it mentions (resolved to their canonical
 * names) and the relations it states. Every relation's subject and object are among {@code entities}.
 */
public record ChunkGraph(List<Entity> entities, List<Relation> relations) {
    public static final ChunkGraph EMPTY = new ChunkGraph(List.of(), List.of());

    public ChunkGraph {
        entities = List.copyOf(entities);
        relations = List.copyOf(relations);
    }

    public boolean isEmpty() {
        return entities.isEmpty();
    }
}
