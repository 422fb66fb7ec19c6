package io.polyrag.retrieval;

import io.polyrag.core.model.TokenEstimate;
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
        return TokenEstimate.unspaced(cp);
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
