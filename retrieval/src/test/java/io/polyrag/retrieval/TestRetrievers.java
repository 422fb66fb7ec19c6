package io.polyrag.retrieval;

import io.polyrag.core.model.FusionMethod;
import io.polyrag.core.model.Modality;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.StoreHit;
import java.util.List;
import java.util.Map;

/** Retrievers that stand in for stores which answer, fail or hang on cue, and the searcher options tests use. */
final class TestRetrievers {
    /** What a retriever does with a query. */
    @FunctionalInterface
    interface Leg {
        List<StoreHit> retrieve(String query, SearchScope scope, int limit);
    }

    private TestRetrievers() {
    }

    static Retriever of(Modality modality, Leg leg) {
        return new Retriever() {
            @Override
            public Modality modality() {
                return modality;
            }

            @Override
            public List<StoreHit> retrieve(String query, SearchScope scope, int limit) {
                return leg.retrieve(query, scope, limit);
            }
        };
    }

    /** A reranker named {@code id} that scores each call's passages with {@code score}. */
    static io.polyrag.core.port.Reranker reranker(String id,
            java.util.function.BiFunction<String, List<String>, List<Double>> score) {
        return new io.polyrag.core.port.Reranker() {
            @Override
            public String id() {
                return id;
            }

            @Override
            public List<Double> score(String query, List<String> passages) {
                return score.apply(query, passages);
            }
        };
    }

    /** RRF over {@code candidates}-deep lists, a 5 s leg timeout, queries up to 1,000 characters, top-k up to 50. */
    static HybridSearcher.Options options(int candidates) {
        return new HybridSearcher.Options(candidates, 5000, FusionMethod.RRF, 60, Map.of(),
                Fusion.Normalization.ZSCORE, 0.8, 1000, 50, 30);
    }
}
