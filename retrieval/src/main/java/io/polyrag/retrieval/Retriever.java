package io.polyrag.retrieval;

import io.polyrag.core.model.Modality;
import io.polyrag.core.model.SearchRequest;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.StoreHit;
import io.polyrag.core.port.Embedder;
import io.polyrag.core.port.FullTextStore;
import io.polyrag.core.port.VectorStore;
import java.util.List;

/** One leg of a search: a modality's ranked candidates for a query. Safe for concurrent use. */
public interface Retriever {

    Modality modality();

    /** At most {@code limit} candidates, best first. May throw; the searcher reports the leg as degraded. */
    List<StoreHit> retrieve(String query, SearchScope scope, int limit);

    /**
     * What one run of a leg found, and why in words (for {@code explain}; empty when the leg has nothing to say
     * beyond its scores).
     *
     * @param sure whether the leg found what the query asks for through a path the text legs cannot see (the graph
     *     legs: a relation the query asks about, one relation away from the entity it names); fusion may then let its
     *     hits outrank theirs
     */
    record Leg(List<StoreHit> hits, String note, boolean sure) {
        public Leg(List<StoreHit> hits, String note) {
            this(hits, note, false);
        }
    }

    /** {@link #retrieve} with the leg's reasons; by default none. */
    default Leg run(String query, SearchScope scope, int limit) {
        return new Leg(retrieve(query, scope, limit), "");
    }

    /**
     * {@link #run(String, SearchScope, int)} under one search's overrides ({@link SearchRequest.Tuning}: a knowledge
     * base's tuning, an experiment); a leg that has none of its own ignores them.
     */
    default Leg run(String query, SearchScope scope, int limit, SearchRequest.Tuning tuning) {
        return run(query, scope, limit);
    }

    /**
     * Whether this retriever's scores lie in [0, 1] and mean the same from query to query (its confidence in the
     * hit), so fusion takes them as they are instead of rescaling each list by its own spread.
     */
    default boolean calibrated() {
        return false;
    }

    /**
     * Whether this leg waits for a language model every search (text-to-Cypher): the graph legs' lag after the text
     * legs ({@code search.graph.lag.ms}) does not apply to it, only the search's leg timeout; otherwise it would be
     * cut off from nearly every search, walked hits and all.
     */
    default boolean patient() {
        return false;
    }

    /** Dense retrieval: embeds the query with the model's query rule, then searches the vector store. */
    static Retriever vector(Embedder embedder, VectorStore store) {
        return new Retriever() {
            @Override
            public Modality modality() {
                return Modality.VECTOR;
            }

            @Override
            public List<StoreHit> retrieve(String query, SearchScope scope, int limit) {
                return store.search(embedder.embedQuery(query), scope, limit);
            }
        };
    }

    /**
     * Dense retrieval with each passage's cosine blended with its document's whole vector by {@code documentWeight}
     * (0 to 1) where the store keeps one: {@link VectorLeg}.
     */
    static Retriever vector(Embedder embedder, VectorStore store, double documentWeight) {
        return new VectorLeg(embedder, store, documentWeight);
    }

    /** Lexical retrieval over the full-text store, passages scored alone. */
    static Retriever fullText(FullTextStore store) {
        return new FullTextLeg(store, 0);
    }

    /**
     * Lexical retrieval over the full-text store, each passage's score blended with its document's whole-text BM25
     * by {@code documentWeight} (0 to 1) where the store keeps whole texts: {@link FullTextLeg}.
     */
    static Retriever fullText(FullTextStore store, double documentWeight) {
        return new FullTextLeg(store, documentWeight);
    }
}
