package io.polyrag.core.model;

/**
 * A model-free estimate of a text's tokens for budgets and usage when no tokenizer says: English prose runs about four
 * characters a token, and each character of a script written without spaces between words (Chinese, Japanese, Thai,
 * Lao, Khmer, Myanmar) about one. Counted by length alone, a Chinese prompt was taken for a quarter of its tokens: a
 * budget let four times through, and usage billed a quarter.
 */
public final class TokenEstimate {
    /** Characters of English prose a token is taken for. */
    public static final int CHARS_PER_TOKEN = 4;

    private TokenEstimate() {
    }

    /** Whether {@code cp} is of a script written without spaces between words. */
    public static boolean unspaced(int cp) {
        if (cp == 0x30FC || cp == 0xFF70) {
            return true; // the prolonged sound mark (データ), of no script of its own
        }
        Character.UnicodeScript script = Character.UnicodeScript.of(cp);
        return script == Character.UnicodeScript.HAN || script == Character.UnicodeScript.HIRAGANA
                || script == Character.UnicodeScript.KATAKANA || script == Character.UnicodeScript.THAI
                || script == Character.UnicodeScript.LAO || script == Character.UnicodeScript.KHMER
                || script == Character.UnicodeScript.MYANMAR;
    }

    /** The text's size in characters of English prose: each character of an unspaced script counts four. */
    public static long proseChars(CharSequence text) {
        if (text == null) {
            return 0;
        }
        long n = text.length();
        for (int i = 0; i < text.length(); ) {
            int cp = Character.codePointAt(text, i);
            i += Character.charCount(cp);
            if (unspaced(cp)) {
                n += CHARS_PER_TOKEN - 1;
            }
        }
        return n;
    }

    /** The text's tokens, estimated (at least one for a text that is not empty). */
    public static long tokens(CharSequence text) {
        return (proseChars(text) + CHARS_PER_TOKEN - 1) / CHARS_PER_TOKEN;
    }
}
