package io.polyrag.core.port;

import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.StoreHit;
import java.util.List;

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
}
