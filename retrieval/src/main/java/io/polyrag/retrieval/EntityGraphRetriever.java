package io.polyrag.retrieval;

import io.polyrag.core.model.Entity;
import io.polyrag.core.model.EntityHit;
import io.polyrag.core.model.GraphEdge;
import io.polyrag.core.model.Mention;
import io.polyrag.core.model.Modality;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.StoreHit;
import io.polyrag.core.model.Vocabulary;
import io.polyrag.core.port.EntityGraph;
import io.polyrag.core.port.GraphStore;
import io.polyrag.core.port.RdfStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Graph retrieval, once for every backend: the entities a query names (the seeds), the relations they take part
 * in, and the chunks that state those relations or the relations of the entities they reach.
 *
 * <p>The leg speaks only when the query names an entity the graph knows, and its scores say how sure it is:
 * <ul>
 *   <li><b>Seeds.</b> A match counts only if the query writes it as a name: every word of it the query holds with
 *       a capital or a digit ("Maren Ostrava", "ALDH1"; the query's first word only inside a longer name). A query
 *       typed all in lower case may still name a whole multi-word entity, at half confidence. A lower-case common
 *       word that some text wrote as a name ("cancer", "expression") seeds nothing. A seed's confidence is then
 *       scaled by its specificity: 1 for an entity mentioned by at most {@value #SPECIFIC_MENTIONS} chunks,
 *       falling with the logarithm beyond (a hub names little). RDF, whose seeds match labels by their words, also
 *       needs at least half of a label's words in the query and counts by that share. A name the query holds
 *       whole wins over the longer names holding its words: "DNA" seeds the entity "dna", not "dna binding" nor
 *       "t cell dna" (whose alias it is in one abstract).</li>
 *   <li><b>Relations.</b> A relation is <em>asked about</em> when its verb is one of the query's words ("founded"
 *       for {@code found}, "made" for {@code make_by}; never a plain co-occurrence or a light verb such as "have").
 *       A chunk stating a seed's own relation gets a tenth of the seed's weight (half that when not asked about):
 *       the text legs find such chunks by the seed's name anyway. An entity a relation reaches carries the seed's
 *       weight on in full when the relation is asked about, a quarter when not, times its own specificity; when an
 *       asked relation reaches several entities they share it (1 / √n each). A chunk stating one of the reached
 *       entity's relations gets that weight (halved when not asked about), and a chunk merely mentioning a reached
 *       entity a tenth of it (a seed: a hundredth of the seed's weight, the text legs find it by the name). "In
 *       which city is the company founded by Maren Ostrava headquartered?" thus ranks the company's profile
 *       ("…headquartered in Pellmar"), which never names her, first.</li>
 *   <li><b>Scores.</b> A chunk counts by its strongest evidence plus a fifth of the rest (at most a fifth more), up
 *       to 1. Scores are not rescaled per query, so they mean the same from query to query: fusion takes them as
 *       they are ({@link #calibrated()}, {@link Fusion}).</li>
 * </ul>
 * The weights were chosen on the train splits of SciFact and of the generated entity corpus (docs/evaluation.md).
 * Ties break on chunk id, so the order is stable. The entities and edges expanded per hop are bounded, and an
 * entity reached with a weight below {@value #FLOOR} is neither followed nor read for mentions, so a hub entity
 * cannot make a search slow.
 */
public final class EntityGraphRetriever implements Retriever {
    static final int MAX_SEEDS = 50;
    static final int MAX_EDGES_PER_HOP = 500;
    static final int MAX_ENTITIES = 400;
    /** Mentioned by at most this many chunks, an entity is fully specific. */
    static final int SPECIFIC_MENTIONS = 25;
    private static final double MENTION = 0.1;
    /**
     * An entity reached with less weight than this is not followed further and its mentions are not read: what it
     * could add (its relations' chunks at most this, its mentions a tenth of it) cannot move a fused ranking, and a
     * hub's neighbours ("DNA" reaches a hundred entities on 1,000 SciFact abstracts) were most of a slow search.
     */
    static final double FLOOR = 0.1;
    /**
     * How much a chunk stating a seed's own relation, or merely naming the seed, counts against the same evidence
     * about an entity reached: the text legs find those chunks by the seed's name.
     */
    private static final double SEED_EVIDENCE = 0.1;
    /** How much of its weight a relation the query does not ask about carries to the entity it reaches. */
    private static final double UNASKED_CARRY = 0.25;
    /**
     * Evidence one relation beyond a named entity that makes the leg sure, when the query asks about two relations
     * or more: reached through a relation the query does not name ("the yard the ship came from") it still counts.
     */
    static final double SURE_OF_TWO = 0.2;
    /** What evidence beyond a chunk's strongest adds, per unit. */
    private static final double FURTHER = 0.2;
    private static final Set<String> STOPWORDS = Set.of("a", "an", "and", "are", "as", "at", "be", "by", "did",
            "do", "does", "for", "from", "has", "have", "how", "in", "is", "it", "its", "of", "on", "or", "that",
            "the", "their", "there", "this", "to", "was", "were", "what", "when", "where", "which", "who", "whom",
            "whose", "why", "with", "about", "into", "than", "then", "they", "he", "she", "his", "her", "we", "you",
            "i", "me", "my", "our", "your", "can", "could", "would", "should", "will", "tell", "much", "many");

    private final Modality modality;
    private final Reads store;
    private final GraphMemory memory;
    private final boolean partialLabels;
    private final int maxHops;

    private EntityGraphRetriever(Modality modality, Reads store, GraphMemory memory, boolean partialLabels,
            int maxHops) {
        this.modality = modality;
        this.store = store;
        this.memory = memory;
        this.partialLabels = partialLabels;
        this.maxHops = maxHops;
    }

    /**
     * What a walk reads, each as the store's query answers it: a store, or its copy in memory ({@link GraphMemory}).
     */
    public interface Reads {
        /** Ids of entities whose key or an alias equals one of {@code keys} (the graph's seeds). */
        List<String> ids(Collection<String> keys);

        /**
         * Ids of entities of {@code namespace} ({@link RdfStore#entityIdsByLabel(Collection, String, int)}) whose
         * label holds one of {@code terms} as a word, most terms first (RDF's seeds).
         */
        List<String> byLabel(Collection<String> terms, String namespace, int limit);

        List<EntityHit> entities(Collection<String> ids);

        List<GraphEdge> edges(Collection<String> ids, SearchScope scope, int limit);

        List<Mention> mentions(Collection<String> ids, SearchScope scope, int limit);

        /** A store's queries. */
        static Reads of(EntityGraph graph) {
            return new Reads() {
                @Override
                public List<String> ids(Collection<String> keys) {
                    return ((GraphStore) graph).entityIds(keys);
                }

                @Override
                public List<String> byLabel(Collection<String> terms, String namespace, int limit) {
                    return ((RdfStore) graph).entityIdsByLabel(terms, namespace, limit);
                }

                @Override
                public List<EntityHit> entities(Collection<String> ids) {
                    return graph.entities(ids);
                }

                @Override
                public List<GraphEdge> edges(Collection<String> ids, SearchScope scope, int limit) {
                    return graph.edges(ids, scope, limit);
                }

                @Override
                public List<Mention> mentions(Collection<String> ids, SearchScope scope, int limit) {
                    return graph.mentions(ids, scope, limit);
                }
            };
        }
    }

    /** Graph retrieval: the query's word n-grams (1–4 words) looked up as entity keys and aliases. */
    public static EntityGraphRetriever graph(GraphStore store, int maxHops) {
        return graph(store, null, maxHops);
    }

    /** Graph retrieval reading {@code memory} (null: none) once it is loaded, the store until then. */
    public static EntityGraphRetriever graph(GraphStore store, GraphMemory memory, int maxHops) {
        return new EntityGraphRetriever(Modality.GRAPH, Reads.of(store), memory, false, maxHops);
    }

    /** RDF retrieval: entities whose {@code rdfs:label} holds one of the query's content words as a word. */
    public static EntityGraphRetriever rdf(RdfStore store, int maxHops) {
        return rdf(store, null, maxHops);
    }

    /** RDF retrieval reading {@code memory} (null: none) once it is loaded, the store until then. */
    public static EntityGraphRetriever rdf(RdfStore store, GraphMemory memory, int maxHops) {
        return new EntityGraphRetriever(Modality.RDF, Reads.of(store), memory, true, maxHops);
    }

    /** The seeds' ids: the query's n-grams as keys (graph), or its words in labels (RDF). */
    private List<String> seeds(Reads reads, String query, String namespace) {
        return partialLabels ? reads.byLabel(terms(query), namespace, MAX_SEEDS)
                : reads.ids(ngrams(query, 4).stream().map(g -> namespace + g).toList());
    }

    @Override
    public Modality modality() {
        return modality;
    }

    @Override
    public boolean calibrated() {
        return true;
    }

    @Override
    public List<StoreHit> retrieve(String query, SearchScope scope, int limit) {
        return run(query, scope, limit).hits();
    }

    /** How a chunk's best evidence came about, for the leg's note. */
    private record Why(String from, String predicate, String to, boolean asked, int hop) {
        @Override
        public String toString() {
            return key(from) + " -" + predicate + (asked ? "*" : "") + "- " + key(to) + (hop == 1 ? " (named)" : "");
        }

        private static String key(String id) {
            int slash = id.indexOf('/');
            return slash < 0 ? id : id.substring(slash + 1);
        }
    }

    @Override
    public Leg run(String query, SearchScope scope, int limit) {
        // The copy in memory once it is loaded (no store call), else the store.
        return walk(memory != null && memory.ready() ? memory : store, query, scope, limit);
    }

    // style: the walk's hops share their frontier, scores and caps; cut, they would pass six values around
    private Leg walk(Reads graph, String query, SearchScope scope, int limit) {
        // Seeds are looked up in the scope's tenant namespace and kept to it: a tenant's search never starts from
        // another tenant's entity (whose names came from that tenant's text).
        List<String> seedIds = seeds(graph, query, scope.namespace()).stream().filter(scope::ownsName).toList();
        if (seedIds.isEmpty()) {
            return new Leg(List.of(), "names nothing the graph knows");
        }
        Map<String, Double> seedWeights = confidence(graph, query, seedIds, scope.namespace());
        if (seedWeights.isEmpty()) {
            return new Leg(List.of(), "no name written as one: " + seedIds.stream().limit(5).map(Why::key).toList());
        }
        Map<String, Why> why = new HashMap<>();
        Set<String> words = queryWords(query);
        Vocabulary.Asking asking = Vocabulary.asking(query);
        Set<String> askedPredicates = asking.predicates();
        Map<String, double[]> scores = new HashMap<>();
        Map<String, StoreHit> where = new HashMap<>();
        Set<String> counted = new HashSet<>();
        // Every entity met, with the weight it carries: a seed its confidence; an entity reached the weight of the
        // best relation that reached it, in full when the query asks about that relation ("founded by"), else a
        // quarter.
        Map<String, Double> weight = new LinkedHashMap<>(seedWeights);
        Map<String, Double> frontier = seedWeights;
        // The asked predicate through which each entity was reached: a question asks each relation once, so the
        // relation that reached an entity is not asked of it again ("Where was X born?" reaches X's birthplace
        // through born_in; the place's own relations are then not what is asked).
        Map<String, String> reachedBy = new HashMap<>();
        // The best evidence found one relation beyond the named entity. (Requiring both relations of the chain to be
        // asked about was tried: it lost a third of the two-hop gain, whose first relation is often written in a way
        // the extractor keeps as related_to.)
        double path = 0;
        for (int hop = 1; hop <= maxHops + 1 && !frontier.isEmpty(); hop++) {
            Map<String, Double> next = new LinkedHashMap<>();
            Set<String> asked = new HashSet<>();
            for (GraphEdge e : graph.edges(frontier.keySet(), scope, MAX_EDGES_PER_HOP)) {
                String from = frontier.containsKey(e.subjectId()) ? e.subjectId() : e.objectId();
                if (!counted.add(e.chunkId() + "\u0000" + e.subjectId() + "\u0000" + e.predicate() + "\u0000"
                        + e.objectId())) {
                    continue;
                }
                double relevance = e.predicate().equals(reachedBy.get(from)) ? 0.5
                        : relevance(e.predicate(), askedPredicates, words);
                double w = frontier.get(from) * relevance;
                double evidence = hop == 1 ? SEED_EVIDENCE * w : w;
                if (hop >= 2) {
                    path = Math.max(path, evidence);
                }
                double[] before = scores.get(e.chunkId());
                if (before == null || evidence > before[1]) {
                    why.put(e.chunkId(), new Why(from, e.predicate(), e.other(from), relevance == 1.0, hop));
                }
                add(scores, where, e.chunkId(), e.documentId(), e.version(), evidence);
                String to = e.other(from);
                // The last round reads the relations of the entities reached; it follows none further.
                double carried = frontier.get(from) * (relevance == 1.0 ? 1.0 : UNASKED_CARRY);
                if (hop <= maxHops && carried >= FLOOR && !weight.containsKey(to)
                        && weight.size() + next.size() < MAX_ENTITIES) {
                    next.merge(to, carried, Math::max);
                    if (relevance == 1.0) {
                        asked.add(to);
                        reachedBy.putIfAbsent(to, e.predicate());
                    }
                }
            }
            if (!next.isEmpty()) {
                // A relation to a hub ("Cancer", "United States") says little about either end; and a relation the
                // query asks about that leads to many entities points at none of them: their weights share
                // 1 / sqrt(how many) when more than one is reached that way.
                Map<String, Long> counts = mentionCounts(graph, List.copyOf(next.keySet()));
                double share = asked.size() > 1 ? 1.0 / Math.sqrt(asked.size()) : 1.0;
                next.replaceAll((id, w) -> w * specificity(counts.getOrDefault(id, 1L))
                        * (asked.contains(id) ? share : 1.0));
                next.values().removeIf(w -> w < FLOOR);
            }
            weight.putAll(next);
            frontier = next;
        }
        Set<String> mentioned = new HashSet<>();
        for (Mention m : graph.mentions(weight.keySet(), scope, Math.max(limit * 20, 1000))) {
            if (mentioned.add(m.chunkId() + "\u0000" + m.entityId())) {
                add(scores, where, m.chunkId(), m.documentId(), m.version(), MENTION * weight.get(m.entityId())
                        * (seedWeights.containsKey(m.entityId()) ? SEED_EVIDENCE : 1.0));
            }
        }
        // A chunk counts by its strongest evidence, and a fifth of the rest: a biography stating ten relations of
        // the seed must not outrank, by their number, the one chunk that states the relation asked about.
        for (double[] v : scores.values()) {
            v[0] = Math.min(1.0, v[1] + FURTHER * Math.min(v[0] - v[1], v[1]));
        }
        List<StoreHit> hits = scores.entrySet().stream().filter(e -> e.getValue()[0] > 0)
                .sorted(Comparator.comparingDouble((Map.Entry<String, double[]> e) -> -e.getValue()[0])
                        .thenComparing(Map.Entry::getKey))
                .limit(limit)
                .map(e -> {
                    StoreHit h = where.get(e.getKey());
                    return new StoreHit(h.chunkId(), h.documentId(), h.version(), e.getValue()[0]);
                }).toList();
        StringBuilder note = new StringBuilder("named ");
        seedWeights.forEach((id, c) -> note.append(Why.key(id)).append(String.format(Locale.ROOT,
                " (%.2f) ", c)));
        note.append("; asks ").append(askedPredicates.isEmpty() ? "nothing it knows" : askedPredicates)
                .append("; reached ").append(weight.size() - seedWeights.size()).append(" entities");
        for (StoreHit h : hits.subList(0, Math.min(3, hits.size()))) {
            note.append(String.format(Locale.ROOT, "; %.2f for ", h.score())).append(why.containsKey(
                    h.chunkId()) ? why.get(h.chunkId()) : "a mention");
        }
        // Sure: the query asks about two relations (a question of two hops: "Who founded the company that makes the
        // Kestrel-9?") and the walk found strong evidence one relation beyond the named entity. A question asking
        // about one relation is answered by the named entity's own relation, which the text legs find by its name:
        // evidence a hop further ("master shipwright at the yard" reaching the captains of the yard's ships) is a
        // guess there.
        boolean sure = path >= SURE_OF_TWO && asking.asks() >= 2;
        return new Leg(hits, note.append(sure ? "; sure" : "").toString(), sure);
    }

    private static void add(Map<String, double[]> scores, Map<String, StoreHit> where, String chunkId,
            String documentId, long version, double w) {
        double[] v = scores.computeIfAbsent(chunkId, c -> new double[2]);
        v[0] += w;
        v[1] = Math.max(v[1], w);
        where.putIfAbsent(chunkId, new StoreHit(chunkId, documentId, version, 0));
    }

    /**
     * 1 when the query asks about the relation: its predicate is one the query's words ask about in the graph's
     * vocabulary ({@link io.polyrag.core.model.Vocabulary#asked}: "founded", "set up", "founder" all ask about
     * {@code founded}; "makes", "maker", "manufacturer" about {@code makes}), or — for a predicate outside the closed
     * set, a verb's lemma — its verb is one of the query's words; else ½.
     */
    static double relevance(String predicate, Set<String> asked, Set<String> queryWords) {
        if (asked.contains(predicate)) {
            return 1.0;
        }
        if (!predicate.equals(CO_OCCURRENCE) && !Vocabulary.closed(predicate)) {
            for (String w : ExtractiveAnswerer.terms(predicate.replace('_', ' '))) {
                if (queryWords.contains(w) && !LIGHT_VERBS.contains(w)) {
                    return 1.0;
                }
            }
        }
        return 0.5;
    }

    /** The predicate of two names met in one sentence with no verb between them: it asks nothing. */
    private static final String CO_OCCURRENCE = "related_to";
    /** Verbs too common to say which relation a query asks about (as {@link ExtractiveAnswerer#terms} folds them). */
    private static final Set<String> LIGHT_VERBS = Set.of("be", "hav", "do", "includ", "show", "use", "get", "go",
            "becom", "remain", "seem", "appear", "involv", "provid");

    /** The query's words as {@link #relevance} compares them: folded, irregular past forms as their verb. */
    static Set<String> queryWords(String query) {
        Set<String> out = new HashSet<>(ExtractiveAnswerer.terms(query));
        for (String w : query.toLowerCase(Locale.ROOT).split("[^\\p{L}]+")) {
            String verb = IRREGULAR.get(w);
            if (verb != null) {
                out.addAll(ExtractiveAnswerer.terms(verb));
            }
        }
        return out;
    }

    private static final Map<String, String> IRREGULAR = Map.ofEntries(Map.entry("made", "make"),
            Map.entry("led", "lead"), Map.entry("built", "build"), Map.entry("sold", "sell"),
            Map.entry("bought", "buy"), Map.entry("wrote", "write"), Map.entry("written", "write"),
            Map.entry("won", "win"), Map.entry("began", "begin"), Map.entry("begun", "begin"),
            Map.entry("gave", "give"), Map.entry("given", "give"), Map.entry("held", "hold"), Map.entry("ran", "run"),
            Map.entry("taught", "teach"), Map.entry("met", "meet"), Map.entry("left", "leave"),
            Map.entry("took", "take"), Map.entry("taken", "take"), Map.entry("grew", "grow"),
            Map.entry("grown", "grow"), Map.entry("found", "find"), Map.entry("brought", "bring"),
            Map.entry("thought", "think"), Map.entry("spent", "spend"), Map.entry("sent", "send"),
            Map.entry("paid", "pay"), Map.entry("kept", "keep"), Map.entry("told", "tell"),
            Map.entry("became", "become"), Map.entry("came", "come"), Map.entry("went", "go"),
            Map.entry("chose", "choose"), Map.entry("chosen", "choose"), Map.entry("drew", "draw"),
            Map.entry("flew", "fly"), Map.entry("knew", "know"), Map.entry("known", "know"),
            Map.entry("saw", "see"), Map.entry("seen", "see"), Map.entry("stood", "stand"),
            Map.entry("struck", "strike"));

    /**
     * Each seed's confidence: how it is named in the query times how specific it is (and, for RDF's word matches,
     * the share of its label's words the query holds, at least half). Seeds with none are left out.
     */
    // style: each seed's evidence gathered in one pass over the query's matches
    Map<String, Double> confidence(Reads graph, String query, List<String> seedIds, String namespace) {
        Set<String> capitalised = new HashSet<>();
        Set<String> all = new HashSet<>();
        String first = null;
        // Words with their marks (a Devanagari vowel sign split "राम" into letters no key holds) and folded as keys
        // are (NFKC, İ): the seeds found by their keys were otherwise never named by the query.
        for (String w : query.split("[^\\p{L}\\p{M}\\p{N}]+")) {
            String k = w.isEmpty() ? "" : Entity.key(w);
            if (!k.isEmpty()) {
                for (String part : k.split(" ")) {
                    all.add(part);
                }
                boolean code = w.chars().anyMatch(Character::isDigit) || w.length() > 1 && w.equals(w.toUpperCase(
                        Locale.ROOT));
                // The query's first word is capitalised as any sentence's: it names only as part of a longer name,
                // or written as a code ("ALDH1", "QD").
                if (first == null && !code) {
                    first = k;
                } else if (Character.isUpperCase(w.codePointAt(0)) || code) {
                    capitalised.add(k);
                }
                if (first == null) {
                    first = "";
                }
            }
        }
        // "Where did marie curie work?" is typed in lower case: its capital opens the sentence.
        String rest = query.strip().replaceFirst("^\\S+", "");
        boolean lowerCase = rest.chars().noneMatch(Character::isUpperCase);
        Map<String, Double> forms = new LinkedHashMap<>();
        // The query's words that some seed's name holds whole ("DNA" for the entity "dna"): a seed holding only some
        // of its name's words through those ("dna binding", or "t cell dna" found by its alias "dna") is another
        // entity that the query does not name, and is left out.
        Set<String> wholly = new HashSet<>();
        List<String> candidates = seedIds.stream().limit(MAX_SEEDS).toList();
        for (String id : candidates) {
            List<String> keyWords = List.of(key(id, namespace).split(" "));
            if (all.containsAll(keyWords)) {
                wholly.addAll(keyWords);
            }
        }
        for (String id : candidates) {
            String[] keyWords = key(id, namespace).split(" ");
            int present = 0;
            int content = 0;
            int named = 0;
            boolean covered = true;
            for (String w : keyWords) {
                if (all.contains(w)) {
                    present++;
                    covered &= wholly.contains(w);
                    // A name's small words ("of" in "Pharos of Alexandria") are written in lower case.
                    if (!STOPWORDS.contains(w)) {
                        content++;
                        if (capitalised.contains(w) || w.equals(first) && keyWords.length > 1) {
                            named++;
                        }
                    }
                }
            }
            if (present > 0 && present < keyWords.length && covered) {
                continue;
            }
            double share = present == 0 ? 1.0 : (double) present / keyWords.length;
            if (partialLabels && share < 0.5) {
                continue;
            }
            // Named: every word of it the query holds is written as a name (matched through an alias, which shares
            // no word with the key: the query must write some name). A query typed all in lower case may still name
            // a whole multi-word entity, with less confidence. Else the match is a common word ("cancer",
            // "expression") that some text happened to write as a name: no seed.
            double form = present == 0 ? (capitalised.isEmpty() ? 0.0 : 1.0)
                    : content > 0 && named == content ? 1.0
                    : lowerCase && keyWords.length > 1 && share == 1.0 ? 0.5 : 0.0;
            if (form > 0) {
                forms.put(id, (partialLabels ? share : 1.0) * form);
            }
        }
        // A name the query writes whole is the one it means, not the shorter names inside it: "Port Wondith Minor"
        // seeds that port, not also "minor" or "port wondith".
        List<Set<String>> whole = new ArrayList<>();
        for (String id : forms.keySet()) {
            Set<String> w = new HashSet<>(List.of(key(id, namespace).split(" ")));
            if (all.containsAll(w)) {
                whole.add(w);
            }
        }
        forms.keySet().removeIf(id -> {
            Set<String> w = new HashSet<>(List.of(key(id, namespace).split(" ")));
            return whole.stream().anyMatch(x -> x.size() > w.size() && x.containsAll(w));
        });
        Map<String, Double> out = new LinkedHashMap<>();
        if (!forms.isEmpty()) {
            Map<String, Long> mentions = mentionCounts(graph, List.copyOf(forms.keySet()));
            forms.forEach((id, f) -> out.put(id, f * specificity(mentions.getOrDefault(id, 1L))));
        }
        return out;
    }

    private static String key(String id, String namespace) {
        return id.startsWith(namespace) ? id.substring(namespace.length()) : id;
    }

    private static Map<String, Long> mentionCounts(Reads graph, List<String> ids) {
        Map<String, Long> out = new HashMap<>();
        for (EntityHit h : graph.entities(ids)) {
            out.put(h.entity().id(), h.mentions());
        }
        return out;
    }

    /** 1 for an entity mentioned by at most {@link #SPECIFIC_MENTIONS} chunks, falling with the log beyond. */
    static double specificity(long mentions) {
        return mentions <= SPECIFIC_MENTIONS ? 1.0
                : 1.0 / (1 + Math.log((double) mentions / SPECIFIC_MENTIONS) / Math.log(2));
    }

    /** The query's normalised words without stopwords. */
    static List<String> terms(String query) {
        String key = Entity.key(query);
        if (key.isEmpty()) {
            return List.of();
        }
        return Arrays.stream(key.split(" ")).filter(w -> w.length() >= 2 && !STOPWORDS.contains(w))
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
                    out.add(String.join(" ", Arrays.copyOfRange(w, i, i + len)));
                }
            }
        }
        return out.stream().distinct().toList();
    }
}
