package io.polyrag.core.model;

import java.text.Normalizer;

/**
 * Text as every full-text store indexes and queries it, folded the same way on both sides: NFKC (a PDF's ligature
 * "ﬁ" is "fi", a decomposed "e" and accent one letter, a full-width letter the letter) and typographic apostrophes
 * as the typed one. "O’Brien" in a Word document and "O'Brien" typed in a search were two words that never matched.
 */
public final class Lexical {
    private Lexical() {
    }

    public static String fold(String text) {
        if (text == null) {
            return null;
        }
        String s = Normalizer.isNormalized(text, Normalizer.Form.NFKC) ? text
                : Normalizer.normalize(text, Normalizer.Form.NFKC);
        return s.indexOf('\u2019') < 0 && s.indexOf('\u2018') < 0 && s.indexOf('\u02BC') < 0 ? s
                : s.replace('\u2019', '\'').replace('\u2018', '\'').replace('\u02BC', '\'');
    }
}
