package io.polyrag.core.port;

import io.polyrag.core.model.Entity;
import io.polyrag.core.model.EntityHit;
import io.polyrag.core.model.GraphEdge;
import io.polyrag.core.model.Mention;
import io.polyrag.core.model.SearchScope;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * What the property graph and the RDF store share: entities, the relations between them and the chunks that mention
 * them, written from {@link io.polyrag.core.model.StoreRecord#graph()}. The primitives are small on purpose; traversal
 * and ranking live in the retrieval layer, once for every backend.
 *
 * <p>Entities are shared across documents and keyed by {@link Entity#key(String)}. Deleting a document version
 * removes its chunks' mentions and relations, and an entity only when no remaining chunk mentions it. Records
 * without a graph part are ignored. Safe for concurrent use.
 */
public interface EntityGraph extends ChunkIndex {

    /** The entities with these ids, with their mention counts; unknown ids are skipped. */
    List<EntityHit> entities(Collection<String> ids);

    /**
     * Entities whose key or an alias contains {@code text} (normalised) and that a chunk in {@code scope} mentions,
     * most mentioned (in scope) first.
     */
    List<EntityHit> findEntities(String text, SearchScope scope, int limit);

    /**
     * Stored relations that have any of {@code entityIds} as subject or object and are stated by a chunk in
     * {@code scope} (so a traversal never crosses into a knowledge base the caller may not see), at most
     * {@code limit}.
     */
    List<GraphEdge> edges(Collection<String> entityIds, SearchScope scope, int limit);

    /** Chunks in {@code scope} that mention any of {@code entityIds}, at most {@code limit}. */
    List<Mention> mentions(Collection<String> entityIds, SearchScope scope, int limit);

    /** Counts for status and tests: {@code entities}, {@code relations}, {@code mentions} (and backend extras). */
    Map<String, Long> counts();

    /**
     * Streams the whole graph to {@code sink} — every chunk first, then the entities, then mentions and relations —
     * for a copy in memory that this process keeps current with its own writes (the graph leg walks it: no store
     * call per search). Returns false without streaming anything where such a copy would go stale: a networked
     * store that other processes write to. The default does that.
     */
    default boolean export(Export sink) {
        return false;
    }

    /** What {@link #export} hands over, one item per call. */
    interface Export {
        void chunk(String chunkId, String documentId, long version, String knowledgeBase);

        void entity(Entity entity);

        void mention(String chunkId, String entityId);

        void relation(String subjectId, String predicate, String objectId, String chunkId, String documentId,
                long version);
    }
}
