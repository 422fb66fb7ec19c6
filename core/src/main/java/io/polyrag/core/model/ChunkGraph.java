package io.polyrag.core.model;

import java.util.List;

/**
 * The part of the knowledge graph one chunk contributes: the entities it mentions (resolved to their canonical
 * names) and the relations it states. Every relation's subject and object are among {@code entities}.
 */
public record ChunkGraph(List<Entity> entities, List<Relation> relations) {
    public static final ChunkGraph EMPTY = new ChunkGraph(List.of(), List.of());

    /** Keeps the first of entities with equal ids, and adds any relation end that {@code entities} lacks. */
    public ChunkGraph {
        java.util.Map<String, Entity> byId = new java.util.LinkedHashMap<>();
        entities.forEach(e -> byId.putIfAbsent(e.id(), e));
        for (Relation r : relations) {
            byId.putIfAbsent(Entity.key(r.subject()), Entity.of(r.subject(), r.subjectType()));
            byId.putIfAbsent(Entity.key(r.object()), Entity.of(r.object(), r.objectType()));
        }
        entities = List.copyOf(byId.values());
        relations = List.copyOf(relations);
    }

    public boolean isEmpty() {
        return entities.isEmpty();
    }
}
