package io.polyrag.core.port;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The property graph: entity nodes, chunk nodes that mention them, and relation edges carrying the chunk, document
 * and properties that state them. Queried with Cypher.
 */
public interface GraphStore extends EntityGraph {

    /** Ids of entities whose key or an alias equals one of {@code keys} (already normalised). */
    List<String> entityIds(Collection<String> keys);

    /**
     * Runs a read-only Cypher query and returns its rows as column → value strings, at most {@code limit}. The caller
     * has rejected writing clauses; the store runs it in a read transaction where the backend has one.
     */
    List<Map<String, String>> readCypher(String cypher, int limit);

    /** The graph's schema as a Cypher-writing model needs it: node labels, properties and relationship types. */
    String schema();
}
