package io.polyrag.model.opennlp;

import io.polyrag.core.model.Vocabulary;
import java.util.Arrays;
import java.util.Locale;
import java.util.Set;

/**
 * What links two mentions of one sentence: the predicate stated between them, in the graph's {@link Vocabulary},
 * and its direction.
 *
 * <ul>
 *   <li>A role noun with "of" ("the founder of", "chief executive of") or after a possessive ("Y's founder X") states
 *       the role's predicate, its holder the subject.</li>
 *   <li>Else the verb between them: its lemma with the particle or preposition after it ("set up", "work at") read
 *       through the vocabulary ("established" → {@code founded}); a passive with "by" ("was founded by", "made by")
 *       is read actively, its ends swapped. A verb whose own object is a common noun before the second mention
 *       ("employs 240 people at its plant in Umeå") does not relate the two: the noun's preposition does
 *       ("plant in Umeå": {@code located_in}).</li>
 *   <li>With no verb between close mentions: "in"/"at" before a place states {@code located_in}; other short links
 *       ("X of Y", "X, Y") {@link Vocabulary#RELATED_TO}; a coordination ("X and Y") or a long stretch without a verb
 *       states nothing.</li>
 * </ul>
 */
final class Clauses {
    /** Most tokens between two mentions linked by no verb (a preposition, a comma, an article). */
    private static final int CLOSE = 3;
    private static final Set<String> BE = Set.of("be", "is", "are", "was", "were", "been", "being", "am");
    /** Prepositions that put a thing in a place: "near", "outside" do not ("was last near the Sun"). */
    private static final Set<String> LOCATIVE = Set.of("in", "at", "inside");
    private static final Set<String> POSSESSIVES = Set.of("his", "her", "its", "their");

    private Clauses() {
    }

    /** A relation between two mentions: its predicate, and whether the second mention is its subject. */
    record Link(String predicate, boolean reversed) {
    }

    /**
     * The link between the mentions ending at {@code aEnd} and starting at {@code bStart}, or null.
     *
     * @param bPlace whether the second mention is known (or written) as a place
     */
    static Link between(String[] words, String[] tags, Lemmas lemmas, int aEnd, int bStart, boolean bPlace) {
        if (bStart <= aEnd) {
            return null;
        }
        Link role = role(words, tags, aEnd, bStart);
        if (role != null) {
            return role;
        }
        int verb = -1;
        for (int i = bStart - 1; i >= aEnd; i--) {
            if (tags[i].equals("VERB")) {
                verb = i;
                break;
            }
        }
        if (verb < 0) {
            return noVerb(words, tags, aEnd, bStart, bPlace);
        }
        String lemma = lemma(lemmas, words, verb);
        int after = verb + 1;
        String particle = "";
        if (after < bStart && (tags[after].equals("ADP") || tags[after].equals("PART"))
                && !words[after].equalsIgnoreCase("to")) {
            particle = words[after].toLowerCase(Locale.ROOT);
            after++;
        }
        boolean passive = passive(words, tags, aEnd, verb, bStart);
        if (passive) {
            return new Link(Vocabulary.predicate(lemma, ""), true);
        }
        // The verb's own object is a common noun before the second mention: "employs 240 people at its plant in
        // Umeå" says nothing of the company and Umeå through "employ"; the last preposition does.
        for (int i = after; i < bStart; i++) {
            if (tags[i].equals("NOUN") && !Vocabulary.PREDICATES.containsKey(lemma)) {
                String prep = lastPreposition(words, tags, i, bStart);
                if (prep != null && LOCATIVE.contains(prep) && bPlace) {
                    return new Link(Vocabulary.LOCATED_IN, false);
                }
                String closed = Vocabulary.predicate(lemma, particle);
                if (POSSESSIVES.contains(words[bStart].toLowerCase(Locale.ROOT)) && !Vocabulary.closed(closed)) {
                    // "landed the probe on its surface": the second mention is whose surface, not where it landed.
                    return null;
                }
                // An idiom ("came off the slips of X", "took to the water at X") still links the two, by its verb
                // and the preposition before the second: a walk may follow it, though no question names it.
                return Vocabulary.closed(closed) ? new Link(closed, false) : prep == null ? null
                        : new Link(Vocabulary.predicate(lemma, prep), false);
            }
        }
        String predicate = Vocabulary.predicate(lemma, particle);
        if (BE.contains(lemma) && bPlace) {
            predicate = Vocabulary.LOCATED_IN;
        }
        return new Link(predicate, false);
    }

