package io.polyrag.retrieval;

import io.polyrag.core.model.ChunkView;
import io.polyrag.core.model.SourceScore;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Merges hits that say the same thing, in three layers: the same chunk id; the same text once normalised (case,
 * accents, punctuation and spacing ignored); word sets whose Jaccard overlap reaches the threshold. A duplicate is
 * merged into the better-ranked hit: scores add up (agreement is evidence) and each source keeps its better rank.
 * The result is re-sorted by {@link FusedHit#ORDER}.
 */
public final class Dedup {
    /** A fused hit with the chunk it points at. */
    public record Candidate(FusedHit hit, ChunkView view) {
    }

    private final double threshold;

    public Dedup(double threshold) {
        if (!(threshold > 0 && threshold <= 1)) {
            throw new IllegalArgumentException("dedup threshold must be in (0, 1], was " + threshold);
        }
        this.threshold = threshold;
    }

    public List<Candidate> apply(List<Candidate> ranked) {
        List<Candidate> kept = new ArrayList<>();
        List<Set<String>> keptWords = new ArrayList<>();
        Map<String, Integer> byId = new HashMap<>();
        Map<String, Integer> byText = new HashMap<>();
        for (Candidate c : ranked) {
            String normal = normalise(c.view().chunk().text());
            Set<String> words = words(normal);
            Integer into = byId.get(c.hit().chunkId());
            if (into == null) {
                into = byText.get(normal);
            }
            if (into == null) {
                into = similar(words, keptWords);
            }
            if (into == null) {
                byId.put(c.hit().chunkId(), kept.size());
                byText.put(normal, kept.size());
                kept.add(c);
                keptWords.add(words);
            } else {
                kept.set(into, merge(kept.get(into), c));
            }
        }
        kept.sort((a, b) -> FusedHit.ORDER.compare(a.hit(), b.hit()));
        return kept;
    }

    private Integer similar(Set<String> words, List<Set<String>> keptWords) {
        for (int i = 0; i < keptWords.size(); i++) {
            if (jaccard(words, keptWords.get(i)) >= threshold) {
                return i;
            }
        }
        return null;
    }

    static double jaccard(Set<String> a, Set<String> b) {
        if (a.isEmpty() && b.isEmpty()) {
            return 1;
        }
        Set<String> small = a.size() <= b.size() ? a : b;
        Set<String> large = small == a ? b : a;
        int common = 0;
        for (String w : small) {
            if (large.contains(w)) {
                common++;
            }
        }
        return (double) common / (a.size() + b.size() - common);
    }

    private static Candidate merge(Candidate keep, Candidate dup) {
        Map<String, SourceScore> sources = new HashMap<>(keep.hit().sources());
        dup.hit().sources().forEach((m, s) -> sources.merge(m, s, (x, y) -> x.rank() <= y.rank() ? x : y));
        return new Candidate(new FusedHit(keep.hit().chunkId(), keep.hit().score() + dup.hit().score(), sources),
                keep.view());
    }

    /** Lower case, accents and punctuation removed, whitespace collapsed. */
    static String normalise(String text) {
        String s = Normalizer.normalize(text, Normalizer.Form.NFKD).replaceAll("\\p{M}+", "")
                .toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}]+", " ").strip();
        return s;
    }

    static Set<String> words(String normalised) {
        return new HashSet<>(List.of(normalised.split(" ")));
    }
}
