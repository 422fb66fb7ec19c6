package io.polyrag.retrieval;

import io.polyrag.core.model.AnswerSource;
import io.polyrag.core.model.GroundedSentence;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The grounding report: for each sentence of an answer, the sources whose text covers at least
 * {@value #MIN_COVERAGE} of the sentence's content words (citation markers aside), best first. A sentence no source
 * covers is flagged as unsupported. Lexical by design: cheap, explainable, and independent of the model that wrote
 * the answer.
 *
 * <p>Word coverage alone let the commonest slips through as supported: a changed number ("48 hours at 30 degrees"
 * against a source's 12 at 24) and a flipped polarity ("is not open"). So a source covers a sentence only when it
 * also holds each number the sentence states, and a negated sentence only when it holds a negation too. A sentence
 * that cites sources is supported only by one it cites (a citation of a source that was not sent, or of one that
 * does not say it, is what a reader must not trust). Lines are sentences of their own: a list without full stops
 * was one sentence, a made-up item hidden among supported ones.
 */
final class Grounding {
    static final double MIN_COVERAGE = 0.5;
    private static final Pattern CITATION = Pattern.compile("\\[(\\d{1,3})]");
    /**
     * A sentence's end: . ! ? or … (a closing quote or bracket may follow), with the citations written after it; or
     * citations followed by a capital, which end a quoted line that has no full stop of its own (a table row) —
     * without that, the next source's sentence was read as part of it and their citations as one claim's.
     */
    private static final Pattern SENTENCE_END = Pattern.compile("[.!?…][\"'”’)\\]]*(\\s*\\[\\d{1,3}])*(\\s+|$)"
            + "|[。！？][」』”’)）\\]]*(\\s*\\[\\d{1,3}])*\\s*" // a full-width end needs no space after it
            + "|(\\s*\\[\\d{1,3}])+\\s+(?=\\p{Lu})");
    /** A number as written: digits, with a decimal or thousands separator inside. */
    private static final Pattern NUMBER = Pattern.compile("\\d+(?:[.,]\\d+)*");
    private static final Pattern NEGATION = Pattern.compile("(?iu)\\b(?:not|no|never|none|nothing|neither|nor|"
            + "cannot|without|nicht|kein|keine|keinen|keiner|nie|niemals|ohne|pas|jamais|aucun|aucune|nunca|"
            + "nada|ningún|ninguna|nenhum|nenhuma|niet|geen|nooit|zonder)\\b|n['’]t\\b|[不没無无未]");

    private Grounding() {
    }

    static List<GroundedSentence> report(String answer, List<AnswerSource> sources) {
        Map<Integer, Set<String>> sourceTerms = new HashMap<>();
        Map<Integer, Set<String>> sourceNumbers = new HashMap<>();
        Set<Integer> negating = new HashSet<>();
        for (AnswerSource s : sources) {
            Set<String> terms = new HashSet<>();
            Set<String> numbers = new HashSet<>();
            for (AnswerSource.Passage p : s.passages()) {
                terms.addAll(ExtractiveAnswerer.terms(p.text()));
                numbers.addAll(numbers(p.text()));
                if (NEGATION.matcher(p.text()).find()) {
                    negating.add(s.number());
                }
            }
            sourceTerms.put(s.number(), terms);
            sourceNumbers.put(s.number(), numbers);
        }
        List<GroundedSentence> out = new ArrayList<>();
        for (String sentence : sentences(answer)) {
            List<Integer> cited = new ArrayList<>();
            Matcher m = CITATION.matcher(sentence);
            while (m.find()) {
                cited.add(Integer.parseInt(m.group(1)));
            }
            String plain = CITATION.matcher(sentence).replaceAll(" ");
            Set<String> words = ExtractiveAnswerer.terms(plain);
            if (words.isEmpty()) {
                continue;
            }
            Set<String> stated = numbers(plain);
            boolean negated = NEGATION.matcher(plain).find();
            List<Map.Entry<Integer, Double>> support = new ArrayList<>();
            sourceTerms.forEach((n, terms) -> {
                double coverage = words.stream().filter(terms::contains).count() / (double) words.size();
                if (coverage >= MIN_COVERAGE && sourceNumbers.get(n).containsAll(stated)
                        && (!negated || negating.contains(n))) {
                    support.add(Map.entry(n, coverage));
                }
            });
            support.sort(Map.Entry.<Integer, Double>comparingByValue(Comparator.reverseOrder())
                    .thenComparing(Map.Entry.comparingByKey()));
            List<Integer> by = support.stream().map(Map.Entry::getKey).toList();
            out.add(new GroundedSentence(sentence, by, cited, !by.isEmpty() && (cited.isEmpty()
                    || cited.stream().anyMatch(by::contains))));
        }
        return out;
    }

    /**
     * Sentences ending in . ! or ? or a line's end, each keeping the citations written right after its full stop.
     */
    private static List<String> sentences(String text) {
        List<String> out = new ArrayList<>();
        for (String line : text.split("\\R")) {
            Matcher end = SENTENCE_END.matcher(line);
            int start = 0;
            while (end.find()) {
                add(out, line.substring(start, end.end()));
                start = end.end();
            }
            add(out, line.substring(start));
        }
        return out;
    }

    /** The numbers a text states, thousands separators aside ("1,200" and "1200" are one number). */
    private static Set<String> numbers(String text) {
        Set<String> out = new HashSet<>();
        Matcher m = NUMBER.matcher(text);
        while (m.find()) {
            String n = m.group();
            out.add(n.matches("\\d{1,3}(,\\d{3})+") ? n.replace(",", "") : n);
        }
        return out;
    }

    private static void add(List<String> out, String sentence) {
        if (!sentence.isBlank()) {
            out.add(sentence.strip());
        }
    }
}
