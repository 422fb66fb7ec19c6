package io.polyrag.ingest;

import io.polyrag.core.model.ChunkGraph;
import io.polyrag.core.model.Entity;
import io.polyrag.core.model.Extraction;
import io.polyrag.core.model.Fact;
import io.polyrag.core.model.Relation;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
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
 *   <li>Across documents, equal keys are one entity (the stores merge on the key); the short names merged in rule 2
 *       are kept as aliases, so a query or a later document using them still finds the entity.</li>
 * </ol>
 * The display name is the form used most often for the canonical key (ties: the longer, then the first seen); the
 * type is the first non-empty one. Relations whose two ends resolve to one entity are dropped, and a chunk states a
 * relation once.
 */
final class EntityResolver {
    private EntityResolver() {
    }

    static List<ChunkGraph> resolve(List<Extraction> perChunk, List<String> chunkIds, String documentId,
            long version) {
        Map<String, Map<String, Integer>> forms = new LinkedHashMap<>();
        Map<String, String> types = new HashMap<>();
        for (Extraction x : perChunk) {
            for (Entity e : x.entities()) {
                note(forms, types, e.name(), e.type());
            }
            for (Fact f : x.facts()) {
                note(forms, types, f.subject(), f.subjectType());
                note(forms, types, f.object(), f.objectType());
            }
        }
        Map<String, String> canonical = canonicalKeys(forms.keySet());
        Map<String, List<String>> aliases = new HashMap<>();
        canonical.forEach((k, c) -> {
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
            String type = types.getOrDefault(c, "");
            if (type.isEmpty()) {
                for (var e : canonical.entrySet()) {
                    if (e.getValue().equals(c) && !types.getOrDefault(e.getKey(), "").isEmpty()) {
                        type = types.get(e.getKey());
                        break;
                    }
                }
            }
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
            for (Fact f : x.facts()) {
                var s = resolved(f.subject(), canonical, entities);
                var o = resolved(f.object(), canonical, entities);
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

    private static java.util.Optional<Entity> resolved(String name, Map<String, String> canonical,
            Map<String, Entity> entities) {
        String key = Entity.key(name);
        return key.isEmpty() ? java.util.Optional.empty()
                : java.util.Optional.ofNullable(entities.get(canonical.get(key)));
    }

    private static void note(Map<String, Map<String, Integer>> forms, Map<String, String> types, String name,
            String type) {
        String key = Entity.key(name);
        if (key.isEmpty()) {
            return;
        }
        forms.computeIfAbsent(key, k -> new LinkedHashMap<>()).merge(name.strip(), 1, Integer::sum);
        if (type != null && !type.isEmpty()) {
            types.putIfAbsent(key, type);
        }
    }

    /** Rule 2: each key mapped to the one longer key it starts or ends, when there is exactly one; else itself. */
    static Map<String, String> canonicalKeys(Set<String> keys) {
        List<String> byLength = new ArrayList<>(keys);
        byLength.sort(Comparator.comparingInt((String k) -> words(k).length).reversed()
                .thenComparing(Comparator.naturalOrder()));
        Map<String, String> canonical = new HashMap<>();
        for (String k : byLength) {
            String[] w = words(k);
            Set<String> targets = new LinkedHashSet<>();
            for (String longer : byLength) {
                String[] lw = words(longer);
                if (lw.length <= w.length) {
                    break;
                }
                if (startsWith(lw, w) || endsWith(lw, w)) {
                    targets.add(canonical.get(longer));
                }
            }
            canonical.put(k, targets.size() == 1 ? targets.iterator().next() : k);
        }
        return canonical;
    }

    private static String[] words(String key) {
        return key.split(" ");
    }

    private static boolean startsWith(String[] longer, String[] shorter) {
        for (int i = 0; i < shorter.length; i++) {
            if (!longer[i].equals(shorter[i])) {
                return false;
            }
        }
        return true;
    }

    private static boolean endsWith(String[] longer, String[] shorter) {
        int offset = longer.length - shorter.length;
        for (int i = 0; i < shorter.length; i++) {
            if (!longer[offset + i].equals(shorter[i])) {
                return false;
            }
        }
        return true;
    }

    private static String displayName(Map<String, Integer> forms) {
        return forms.entrySet().stream()
                .max(Comparator.comparingInt((Map.Entry<String, Integer> e) -> e.getValue())
                        .thenComparingInt(e -> e.getKey().length()))
                .map(Map.Entry::getKey).orElseThrow();
    }
}
