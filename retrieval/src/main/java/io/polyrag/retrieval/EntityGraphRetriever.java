package io.polyrag.retrieval;

import io.polyrag.core.model.Entity;
import io.polyrag.core.model.GraphEdge;
import io.polyrag.core.model.Mention;
import io.polyrag.core.model.Modality;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.StoreHit;
import io.polyrag.core.port.EntityGraph;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Graph retrieval, once for every backend: the entities a query names (the seeds), then relations followed up to
 * {@code maxHops} away, then the chunks that mention any of them.
 *
 * <p>A chunk scores {@code sum over the entities it mentions of 1 / (1 + hops)}: a chunk naming a seed counts 1, one
 * naming an entity a relation away counts ½, so chunks about the query's own entities come first and chunks that
 * link them to others follow; more mentions rank higher. Ties break on chunk id, so the order is stable. The number
 * of entities and edges expanded per hop is bounded, so a hub entity cannot make a search slow.
 */
public final class EntityGraphRetriever implements Retriever {
    static final int MAX_SEEDS = 50;
    static final int MAX_EDGES_PER_HOP = 500;
    static final int MAX_ENTITIES = 400;
    private static final Set<String> STOPWORDS = Set.of("a", "an", "and", "are", "as", "at", "be", "by", "did",
            "do", "does", "for", "from", "has", "have", "how", "in", "is", "it", "its", "of", "on", "or", "that",
            "the", "their", "there", "this", "to", "was", "were", "what", "when", "where", "which", "who", "whom",
            "whose", "why", "with", "about", "into", "than", "then", "they", "he", "she", "his", "her", "we", "you",
            "i", "me", "my", "our", "your", "can", "could", "would", "should", "will", "tell", "much", "many");

    private final Modality modality;
    private final EntityGraph graph;
    private final java.util.function.BiFunction<String, String, List<String>> seeds;
    private final int maxHops;

    private EntityGraphRetriever(Modality modality, EntityGraph graph,
            java.util.function.BiFunction<String, String, List<String>> seeds, int maxHops) {
        this.modality = modality;
        this.graph = graph;
        this.seeds = seeds;
        this.maxHops = maxHops;
    }

    /** Graph retrieval: the query's word n-grams (1–4 words) looked up as entity keys and aliases. */
    public static EntityGraphRetriever graph(io.polyrag.core.port.GraphStore store, int maxHops) {
        return new EntityGraphRetriever(Modality.GRAPH, store, (q, ns) -> store.entityIds(ngrams(q, 4).stream()
                .map(g -> ns + g).toList()), maxHops);
    }

    /** RDF retrieval: entities whose {@code rdfs:label} contains one of the query's content words. */
    public static EntityGraphRetriever rdf(io.polyrag.core.port.RdfStore store, int maxHops) {
        return new EntityGraphRetriever(Modality.RDF, store, (q, ns) -> store.entityIdsByLabel(terms(q), MAX_SEEDS),
                maxHops);
    }

    @Override
    public Modality modality() {
        return modality;
    }

    @Override
    public List<StoreHit> retrieve(String query, SearchScope scope, int limit) {
        // Seeds are looked up in the scope's tenant namespace and kept to it: a tenant's search never starts from
        // another tenant's entity (whose names came from that tenant's text).
        List<String> seedIds = seeds.apply(query, scope.namespace()).stream().filter(scope::ownsName).toList();
        if (seedIds.isEmpty()) {
            return List.of();
        }
        Map<String, Integer> hops = new LinkedHashMap<>();
        seedIds.stream().limit(MAX_SEEDS).forEach(id -> hops.putIfAbsent(id, 0));
        Collection<String> frontier = List.copyOf(hops.keySet());
        for (int hop = 1; hop <= maxHops && !frontier.isEmpty() && hops.size() < MAX_ENTITIES; hop++) {
            List<String> next = new ArrayList<>();
            for (GraphEdge e : graph.edges(frontier, scope, MAX_EDGES_PER_HOP)) {
                for (String end : List.of(e.subjectId(), e.objectId())) {
                    if (hops.size() < MAX_ENTITIES && hops.putIfAbsent(end, hop) == null) {
                        next.add(end);
                    }
                }
            }
            frontier = next;
        }
        Map<String, double[]> scores = new HashMap<>();
        Map<String, Mention> chunks = new HashMap<>();
        Set<String> counted = new HashSet<>();
        for (Mention m : graph.mentions(hops.keySet(), scope, Math.max(limit * 20, 1000))) {
            if (counted.add(m.chunkId() + "\u0000" + m.entityId())) {
                scores.computeIfAbsent(m.chunkId(), c -> new double[1])[0] += 1.0 / (1 + hops.get(m.entityId()));
                chunks.putIfAbsent(m.chunkId(), m);
            }
        }
        return scores.entrySet().stream()
                .sorted(Comparator.comparingDouble((Map.Entry<String, double[]> e) -> -e.getValue()[0])
                        .thenComparing(Map.Entry::getKey))
                .limit(limit)
                .map(e -> {
                    Mention m = chunks.get(e.getKey());
                    return new StoreHit(m.chunkId(), m.documentId(), m.version(), e.getValue()[0]);
                }).toList();
    }

    /** The query's normalised words without stopwords. */
    static List<String> terms(String query) {
        String key = Entity.key(query);
        if (key.isEmpty()) {
            return List.of();
        }
        return java.util.Arrays.stream(key.split(" ")).filter(w -> w.length() >= 2 && !STOPWORDS.contains(w))
                .distinct().toList();
    }

    /** Every run of 1 to {@code n} consecutive words of the normalised query that does not start or end on a stopword. */
    static List<String> ngrams(String query, int n) {
        String key = Entity.key(query);
        if (key.isEmpty()) {
            return List.of();
        }
        String[] w = key.split(" ");
        List<String> out = new ArrayList<>();
        for (int i = 0; i < w.length; i++) {
            if (STOPWORDS.contains(w[i])) {
                continue;
            }
            for (int len = 1; len <= n && i + len <= w.length; len++) {
                if (!STOPWORDS.contains(w[i + len - 1])) {
                    out.add(String.join(" ", java.util.Arrays.copyOfRange(w, i, i + len)));
                }
            }
        }
        return out.stream().distinct().toList();
    }
}
