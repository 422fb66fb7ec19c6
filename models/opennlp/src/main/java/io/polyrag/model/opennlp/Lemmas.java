package io.polyrag.model.opennlp;

import opennlp.tools.lemmatizer.LemmatizerME;

/**
 * The lemmas of a sentence's tokens, each worked out when first asked for, from the token and the one before it.
 * The lemmatizer's features are a token's own (its form, tag and affixes) and the class it gave the token before, so
 * two tokens give the lemma the whole sentence would: on 14,307 verbs of 1,000 SciFact abstracts, 7 differ
 * (reexamined: reexamin or reexamine), one token alone 420. Lemmatising the whole sentence for its one or two
 * predicate verbs was most of extraction's time (a beam search over every token). The pair's answer is remembered
 * ({@link Memo}).
 */
final class Lemmas {
    private final LemmatizerME lemmatizer;
    private final Memo memo;
    private final String[] words;
    private final String[] tags;
    private final String[] known;

    Lemmas(LemmatizerME lemmatizer, Memo memo, String[] words, String[] tags) {
        this.lemmatizer = lemmatizer;
        this.memo = memo;
        this.words = words;
        this.tags = tags;
        this.known = new String[words.length];
    }

    String of(int i) {
        if (known[i] == null) {
            known[i] = i == 0 ? memo.lemma(lemmatizer, null, null, words[i], tags[i])
                    : memo.lemma(lemmatizer, words[i - 1], tags[i - 1], words[i], tags[i]);
        }
        return known[i];
    }
}
