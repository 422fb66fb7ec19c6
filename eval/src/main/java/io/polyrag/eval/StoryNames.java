package io.polyrag.eval;

import java.util.HashSet;
import java.util.Locale;
import java.util.Random;
import java.util.Set;

/**
 * Made-up words for {@link StoryCorpus}: a root of one or two syllables and an ending that gives the word its flavour
 * (a place, a family, a given name). No model has met these words, so a question about them can only be answered from
 * the collection.
 *
 * <p>Every word is handed out once. Two entities that share a word (a ship and its twin, a yard and a museum, cousins)
 * share it because the caller reused the word on purpose, never by chance.
 */
final class StoryNames {
    static final String[] PLACE = {"mere", "wick", "holm", "by", "stead", "ness", "ford", "dale", "stow", "ey",
        "worth", "haven", "more", "gate", "mouth", "well"};
    static final String[] FAMILY = {"ow", "en", "ett", "ard", "isk", "ley", "ane", "ock", "ell", "ick", "ers", "ond",
        "ay", "ith", "ue"};
    static final String[] HULL = {"el", "ine", "ara", "ow", "ern", "is", "ette", "ion", "ove", "ane", "ia", "ant",
        "ery", "une"};
    static final String[] REGION = {"mark", "land", "shire", "march", "ia", "dor", "ance"};
    static final String[] FEMININE = {"a", "ine", "is", "elle", "ia", "ette", "wen", "ora"};
    static final String[] MASCULINE = {"o", "an", "ric", "el", "or", "us", "in", "ald"};
    static final String[] SHORT = {"el", "a", "is", "en", "ar", "on", "ith"};

    private static final String[] ONSETS = {"", "", "b", "br", "c", "d", "dr", "f", "g", "gr", "h", "k", "l", "m",
        "n", "p", "r", "s", "sh", "st", "t", "th", "tr", "v", "w", "z"};
    private static final String[] MIDDLES = {"b", "d", "g", "l", "m", "n", "r", "s", "t", "v", "th"};
    private static final String[] VOWELS = {"a", "e", "i", "o", "u", "a", "e", "o", "ai", "ea", "ou"};
    private static final String[] CODAS = {"", "", "l", "r", "n", "s", "rr", "ll", "nd", "st"};
    private static final String VOWEL_LETTERS = "aeiouy";

    private final Random random;
    private final Set<String> used = new HashSet<>();

    StoryNames(Random random) {
        this.random = random;
    }

    /** A new capitalised word with one of {@code endings}, never handed out before. */
    String word(String[] endings) {
        for (int tries = 0; tries < 100_000; tries++) {
            String w = root() + endings[random.nextInt(endings.length)];
            if (pronounceable(w) && used.add(w)) {
                return Character.toUpperCase(w.charAt(0)) + w.substring(1);
            }
        }
        throw new IllegalStateException("ran out of made-up words");
    }

    private String root() {
        StringBuilder b = new StringBuilder(pick(ONSETS)).append(pick(VOWELS));
        if (random.nextInt(3) == 0) {
            b.append(pick(MIDDLES)).append(pick(VOWELS));
        }
        return b.append(pick(CODAS)).toString();
    }

    /** Rejects clusters a reader would stumble on: three vowels or three consonants in a row. */
    private static boolean pronounceable(String w) {
        if (w.length() < 4 || w.length() > 11) {
            return false;
        }
        int vowels = 0;
        int consonants = 0;
        for (char c : w.toLowerCase(Locale.ROOT).toCharArray()) {
            boolean vowel = VOWEL_LETTERS.indexOf(c) >= 0;
            vowels = vowel ? vowels + 1 : 0;
            consonants = vowel ? 0 : consonants + 1;
            if (vowels > 2 || consonants > 2) {
                return false;
            }
        }
        return true;
    }

    private String pick(String[] options) {
        return options[random.nextInt(options.length)];
    }
}
