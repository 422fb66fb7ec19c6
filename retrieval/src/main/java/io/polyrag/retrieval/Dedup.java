package io.polyrag.retrieval;

import io.polyrag.core.model.ChunkView;
import io.polyrag.core.model.SourceScore;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Merges hits that say the same thing, in three layers: the same chunk id; the same text once normalised (case,
 * accents, punctuation and spacing ignored); word sets whose Jaccard overlap reaches the threshold. A duplicate is
 * merged into the better-ranked hit. Agreement between modalities is evidence, repetition inside one is not: per
 * modality the merged hit keeps the best contribution of its members, and its score is the sum of those over the
 * modalities (so twenty near-copies found by one retriever count once); each source keeps its better rank, and the
 * hit lists the chunks it merged.
 *
 * <p>Candidates are taken in fused order until {@code limit} distinct hits are kept; later candidates cannot enter
 * the result, so they are not examined (their scores are not merged either). The result is re-sorted by
 * {@link FusedHit#ORDER}. Near-duplicates are found by prefix filtering, so a candidate is compared only with the
 * few kept hits that share one of its rarest words; the cost is close to linear in the candidates' text.
 */
public final class Dedup {
    /** A fused hit with the chunk it points at. */
    public record Candidate(FusedHit hit, ChunkView view) {
    }

    private static final Pattern MARKS = Pattern.compile("\\p{M}+");
    private static final Pattern NON_WORD = Pattern.compile("[^\\p{L}\\p{N}]+");

    private final double threshold;

    public Dedup(double threshold) {
        if (!(threshold > 0 && threshold <= 1)) {
            throw new IllegalArgumentException("dedup threshold must be in (0, 1], was " + threshold);
        }
        this.threshold = threshold;
    }

    public List<Candidate> apply(List<Candidate> ranked, int limit) {
        List<String> texts = ranked.stream().map(c -> normalise(c.view().chunk().text())).toList();
        List<int[]> sets = tokenSets(texts);
        List<Candidate> kept = new ArrayList<>();
        List<int[]> keptSets = new ArrayList<>();
        Map<String, Integer> byId = new HashMap<>();
        Map<String, Integer> byText = new HashMap<>();
        Map<Integer, List<Integer>> byPrefixToken = new HashMap<>();
        for (int n = 0; n < ranked.size(); n++) {
            Candidate c = ranked.get(n);
            Integer into = byId.get(c.hit().chunkId());
            if (into == null) {
                into = byText.get(texts.get(n));
            }
            if (into == null) {
                into = similar(sets.get(n), keptSets, byPrefixToken);
            }
            if (into != null) {
                kept.set(into, merge(kept.get(into), c));
                continue;
            }
            if (kept.size() == limit) {
                break;
            }
            int index = kept.size();
            byId.put(c.hit().chunkId(), index);
            byText.put(texts.get(n), index);
            int[] set = sets.get(n);
            for (int i = 0; i < prefixLength(set.length); i++) {
                byPrefixToken.computeIfAbsent(set[i], k -> new ArrayList<>()).add(index);
            }
            kept.add(c);
            keptSets.add(set);
        }
        kept.sort((a, b) -> FusedHit.ORDER.compare(a.hit(), b.hit()));
        return kept;
    }

    /**
     * Prefix filtering (as in the all-pairs similarity search literature): with every set's tokens sorted in one
     * global order, two sets whose Jaccard overlap reaches t share a token within the first
     * {@code |A| - ceil(t·|A|) + 1} tokens of each. Rare tokens first keeps those prefixes selective, so only a few
     * kept hits are ever compared with a candidate.
     */
    private int prefixLength(int size) {
        return size - (int) Math.ceil(threshold * size - 1e-9) + 1;
    }

    private Integer similar(int[] set, List<int[]> keptSets, Map<Integer, List<Integer>> byPrefixToken) {
        java.util.Set<Integer> tried = new java.util.HashSet<>();
        for (int i = 0; i < Math.min(set.length, prefixLength(set.length)); i++) {
            for (int k : byPrefixToken.getOrDefault(set[i], List.of())) {
                if (!tried.add(k)) {
                    continue;
                }
                int[] other = keptSets.get(k);
                int small = Math.min(set.length, other.length);
                int large = Math.max(set.length, other.length);
                // Jaccard <= small / large: sets this different in size cannot reach the threshold.
                if ((double) small / large >= threshold && jaccard(set, other) >= threshold) {
                    return k;
                }
            }
        }
        return null;
    }

    /** Each text's distinct words as ranks in one global order, rarest word (among these texts) first. */
    private static List<int[]> tokenSets(List<String> texts) {
        List<int[]> hashes = texts.stream().map(Dedup::words).toList();
        Map<Integer, Integer> frequency = new HashMap<>();
        hashes.forEach(h -> Arrays.stream(h).forEach(x -> frequency.merge(x, 1, Integer::sum)));
        List<Integer> order = new ArrayList<>(frequency.keySet());
        order.sort((a, b) -> frequency.get(a).equals(frequency.get(b)) ? Integer.compare(a, b)
                : Integer.compare(frequency.get(a), frequency.get(b)));
        Map<Integer, Integer> rank = new HashMap<>();
        for (int i = 0; i < order.size(); i++) {
            rank.put(order.get(i), i);
        }
        return hashes.stream().map(h -> Arrays.stream(h).map(rank::get).sorted().toArray()).toList();
    }

    /** Jaccard overlap of two sorted, duplicate-free arrays. */
    static double jaccard(int[] a, int[] b) {
        if (a.length == 0 && b.length == 0) {
            return 1;
        }
        int i = 0;
        int j = 0;
        int common = 0;
        while (i < a.length && j < b.length) {
            if (a[i] == b[j]) {
                common++;
                i++;
                j++;
            } else if (a[i] < b[j]) {
                i++;
            } else {
                j++;
            }
        }
        return (double) common / (a.length + b.length - common);
    }

    private static Candidate merge(Candidate keep, Candidate dup) {
        FusedHit k = keep.hit();
        FusedHit d = dup.hit();
        Map<String, SourceScore> sources = new HashMap<>(k.sources());
        d.sources().forEach((m, s) -> sources.merge(m, s, (x, y) -> x.rank() <= y.rank() ? x : y));
        Map<String, Double> best = new HashMap<>(attributed(k));
        attributed(d).forEach((m, c) -> best.merge(m, c, Math::max));
        List<String> merged = new ArrayList<>(k.merged());
        merged.add(d.chunkId());
        merged.addAll(d.merged());
        double score = best.values().stream().mapToDouble(Double::doubleValue).sum();
        return new Candidate(new FusedHit(k.chunkId(), score, sources, best, merged), keep.view());
    }

    /** A hit's contributions by modality; a hit that has none counts its whole score as one. */
    private static Map<String, Double> attributed(FusedHit h) {
        return h.contributions().isEmpty() ? Map.of("", h.score()) : h.contributions();
    }

    /** Lower case, accents and punctuation removed, whitespace collapsed. */
    static String normalise(String text) {
        String s = text.chars().allMatch(ch -> ch < 0x80) ? text.toLowerCase(Locale.ROOT)
                : MARKS.matcher(Normalizer.normalize(text, Normalizer.Form.NFKD)).replaceAll("").toLowerCase(Locale.ROOT);
        return NON_WORD.matcher(s).replaceAll(" ").strip();
    }

    /** The distinct words of normalised text, as sorted hashes. */
    static int[] words(String normalised) {
        if (normalised.isEmpty()) {
            return new int[0];
        }
        return Arrays.stream(normalised.split(" ")).mapToInt(String::hashCode).sorted().distinct().toArray();
    }
}
