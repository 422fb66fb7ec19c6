package io.polyrag.core.model;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The part of the knowledge graph one chunk contributes: the entities it mentions (resolved to their canonical
 * names) and the relations it states. Every relation's subject and object are among {@code entities}.
 */
public record ChunkGraph(List<Entity> entities, List<Relation> relations) {
    public static final ChunkGraph EMPTY = new ChunkGraph(List.of(), List.of());

    /** Keeps the first of entities with equal ids, and adds any relation end that {@code entities} lacks. */
    public ChunkGraph {
        Map<String, Entity> byId = new LinkedHashMap<>();
        entities.forEach(e -> byId.putIfAbsent(e.id(), e));
        for (Relation r : relations) {
            byId.putIfAbsent(Entity.storedKey(r.subject()), Entity.of(r.subject(), r.subjectType()));
            byId.putIfAbsent(Entity.storedKey(r.object()), Entity.of(r.object(), r.objectType()));
        }
        entities = List.copyOf(byId.values());
        relations = List.copyOf(relations);
    }

    /**
     * This graph part as stored for a tenant: every entity id, name and alias and every relation end in the
     * namespace {@code ns} ({@code acme/}, or empty for the local tenant), with any {@code /} of a name's own made a
     * space, so that a stored {@code /} always marks a namespace and tenants never share an entity.
     */
    public ChunkGraph inNamespace(String ns) {
        if (isEmpty() && relations.isEmpty()) {
            return this;
        }
        List<Entity> es = entities.stream().map(e -> new Entity(ns + e.id().replace('/', ' '),
                ns + e.name().replace('/', ' '), e.type(), e.aliases().stream().map(a -> ns + a.replace('/', ' '))
                        .toList())).toList();
        List<Relation> rs = relations.stream().map(r -> new Relation(ns + r.subject().replace('/', ' '),
                r.subjectType(), r.predicate(), ns + r.object().replace('/', ' '), r.objectType(), r.chunkId(),
                r.documentId(), r.version(), r.properties())).toList();
        return new ChunkGraph(es, rs);
    }

    public boolean isEmpty() {
        return entities.isEmpty();
    }
}