    /** A role noun between the mentions: "X, the founder of Y" (X holds it), "Y's founder X" (X holds it). */
    private static Link role(String[] words, String[] tags, int aEnd, int bStart) {
        for (int i = aEnd; i < bStart; i++) {
            String w = words[i].toLowerCase(Locale.ROOT);
            String two = i + 1 < bStart ? w + " " + words[i + 1].toLowerCase(Locale.ROOT) : "";
            String predicate = Vocabulary.role(two);
            int width = 2;
            if (predicate == null) {
                predicate = Vocabulary.role(w);
                width = 1;
            }
            if (predicate == null || !tags[i].equals("NOUN") && !tags[i].equals("PROPN") && !tags[i].equals("ADJ")) {
                continue;
            }
            int next = i + width;
            if (next < bStart && words[next].equalsIgnoreCase("of") && next + 1 >= bStart - 1) {
                return new Link(predicate, false);
            }
            boolean possessiveBefore = i > aEnd && (words[i - 1].equals("'s") || words[i - 1].equals("’s"))
                    || i == aEnd;
            if (possessiveBefore && next + 1 == bStart && BE.contains(words[next].toLowerCase(Locale.ROOT))) {
                // "Y's founder is X", "Its chief executive is X": X holds the role.
                return new Link(predicate, true);
            }
            if (next == bStart || next + 1 == bStart && words[next].equals(",")) {
                // "Y's founder X", "Y's chief executive, X": X (the second mention) holds the role.
                boolean possessive = i > aEnd && (words[i - 1].equals("'s") || words[i - 1].equals("’s")
                        || words[i - 1].equals("'"));
                if (possessive || i == aEnd) {
                    return new Link(predicate, true);
                }
            }
        }
        return null;
    }

    private static Link noVerb(String[] words, String[] tags, int aEnd, int bStart, boolean bPlace) {
        int gap = bStart - aEnd;
        Link attribute = attribute(words, tags, aEnd, bStart);
        if (attribute != null) {
            return attribute;
        }
        for (int i = aEnd; i < bStart; i++) {
            String w = words[i].toLowerCase(Locale.ROOT);
            if (w.equals("and") || w.equals("or") || w.equals("nor") || w.equals("but") || w.equals(";")) {
                return null;
            }
        }
        String prep = lastPreposition(words, tags, aEnd, bStart);
        if (prep != null && LOCATIVE.contains(prep) && bPlace && gap <= CLOSE + 1) {
            return new Link(Vocabulary.LOCATED_IN, false);
        }
        return gap <= CLOSE ? new Link(Vocabulary.RELATED_TO, false) : null;
    }

    /**
     * A noun linking the two with no verb: "X's home port was Y" ({@code home_port}), "X, a hull of Y" and "X, the
     * pride of Y" ({@code hull_of}, {@code pride_of}); a role noun gives its predicate ("X's owner was Y"). Null for
     * anything else.
     */
    private static Link attribute(String[] words, String[] tags, int aEnd, int bStart) {
        int i = aEnd;
        boolean possessive = i < bStart && (words[i].equals("'s") || words[i].equals("’s"));
        boolean apposition = i < bStart && words[i].equals(",");
        if (!possessive && !apposition) {
            return null;
        }
        i++;
        while (i < bStart && (tags[i].equals("DET") || tags[i].equals("ADJ"))) {
            i++;
        }
        int nounStart = i;
        while (i < bStart && tags[i].equals("NOUN")) {
            i++;
        }
        if (i == nounStart || bStart - aEnd > 7) {
            return null;
        }
        String noun = String.join("_", Arrays.copyOfRange(words, nounStart, i)).toLowerCase(Locale.ROOT);
        String role = Vocabulary.role(noun.replace('_', ' '));
        if (possessive && i + 1 == bStart && BE.contains(words[i].toLowerCase(Locale.ROOT))) {
            return role != null ? new Link(role, true) : new Link(noun, false);
        }
        if (apposition && i + 1 == bStart && words[i].equalsIgnoreCase("of")) {
            return role != null ? new Link(role, false) : new Link(noun + "_of", false);
        }
        return null;
    }

    /** The last preposition before {@code bStart} (articles and adjectives may follow it), or null. */
    private static String lastPreposition(String[] words, String[] tags, int from, int bStart) {
        for (int i = bStart - 1; i >= from; i--) {
            if (tags[i].equals("ADP")) {
                return words[i].toLowerCase(Locale.ROOT);
            }
            if (!tags[i].equals("DET") && !tags[i].equals("ADJ") && !tags[i].equals("PRON")) {
                return null;
            }
        }
        return null;
    }

    /**
     * Whether the verb is a passive with its agent as the second mention: "was founded by X", "a company founded
     * by X" (a participle straight before "by").
     */
    private static boolean passive(String[] words, String[] tags, int aEnd, int verb, int bStart) {
        int by = -1;
        for (int i = verb + 1; i < bStart && i <= verb + 3; i++) {
            if (words[i].equalsIgnoreCase("by")) {
                by = i;
                break;
            }
            if (!tags[i].equals("ADV")) {
                break;
            }
        }
        return by >= 0;
    }

    private static String lemma(Lemmas lemmas, String[] words, int i) {
        String l = lemmas.of(i);
        return l.equals("O") ? words[i].toLowerCase(Locale.ROOT) : l.toLowerCase(Locale.ROOT);
    }
}
