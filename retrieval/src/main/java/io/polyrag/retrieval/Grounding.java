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
 */
final class Grounding {
    static final double MIN_COVERAGE = 0.5;
    private static final Pattern CITATION = Pattern.compile("\\[(\\d{1,3})]");
    private static final Pattern SENTENCE_END = Pattern.compile("[.!?](\\s*\\[\\d{1,3}])*(\\s+|$)");

    private Grounding() {
    }

    static List<GroundedSentence> report(String answer, List<AnswerSource> sources) {
        Map<Integer, Set<String>> sourceTerms = new HashMap<>();
        for (AnswerSource s : sources) {
            Set<String> terms = new HashSet<>();
            s.passages().forEach(p -> terms.addAll(ExtractiveAnswerer.terms(p.text())));
            sourceTerms.put(s.number(), terms);
        }
        List<GroundedSentence> out = new ArrayList<>();
        for (String sentence : sentences(answer)) {
            List<Integer> cited = new ArrayList<>();
            Matcher m = CITATION.matcher(sentence);
            while (m.find()) {
                cited.add(Integer.parseInt(m.group(1)));
            }
            Set<String> words = ExtractiveAnswerer.terms(CITATION.matcher(sentence).replaceAll(" "));
            if (words.isEmpty()) {
                continue;
            }
            List<Map.Entry<Integer, Double>> support = new ArrayList<>();
            sourceTerms.forEach((n, terms) -> {
                double coverage = words.stream().filter(terms::contains).count() / (double) words.size();
                if (coverage >= MIN_COVERAGE) {
                    support.add(Map.entry(n, coverage));
                }
            });
            support.sort(Map.Entry.<Integer, Double>comparingByValue(Comparator.reverseOrder())
                    .thenComparing(Map.Entry.comparingByKey()));
            List<Integer> by = support.stream().map(Map.Entry::getKey).toList();
            out.add(new GroundedSentence(sentence, by, cited, !by.isEmpty()));
        }
        return out;
    }

    /** Sentences ending in . ! or ?, each keeping the citations written right after its full stop. */
    private static List<String> sentences(String text) {
        List<String> out = new ArrayList<>();
        Matcher end = SENTENCE_END.matcher(text);
        int start = 0;
        while (end.find()) {
            add(out, text.substring(start, end.end()));
            start = end.end();
        }
        add(out, text.substring(start));
        return out;
    }

    private static void add(List<String> out, String sentence) {
        if (!sentence.isBlank()) {
            out.add(sentence.strip());
        }
    }
}
