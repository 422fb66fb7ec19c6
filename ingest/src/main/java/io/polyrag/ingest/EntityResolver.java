package io.polyrag.ingest;

import io.polyrag.core.model.ChunkGraph;
import io.polyrag.core.model.Entity;
import io.polyrag.core.model.Extraction;
import io.polyrag.core.model.Fact;
import io.polyrag.core.model.Relation;
import io.polyrag.core.model.Vocabulary;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Turns one document's raw extractions into resolved chunk graphs: every name mapped to one canonical entity.
 *
 * <p>The merge rule:
 * <ol>
 *   <li>Names are normalised by {@link Entity#key(String)} (case, punctuation, possessives, leading titles): "Mr.
 *       Holmes" and "Holmes's" are both {@code holmes}.</li>
 *   <li>Within one document, a key whose words are the first or the last words of exactly one longer key merges into
 *       it: {@code holmes} and {@code sherlock} become {@code sherlock holmes}. When several longer keys qualify
 *       ({@code sherlock holmes}, {@code mycroft holmes}) the short name is ambiguous and stays its own entity.</li>
 *   <li>Within one document, a one-word key in capitals that spells the initials of exactly one longer key merges
 *       into it: "Quillon Dynamics (QD) … QD employs" is one entity, {@code qd} an alias.</li>
 *   <li>Across documents, equal keys are one entity (the stores merge on the key); the short names merged in rule 2
 *       are kept as aliases, so a query or a later document using them still finds the entity.</li>
 * </ol>
 * The display name is the form used most often for the canonical key (ties: the longer, then the first seen); the
 * type is the one most of its mentions were given. Predicates are read in the graph's {@link Vocabulary}. Relations whose two ends resolve to one entity are dropped, and a chunk states a
 * relation once. A fact whose subject or object is {@link Fact#DOCUMENT_SUBJECT} (an extractor's pronoun with no name
 * before it in its chunk) is given the document's subject: the entity the title names (its key equal to the title's, else the longest key the title
 * contains as whole words); without one the fact is dropped.
 */
final class EntityResolver {
    private EntityResolver() {
    }

    static List<ChunkGraph> resolve(List<Extraction> perChunk, List<String> chunkIds, String documentId,
            long version) {
        return resolve(perChunk, chunkIds, documentId, version, "");
    }

