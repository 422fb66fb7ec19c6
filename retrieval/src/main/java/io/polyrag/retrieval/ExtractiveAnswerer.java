package io.polyrag.retrieval;

import io.polyrag.core.model.AnswerSource;
import io.polyrag.core.model.ChunkKind;
import java.text.BreakIterator;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The answer when no language model is configured: the sentences of the retrieved passages that share the most
 * informative words with the question (each word weighted by how rare it is among the candidate sentences, and the
 * total divided by the source's number, since retrieval ranked the sources), at most two per source and {@value #MAX_SENTENCES} in all, none with less than half the best sentence's weight, quoted in
 * source order, each followed by its citation. Table
 * rows count as sentences, prefixed by their header; code is not quoted. If no sentence shares a word with the
 * question, the first sentence of the best source stands in.
 */
public final class ExtractiveAnswerer {
    static final int MAX_SENTENCES = 3;
    private static final int PER_SOURCE = 2;
    private static final Set<String> STOPWORDS = Set.of("a", "an", "and", "are", "as", "at", "be", "but", "by",
            "can", "do", "does", "for", "from", "how", "i", "if", "in", "into", "is", "it", "its", "much", "many",
            "no", "not", "of", "on", "or", "so", "such", "that", "the", "their", "then", "there", "these", "they",
            "this", "to", "was", "were", "what", "when", "where", "which", "who", "why", "will", "with", "you",
            "have", "has", "had", "did", "done", "any", "all", "some", "more", "most", "other", "than", "also", "only",
            "just", "may", "might", "would", "should", "could", "been", "being", "we", "our", "he", "she", "his", "her",
            "them", "your", "my", "me", "about", "get", "use", "used");

    private record Sentence(int source, int position, String text, Set<String> terms) {
    }

    public String answer(String question, List<AnswerSource> sources) {
        List<Sentence> pool = sentences(sources);
        if (pool.isEmpty()) {
            return "";
        }
        Set<String> query = terms(question);
        Map<String, Integer> df = new HashMap<>();
        pool.forEach(s -> s.terms().forEach(t -> df.merge(t, 1, Integer::sum)));
        Map<Sentence, Double> score = new HashMap<>();
        for (Sentence s : pool) {
            double v = 0;
            for (String t : query) {
                if (s.terms().contains(t)) {
                    v += Math.log(1 + (double) pool.size() / df.get(t));
                }
            }
            // Retrieval already ranked the sources: the same words count for less in a lower-ranked source.
            score.put(s, v / s.source());
        }
        List<Sentence> chosen = choose(pool, score);
        if (chosen.isEmpty()) {
            chosen = List.of(pool.getFirst());
        }
        StringBuilder sb = new StringBuilder();
        for (Sentence s : chosen) {
            if (!sb.isEmpty()) {
                sb.append(' ');
            }
            sb.append(s.text()).append(" [").append(s.source()).append(']');
        }
        return sb.toString();
    }

    private static List<Sentence> choose(List<Sentence> pool, Map<Sentence, Double> score) {
        double best = score.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
        // A sentence must carry at least half the evidence of the best one: a lone common word is not an answer.
        List<Sentence> ranked = pool.stream().filter(s -> score.get(s) > 0 && score.get(s) >= best / 2)
                .sorted(Comparator.comparingDouble((Sentence s) -> -score.get(s)).thenComparingInt(Sentence::source)
                        .thenComparingInt(Sentence::position)).toList();
        List<Sentence> chosen = new ArrayList<>();
        Map<Integer, Integer> perSource = new HashMap<>();
        for (Sentence s : ranked) {
            if (chosen.size() == MAX_SENTENCES) {
                break;
            }
            if (perSource.merge(s.source(), 1, Integer::sum) <= PER_SOURCE) {
                chosen.add(s);
            }
        }
        chosen.sort(Comparator.comparingInt(Sentence::source).thenComparingInt(Sentence::position));
        return chosen;
    }

    private static List<Sentence> sentences(List<AnswerSource> sources) {
        List<Sentence> out = new ArrayList<>();
        for (AnswerSource src : sources) {
            for (AnswerSource.Passage p : src.passages()) {
                if (!p.hit() || p.kind() == ChunkKind.CODE) {
                    continue;
                }
                if (p.kind() == ChunkKind.TABLE) {
                    String[] lines = p.text().split("\n");
                    for (int i = 1; i < lines.length; i++) {
                        // Matched on the row's own words (the header is in every row), quoted with the header.
                        out.add(new Sentence(src.number(), out.size(), lines[0] + ": " + lines[i], terms(lines[i])));
                    }
                } else {
                    for (String text : split(p.text())) {
                        out.add(new Sentence(src.number(), out.size(), text, terms(text)));
                    }
                }
            }
        }
        return out;
    }

    private static List<String> split(String text) {
        BreakIterator it = BreakIterator.getSentenceInstance(Locale.ROOT);
        String flat = text.replaceAll("\\s+", " ").strip();
        it.setText(flat);
        List<String> out = new ArrayList<>();
        for (int start = it.first(), end = it.next(); end != BreakIterator.DONE; start = end, end = it.next()) {
            String s = flat.substring(start, end).strip();
            if (s.split(" ").length >= 3) {
                out.add(s);
            }
        }
        return out;
    }

    /** Lower-cased words without stopwords, plurals and common endings folded so "ferments" meets "fermented". */
    static Set<String> terms(String text) {
        Set<String> out = new HashSet<>();
        for (String w : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
            if (w.length() > 1 && !STOPWORDS.contains(w)) {
                out.add(fold(w));
            }
        }
        return out;
    }

    private static String fold(String w) {
        for (String suffix : new String[] {"ing", "ed", "es", "s"}) {
            if (w.length() > suffix.length() + 3 && w.endsWith(suffix)) {
                return w.substring(0, w.length() - suffix.length());
            }
        }
        return w;
    }
}
