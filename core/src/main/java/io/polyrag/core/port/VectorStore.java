package io.polyrag.core.port;

import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.StoreHit;
import io.polyrag.core.model.StoreRecord;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Nearest-neighbour search over chunk embeddings.
 *
 * <p>Every record written must carry a vector of {@link #dimension()} floats; a record with none or another length
 * is rejected with an {@link IllegalArgumentException} before anything is written. Scores are cosine similarities in
 * [-1, 1], best first; ties are broken by chunk id so results are deterministic.
 */
public interface VectorStore extends ChunkIndex {

    /** The vector length this store was opened for. */
    int dimension();

    /**
     * The {@code limit} records nearest to {@code vector} within {@code scope}, best first. May be approximate; an
     * implementation says in its documentation how recall is controlled.
     */
    List<StoreHit> search(float[] vector, SearchScope scope, int limit);

    /**
     * Like {@link #upsert(List)}, and in the same step the vectors of whole document versions among the records'
     * ({@code wholes}, each of {@link #dimension()} floats; a version absent has none). They stand beside the records:
     * {@link #search} never returns them, {@link #size()} and {@link #versions()} do not count them, and deleting a
     * version deletes its whole vector. The default keeps none.
     */
    default void upsert(List<StoreRecord> records, Map<DocumentVersion, float[]> wholes) {
        upsert(records);
    }

    /**
     * The cosine of {@code vector} with the whole vector of each of {@code versions} that has one
     * ({@link #upsert(List, Map)}); a version with none is absent. The default keeps none.
     */
    default Map<DocumentVersion, Double> wholeCosines(float[] vector, Collection<DocumentVersion> versions) {
        return Map.of();
    }
}
