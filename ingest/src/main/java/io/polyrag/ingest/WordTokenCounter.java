package io.polyrag.ingest;

import io.polyrag.core.port.TokenCounter;

/**
 * A model-free token estimate for when no embedding model is loaded: word-piece tokenizers split English into about
 * 1.3 tokens per word, a long word into about one token per four characters, every punctuation mark and every
 * character of a script written without spaces (Chinese, Japanese, Korean, Thai, Lao, Khmer, Myanmar) into one of
 * its own. Without the last two, a 1 MiB hex string counted 2 tokens and became one 1 MiB chunk, and 300 "tokens" of
 * Chinese held 3,200 characters.
 */
public final class WordTokenCounter implements TokenCounter {
    private static final int CHARS_PER_PIECE = 4;
    /** Longer than this, a word is no ordinary word: counted by its length. */
    private static final int LONG_WORD = 12;

    @Override
    public int count(String text) {
        double words = 0;
        int run = 0;
        int single = 0;
        for (int i = 0; i < text.length(); ) {
            int c = text.codePointAt(i);
            i += Character.charCount(c);
            int type = Character.getType(c);
            boolean mark = type == Character.NON_SPACING_MARK || type == Character.COMBINING_SPACING_MARK
                    || type == Character.ENCLOSING_MARK;
            if (unspaced(c)) {
                words += piece(run);
                run = 0;
                single++;
            } else if (Character.isLetterOrDigit(c) || mark && run > 0) {
                run++;
            } else {
                words += piece(run);
                run = 0;
                if (!Character.isWhitespace(c) && !mark) {
                    single++;
                }
            }
        }
        words += piece(run);
        return (int) Math.ceil(words) + single;
    }

    /** A word's tokens: 1.3 for an ordinary one, about one per four characters for a long one (a hash, a blob). */
    private static double piece(int length) {
        return length == 0 ? 0 : length <= LONG_WORD ? 1.3 : length / (double) CHARS_PER_PIECE;
    }

    private static boolean unspaced(int c) {
        Character.UnicodeScript s = Character.UnicodeScript.of(c);
        return s == Character.UnicodeScript.HAN || s == Character.UnicodeScript.HIRAGANA
                || s == Character.UnicodeScript.KATAKANA || s == Character.UnicodeScript.HANGUL
                || s == Character.UnicodeScript.THAI || s == Character.UnicodeScript.LAO
                || s == Character.UnicodeScript.KHMER || s == Character.UnicodeScript.MYANMAR;
    }
}
