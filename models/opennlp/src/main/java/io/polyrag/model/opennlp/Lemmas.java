package io.polyrag.model.opennlp;

import java.util.Arrays;
import opennlp.tools.lemmatizer.LemmatizerME;

/**
 * The lemmas of a sentence's tokens, each worked out when first asked for, from the token and the one before it.
 * The lemmatizer's features are a token's own (its form, tag and affixes) and the class it gave the token before, so
 * two tokens give the lemma the whole sentence would: on 14,307 verbs of 1,000 SciFact abstracts, 7 differ
 * (reexamined: reexamin or reexamine), one token alone 420. Lemmatising the whole sentence for its one or two
 * predicate verbs was most of extraction's time (a beam search over every token).
 */
final class Lemmas {
    private final LemmatizerME lemmatizer;
    private final String[] words;
    private final String[] tags;
    private final String[] known;

    Lemmas(LemmatizerME lemmatizer, String[] words, String[] tags) {
        this.lemmatizer = lemmatizer;
        this.words = words;
        this.tags = tags;
        this.known = new String[words.length];
    }

    String of(int i) {
        if (known[i] == null) {
            int from = Math.max(0, i - 1);
            String[] l = lemmatizer.lemmatize(Arrays.copyOfRange(words, from, i + 1), Arrays.copyOfRange(tags, from,
                    i + 1));
            known[i] = l[l.length - 1];
        }
        return known[i];
    }
}
