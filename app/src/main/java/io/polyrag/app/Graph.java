package io.polyrag.app;

import io.polyrag.app.api.EntityNeighbours;
import io.polyrag.app.api.Limits;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.NotFoundException;
import io.polyrag.core.model.Entity;
import io.polyrag.core.model.EntityHit;
import io.polyrag.core.model.GraphEdge;
import io.polyrag.core.model.Ids;
import io.polyrag.core.model.KnowledgeBase;
import io.polyrag.core.model.Tenant;
import io.polyrag.core.port.Catalog;
import io.polyrag.core.port.EntityGraph;
import io.polyrag.core.port.GraphStore;
import io.polyrag.core.port.RdfStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Browsing the knowledge graph: entities by name, an entity's relations, counts. Reads the property graph, or the
 * RDF store when the graph modality is off.
 */
public final class Graph {
    private final Catalog catalog;
    /** The property graph; null when the graph arm is off. */
    private final GraphStore graph;
    /** The RDF store; null when the RDF arm is off. */
    private final RdfStore rdf;
    private final Tenant tenant;

    Graph(Catalog catalog, GraphStore graph, RdfStore rdf, Tenant tenant) {
        this.catalog = catalog;
        this.graph = graph;
        this.rdf = rdf;
        this.tenant = tenant;
    }

    /** Entities whose name or alias contains {@code text}, most mentioned first, in every knowledge base. */
    public List<EntityHit> find(String text, int limit) {
        return find(text, null, limit);
    }

    /**
     * Entities whose name or alias contains {@code text}, most mentioned first, counting only mentions in
     * {@code knowledgeBase} (null: all).
     */
    public List<EntityHit> find(String text, KnowledgeBase knowledgeBase, int limit) {
        checkLimit(limit);
        if (text == null || text.isBlank() || Entity.key(text).isEmpty()) {
            throw new InvalidInputException("q is empty: give part of an entity's name");
        }
        if (text.length() > Limits.MAX_ENTITY_QUERY) {
            throw new InvalidInputException("q is longer than " + Limits.MAX_ENTITY_QUERY + " characters: give part "
                    + "of an entity's name");
        }
        // Only entities the tenant's own documents mention are found: the count is over its knowledge bases.
        return entityGraph().findEntities(text, Scope.of(catalog, tenant, knowledgeBase), limit).stream()
                .map(h -> Shown.of(tenant, h)).toList();
    }

    /**
     * An entity and the relations that touch it, each with the entity at its other end and the document that
     * states it.
     */
    public EntityNeighbours neighbours(String entityId, int limit) {
        checkLimit(limit);
        EntityGraph g = entityGraph();
        String stored = entityId == null || entityId.indexOf('/') >= 0 ? "" : tenant.store(entityId);
        EntityHit entity = g.entities(List.of(stored)).stream().filter(h -> tenant.owns(h.entity().id()))
                .findFirst().orElseThrow(() -> new NotFoundException("no entity with id '" + Ids.abbreviate(
                        String.valueOf(entityId), 64) + "'"));
        String id = entity.entity().id();
        List<GraphEdge> edges = g.edges(List.of(id), Scope.of(catalog, tenant, (KnowledgeBase) null),
                limit);
        Map<String, EntityHit> others = new HashMap<>();
        g.entities(edges.stream().map(e -> e.other(id)).distinct().toList())
                .forEach(h -> others.put(h.entity().id(), h));
        List<EntityNeighbours.Neighbour> out = new ArrayList<>();
        for (GraphEdge e : edges) {
            EntityHit other = others.get(e.other(id));
            if (other != null) {
                out.add(new EntityNeighbours.Neighbour(e.predicate(), e.subjectId().equals(id) ? "out" : "in",
                        Shown.of(tenant, other), e.documentId(), e.chunkId()));
            }
        }
        return new EntityNeighbours(Shown.of(tenant, entity), out);
    }

    /** Entity, relation and mention counts of the graph and RDF stores, by modality name. */
    public Map<String, Map<String, Long>> counts() {
        Map<String, Map<String, Long>> out = new TreeMap<>();
        if (graph != null) {
            out.put("graph", graph.counts());
        }
        if (rdf != null) {
            out.put("rdf", rdf.counts());
        }
        return out;
    }

    private EntityGraph entityGraph() {
        if (graph != null) {
            return graph;
        }
        if (rdf != null) {
            return rdf;
        }
        throw new InvalidInputException("the graph and RDF modalities are both off: set POLYRAG_GRAPH_ENABLED=true "
                + "or POLYRAG_RDF_ENABLED=true and ingest again");
    }

    private static void checkLimit(int limit) {
        if (limit < 1 || limit > Limits.MAX_PAGE) {
            throw new InvalidInputException("limit must be in [1, " + Limits.MAX_PAGE + "], got " + limit);
        }
    }
}
