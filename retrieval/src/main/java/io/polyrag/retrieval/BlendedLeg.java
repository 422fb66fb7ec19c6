package io.polyrag.retrieval;

import io.polyrag.core.model.SearchRequest;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.StoreHit;
import java.util.List;
import java.util.function.Function;

/**
 * A leg that blends each passage's score with its document's by a weight (0 to 1): the configured one, or a search's
 * own ({@link SearchRequest.Tuning}: a knowledge base's tuning, a request's), which {@code explain} names as such.
 * The full-text leg (BM25 over the whole text) and the vector leg (the whole vector's cosine) are the two.
 */
abstract class BlendedLeg implements Retriever {
    private final double documentWeight;
    private final String setting;
    private final Function<SearchRequest.Tuning, Double> own;

    /**
     * @param documentWeight the configured weight
     * @param setting the setting it comes from, for {@code explain}
     * @param own a search's own weight in its tuning, null when it has none
     */
    BlendedLeg(double documentWeight, String setting, Function<SearchRequest.Tuning, Double> own) {
        if (documentWeight < 0 || documentWeight > 1) {
            throw new IllegalArgumentException("document weight must be between 0 and 1, was " + documentWeight);
        }
        this.documentWeight = documentWeight;
        this.setting = setting;
        this.own = own;
    }

    /** One run with weight {@code w}; {@code whose} says where it came from ({@code explain}). */
    abstract Leg run(String query, SearchScope scope, int limit, double w, String whose);

    @Override
    public final List<StoreHit> retrieve(String query, SearchScope scope, int limit) {
        return run(query, scope, limit).hits();
    }

    @Override
    public final Leg run(String query, SearchScope scope, int limit) {
        return run(query, scope, limit, documentWeight, setting);
    }

    /** The search's own weight when it has one, else the configured one. */
    @Override
    public final Leg run(String query, SearchScope scope, int limit, SearchRequest.Tuning tuning) {
        Double w = tuning == null ? null : own.apply(tuning);
        return w == null ? run(query, scope, limit) : run(query, scope, limit, w, "this search's");
    }
}