    // style: one pass merging mentions into entities; its steps share the per-document maps
    static List<ChunkGraph> resolve(List<Extraction> perChunk, List<String> chunkIds, String documentId,
            long version, String title) {
        Map<String, Map<String, Integer>> forms = new LinkedHashMap<>();
        Map<String, Map<String, Integer>> types = new HashMap<>();
        List<List<Fact>> facts = new ArrayList<>();
        for (Extraction x : perChunk) {
            for (Entity e : x.entities()) {
                note(forms, types, e.name(), e.type());
            }
            List<Fact> read = new ArrayList<>();
            for (Fact f : x.facts()) {
                Fact c = canonical(f);
                read.add(c);
                if (!c.subject().equals(Fact.DOCUMENT_SUBJECT)) {
                    note(forms, types, c.subject(), c.subjectType());
                }
                if (!c.object().equals(Fact.DOCUMENT_SUBJECT)) {
                    note(forms, types, c.object(), c.objectType());
                }
            }
            facts.add(read);
        }
        Map<String, String> canonical = canonicalKeys(forms);
        keepApartByType(canonical, types);
        String subject = subjectKey(title == null ? "" : title, canonical);
        Map<String, List<String>> aliases = new HashMap<>();
        Map<String, List<String>> members = new HashMap<>();
        canonical.forEach((k, c) -> {
            members.computeIfAbsent(c, x -> new ArrayList<>()).add(k);
            if (!k.equals(c)) {
                aliases.computeIfAbsent(c, x -> new ArrayList<>()).add(k);
            }
        });
        Map<String, Entity> entities = new HashMap<>();
        for (String key : forms.keySet()) {
            String c = canonical.get(key);
            if (entities.containsKey(c)) {
                continue;
            }
            // The type most of the document's mentions of the entity (under any of its names) were given.
            Map<String, Integer> votes = new HashMap<>();
            for (String k : members.getOrDefault(c, List.of())) {
                types.getOrDefault(k, Map.of()).forEach((t, n) -> votes.merge(t, n, Integer::sum));
            }
            String type = votes.entrySet().stream().max(Map.Entry.<String, Integer>comparingByValue()
                    .thenComparing(Map.Entry.comparingByKey(Comparator.reverseOrder()))).map(Map.Entry::getKey)
                    .orElse("");
            entities.put(c, new Entity(c, displayName(forms.get(c)), type,
                    aliases.getOrDefault(c, List.of()).stream().sorted().toList()));
        }
        List<ChunkGraph> out = new ArrayList<>();
        for (int i = 0; i < perChunk.size(); i++) {
            Extraction x = perChunk.get(i);
            Map<String, Entity> mentioned = new LinkedHashMap<>();
            for (Entity e : x.entities()) {
                resolved(e.name(), canonical, entities).ifPresent(r -> mentioned.putIfAbsent(r.id(), r));
            }
            Set<String> seen = new LinkedHashSet<>();
            List<Relation> relations = new ArrayList<>();
            for (Fact f : facts.get(i)) {
                var s = f.subject().equals(Fact.DOCUMENT_SUBJECT)
                        ? Optional.ofNullable(subject == null ? null : entities.get(subject))
                        : resolved(f.subject(), canonical, entities);
                var o = f.object().equals(Fact.DOCUMENT_SUBJECT)
                        ? Optional.ofNullable(subject == null ? null : entities.get(subject))
                        : resolved(f.object(), canonical, entities);
                if (s.isEmpty() || o.isEmpty() || s.get().id().equals(o.get().id())
                        || !seen.add(s.get().id() + "\u0000" + f.predicate() + "\u0000" + o.get().id())) {
                    continue;
                }
                mentioned.putIfAbsent(s.get().id(), s.get());
                mentioned.putIfAbsent(o.get().id(), o.get());
                relations.add(new Relation(s.get().name(), s.get().type(), f.predicate(), o.get().name(),
                        o.get().type(), chunkIds.get(i), documentId, version, f.properties()));
            }
            out.add(new ChunkGraph(List.copyOf(mentioned.values()), relations));
        }
        return out;
    }

    private static Optional<Entity> resolved(String name, Map<String, String> canonical,
            Map<String, Entity> entities) {
        String key = Entity.key(name);
        return key.isEmpty() ? Optional.empty()
                : Optional.ofNullable(entities.get(canonical.get(key)));
    }

    private static void note(Map<String, Map<String, Integer>> forms, Map<String, Map<String, Integer>> types,
            String name, String type) {
        String key = Entity.key(name);
        if (key.isEmpty()) {
            return;
        }
        forms.computeIfAbsent(key, k -> new LinkedHashMap<>()).merge(name.strip(), 1, Integer::sum);
        if (type != null && !type.isEmpty()) {
            types.computeIfAbsent(key, k -> new HashMap<>()).merge(type, 1, Integer::sum);
        }
    }

    /**
     * A fact in the graph's vocabulary ({@link Vocabulary#canonical}): a language model's {@code founded_by} is
     * {@code founded} the other way round, its {@code manufactures} is {@code makes}; the offline extractor's facts
     * are in it already.
     */
    static Fact canonical(Fact f) {
        Vocabulary.Canonical c = Vocabulary.canonical(f.predicate());
        return c.inverted() ? new Fact(f.object(), f.objectType(), c.predicate(), f.subject(), f.subjectType(),
                f.properties()) : new Fact(f.subject(), f.subjectType(), c.predicate(), f.object(), f.objectType(),
                f.properties());
    }

    /** The canonical key of the entity the title names: equal to the title's key, else the longest inside it. */
    private static String subjectKey(String title, Map<String, String> canonical) {
        String t = " " + Entity.key(title) + " ";
        if (t.isBlank()) {
            return null;
        }
        String best = null;
        for (String k : canonical.keySet()) {
            if (t.contains(" " + k + " ") && (best == null || k.length() > best.length())) {
                best = k;
            }
        }
        return best == null ? null : canonical.get(best);
    }

