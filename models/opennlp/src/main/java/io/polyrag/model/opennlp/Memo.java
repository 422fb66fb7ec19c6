package io.polyrag.model.opennlp;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import opennlp.tools.lemmatizer.LemmatizerME;
import opennlp.tools.tokenize.TokenizerME;
import opennlp.tools.tokenize.WhitespaceTokenizer;
import opennlp.tools.util.Span;

/**
 * What the tokenizer and the lemmatizer decided, remembered across chunks, so a word seen before costs a map lookup
 * instead of a model's evaluations. Both answers are functions of what the key holds, so a remembered answer is the
 * one the model would give again: the tokenizer decides each whitespace-separated token from its own characters only
 * (one evaluation per character, the same token in any sentence splits the same way), and {@link Lemmas} lemmatises
 * a word from it and the word before it, with their tags. On an ingest of 1,000 SciFact abstracts the tokenizer was a
 * third of extraction's time and the lemmatizer a tenth; most of their words recur. Shared by the extractor's tasks;
 * each map is emptied when it reaches {@value #MAX_ENTRIES} entries, which bounds its memory (a few MB) without an
 * eviction order to keep.
 */
final class Memo {
    static final int MAX_ENTRIES = 50_000;
    /** Token → the spans the tokenizer gives it, relative to its start, as start, end pairs. */
    private final ConcurrentHashMap<String, int[]> splits = new ConcurrentHashMap<>();
    /** Word before, its tag, word, its tag → the word's lemma. */
    private final ConcurrentHashMap<String, String> lemmas = new ConcurrentHashMap<>();

    /** {@code tokenizer.tokenizePos(sentence)}, each whitespace-separated token's splits remembered. */
    Span[] tokenize(TokenizerME tokenizer, String sentence) {
        List<Span> out = new ArrayList<>();
        for (Span s : WhitespaceTokenizer.INSTANCE.tokenizePos(sentence)) {
            if (s.length() < 2) {
                out.add(s);
                continue;
            }
            String token = sentence.substring(s.getStart(), s.getEnd());
            int[] spans = splits.get(token);
            if (spans == null) {
                // The spans as the tokenizer gives them (not only where it splits), so whatever it returns for a
                // token — an abbreviation kept whole beside its parts, say — comes back the same.
                Span[] parts = tokenizer.tokenizePos(token);
                spans = new int[2 * parts.length];
                for (int i = 0; i < parts.length; i++) {
                    spans[2 * i] = parts[i].getStart();
                    spans[2 * i + 1] = parts[i].getEnd();
                }
                remember(splits, token, spans);
            }
            for (int i = 0; i < spans.length; i += 2) {
                out.add(new Span(s.getStart() + spans[i], s.getStart() + spans[i + 1]));
            }
        }
        return out.toArray(Span[]::new);
    }

    /** The lemma of {@code word} tagged {@code tag}, after {@code before} tagged {@code beforeTag} (null: none). */
    String lemma(LemmatizerME lemmatizer, String before, String beforeTag, String word, String tag) {
        String key = before == null ? word + '\u0000' + tag
                : before + '\u0000' + beforeTag + '\u0000' + word + '\u0000' + tag;
        String lemma = lemmas.get(key);
        if (lemma == null) {
            String[] l = before == null ? lemmatizer.lemmatize(new String[] {word}, new String[] {tag})
                    : lemmatizer.lemmatize(new String[] {before, word}, new String[] {beforeTag, tag});
            lemma = l[l.length - 1];
            remember(lemmas, key, lemma);
        }
        return lemma;
    }

    private static <V> void remember(ConcurrentHashMap<String, V> map, String key, V value) {
        if (map.size() >= MAX_ENTRIES) {
            map.clear();
        }
        map.put(key, value);
    }
}
