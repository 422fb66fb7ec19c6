package io.polyrag.retrieval;

import java.util.Set;

/**
 * Scripts written without spaces between words (Chinese, Japanese, Thai, …), for the offline answerer and grounding:
 * split on spaces, a whole clause of them was one "word".
 */
final class Spaceless {
    private Spaceless() {
    }

    /**
     * A script written without spaces between words (Chinese, Japanese, Thai, …): a whole clause was one "word", so
     * no sentence of a Chinese source ever shared one with the question, and none was long enough to quote.
     */
    static boolean script(int cp) {
        if (cp == 0x30FC || cp == 0xFF70) {
            return true; // the prolonged sound mark (データ), of no script of its own
        }
        Character.UnicodeScript script = Character.UnicodeScript.of(cp);
        return script == Character.UnicodeScript.HAN || script == Character.UnicodeScript.HIRAGANA
                || script == Character.UnicodeScript.KATAKANA || script == Character.UnicodeScript.THAI
                || script == Character.UnicodeScript.LAO || script == Character.UnicodeScript.KHMER
                || script == Character.UnicodeScript.MYANMAR;
    }

    /**
     * The terms of a run holding such a script: each two neighbouring characters of it (as Lucene's CJK analysis
     * indexes them; a lone one by itself), and the other letters and digits between them as words ("45" of "45元").
     */
    static void bigrams(String w, Set<String> out) {
        int[] cps = w.codePoints().toArray();
        StringBuilder other = new StringBuilder();
        for (int i = 0; i <= cps.length; i++) {
            if (i < cps.length && !script(cps[i])) {
                other.appendCodePoint(cps[i]);
                continue;
            }
            if (other.length() > 1 || other.length() == 1 && Character.isDigit(other.charAt(0))) {
                out.add(other.toString());
            }
            other.setLength(0);
            if (i == cps.length) {
                break;
            }
            if (i + 1 < cps.length && script(cps[i + 1])) {
                out.add(new String(cps, i, 2));
            } else if (i == 0 || !script(cps[i - 1])) {
                out.add(new String(cps, i, 1));
            }
        }
    }
}
