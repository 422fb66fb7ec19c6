package io.polyrag.core.port;

import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.Relation;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.StoreHit;
import java.util.Collection;
import java.util.List;

/**
 * A property graph of entities and the relations between them, each relation tied to the chunk that states it.
 *
 * <p>Entities are shared across documents and identified by their normalised name. Deleting a document version
 * removes its relations, and an entity only when no remaining relation mentions it. Safe for concurrent use.
 */
public interface GraphStore extends AutoCloseable {

    /** Adds relations (and the entities they name) durably. */
    void upsert(List<Relation> relations);

    /** Removes the relations of these document versions, then entities nothing mentions any more. */
    void delete(Collection<DocumentVersion> versions);

    /**
     * Chunks that mention entities matching {@code entityNames}, or entities up to {@code maxHops} relations away,
     * best first (fewer hops, then more mentions).
     */
    List<StoreHit> search(Collection<String> entityNames, int maxHops, SearchScope scope, int limit);

    @Override
    void close();
}