    /**
     * Rules 2 and 2b: each key mapped to the one longer key it starts or ends, or whose initials it spells (written
     * in capitals), when there is exactly one; else itself.
     */
    static Map<String, String> canonicalKeys(Map<String, Map<String, Integer>> forms) {
        Map<String, String> canonical = canonicalKeys(forms.keySet());
        Map<String, String> initials = new HashMap<>();
        Set<String> ambiguous = new HashSet<>();
        for (String k : forms.keySet()) {
            String[] w = words(k);
            if (w.length >= 2 && canonical.get(k).equals(k)) {
                StringBuilder b = new StringBuilder();
                for (String x : w) {
                    if (Character.isLetter(x.charAt(0))) {
                        b.append(x.charAt(0));
                    }
                }
                String abbreviation = b.toString();
                if (abbreviation.length() >= 2 && initials.putIfAbsent(abbreviation, k) != null) {
                    ambiguous.add(abbreviation);
                }
            }
        }
        for (var e : forms.entrySet()) {
            String k = e.getKey();
            String target = initials.get(k);
            boolean capitals = e.getValue().keySet().stream().anyMatch(f -> f.length() >= 2
                    && f.chars().filter(Character::isLetter).allMatch(Character::isUpperCase));
            if (target != null && !ambiguous.contains(k) && capitals && canonical.get(k).equals(k)) {
                canonical.put(k, target);
            }
        }
        return canonical;
    }

    /**
     * A short name stays its own entity when its mentions and the longer name's were given different kinds of
     * person, organisation or place: "hotels in Paris" is not Paris Hilton, Washington (the city) not George
     * Washington. Weaker kinds (a product, by a noun after the name) do not keep names apart.
     */
    static void keepApartByType(Map<String, String> canonical, Map<String, Map<String, Integer>> types) {
        canonical.replaceAll((k, c) -> {
            String a = strongType(types.get(k));
            String b = strongType(types.get(c));
            return !k.equals(c) && a != null && b != null && !a.equals(b) ? k : c;
        });
    }

    private static final Set<String> STRONG_TYPES = Set.of(Vocabulary.PERSON, Vocabulary.ORGANIZATION,
            Vocabulary.PLACE);

    /** The type most of a name's mentions were given, if it is one of {@link #STRONG_TYPES} and not tied. */
    private static String strongType(Map<String, Integer> votes) {
        if (votes == null) {
            return null;
        }
        int best = votes.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        List<String> top = votes.entrySet().stream().filter(e -> e.getValue() == best).map(Map.Entry::getKey)
                .toList();
        return top.size() == 1 && STRONG_TYPES.contains(top.getFirst()) ? top.getFirst() : null;
    }

    /** Rule 2: each key mapped to the one longer key it starts or ends, when there is exactly one; else itself. */
    static Map<String, String> canonicalKeys(Set<String> keys) {
        List<String> byLength = new ArrayList<>(keys);
        byLength.sort(Comparator.comparingInt((String k) -> words(k).length).reversed()
                .thenComparing(Comparator.naturalOrder()));
        Map<String, String> canonical = new HashMap<>();
        // Each longer key's word prefixes and suffixes, with the entities they lead to: looked up, not compared with
        // every longer key (quadratic in a document's distinct names: a long report's thousands of them took
        // seconds). A key's own are added once it is resolved; only shorter keys look them up.
        Map<String, Set<String>> parts = new HashMap<>();
        for (String k : byLength) {
            Set<String> targets = parts.getOrDefault(k, Set.of());
            String c = targets.size() == 1 ? targets.iterator().next() : k;
            canonical.put(k, c);
            String[] w = words(k);
            for (int n = 1; n < w.length; n++) {
                parts.computeIfAbsent(String.join(" ", Arrays.copyOfRange(w, 0, n)), x -> new LinkedHashSet<>())
                        .add(c);
                parts.computeIfAbsent(String.join(" ", Arrays.copyOfRange(w, w.length - n, w.length)),
                        x -> new LinkedHashSet<>()).add(c);
            }
        }
        return canonical;
    }

    private static String[] words(String key) {
        return key.split(" ");
    }

    private static String displayName(Map<String, Integer> forms) {
        return forms.entrySet().stream()
                .max(Comparator.comparingInt((Map.Entry<String, Integer> e) -> e.getValue())
                        .thenComparingInt(e -> e.getKey().length()))
                .map(Map.Entry::getKey).orElseThrow();
    }
}
