package io.polyrag.retrieval;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The retrieval query of a follow-up question, rewritten from the conversation without a language model: "And at
 * what temperature?" after "How long does the levain ferment?" searches for "And at what temperature? levain
 * ferment". A question that names its own subject is searched as it is.
 *
 * <p>A follow-up is one that points back — a pronoun or "there" ("When was it built?"), an opening "and", "what
 * about", "how about", "also" — or one too short to name anything (one content word or none: "How long?",
 * "Which is cheaper?"; two already name something: "When do I mix the levain?"). Its query keeps
 * its own words and adds, from the user's earlier turns (the latest first, and the ones before it while each leaned
 * back too), the names (capitalised words not opening a sentence) and then the content words, at most eight words. Its own words come first, so what it asks keeps its weight; the pronoun stays (it costs nothing in BM25 and
 * the embedding model reads the whole).
 */
public final class FollowUp {
    private static final int MAX_CARRIED = 8;
    /** A carried word longer than this is no word (a URL, a pasted blob): left behind. */
    private static final int MAX_WORD = 40;
    /** Earlier turns looked at: the latest few are what a follow-up leans on. */
    private static final int MAX_TURNS = 10;
    /**
     * The part of an earlier turn read, in characters: a question's subject is in its first lines. Earlier turns come
     * uncut from a request's body (up to its 16 MiB), and every word of such a turn was a string of its own.
     */
    static final int MAX_TURN_CHARS = 4000;
    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}][\\p{L}\\p{N}'’-]*");
    private static final Set<String> POINTERS = Set.of("it", "its", "it's", "they", "them", "their", "theirs", "this",
            "that", "these", "those", "there", "he", "him", "his", "she", "her", "hers", "one", "ones");
    /** Words a message of small talk is made of, and nothing else. */
    private static final Set<String> SMALL_TALK = Set.of("thanks", "thank", "you", "thx", "ty", "hello", "hi", "hey",
            "bye", "goodbye", "ok", "okay", "great", "cool", "nice", "good", "morning", "evening", "afternoon",
            "cheers", "perfect", "awesome", "yes", "no", "yep", "nope", "sure", "got", "it", "so", "much", "very",
            "a", "lot", "see", "later", "that's", "that", "helps", "helped", "fine", "alright", "right", "wow");
    /** The verbs of "is there", "there are": an existential there points at nothing. */
    private static final Set<String> EXISTENTIAL = Set.of("is", "are", "was", "were", "isn't", "aren't", "be", "been",
            "'s");
    /** Words after which "that" opens a clause rather than pointing back ("that the tenant paid"). */
    private static final Set<String> CLAUSE = Set.of("a", "an", "the", "i", "we", "you", "they", "he", "she", "my",
            "our", "your", "their", "his", "her", "its", "there", "no", "some", "all", "every", "each");
    private static final Pattern OPENERS = Pattern.compile("^(and|also|plus|so|then|what about|how about|and what|"
            + "and how|what else|anything else|same for|and for|but)\\b");
    private static final Set<String> STOP = Set.of("a", "an", "and", "are", "as", "at", "be", "but", "by", "can",
            "could", "do", "does", "did", "for", "from", "had", "has", "have", "how", "i", "if", "in", "into", "is",
            "it", "its", "me", "my", "no", "not", "of", "on", "or", "our", "should", "so", "than", "that", "the",
            "their", "them", "then", "there", "these", "they", "this", "those", "to", "too", "us", "was", "we", "were",
            "what", "when", "where", "which", "who", "whom", "whose", "why", "will", "with", "would", "you", "your",
            "about", "also", "any", "much", "many", "long", "often", "get", "go", "make", "take", "tell", "know",
            "please", "thanks", "ok", "okay", "yes", "still", "just", "else", "more", "most", "some", "all", "one",
            "ones", "he", "him", "his", "she", "her", "hers", "it's", "am", "been", "being", "need", "may", "might",
            "must", "shall", "very", "really");

    private FollowUp() {
    }

    /**
     * The query to retrieve with: {@code question} as it is, or with what the earlier user turns named.
     *
     * @param history the user's earlier turns, oldest first
     */
    public static String rewrite(List<String> history, String question) {
        if (question == null || question.isBlank() || history == null || history.isEmpty()
                || !pointsBack(question)) {
            return question;
        }
        Set<String> own = new LinkedHashSet<>();
        for (String w : words(question)) {
            own.add(w.toLowerCase(Locale.ROOT));
        }
        List<String> carried = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>(own);
        for (int i = history.size() - 1; i >= Math.max(0, history.size() - MAX_TURNS) && carried.size() < MAX_CARRIED;
                i--) {
            String whole = history.get(i);
            String turn = whole.length() <= MAX_TURN_CHARS ? whole : whole.substring(0, MAX_TURN_CHARS);
            List<String> said = words(turn.toLowerCase(Locale.ROOT));
            if (!said.isEmpty() && SMALL_TALK.containsAll(said)) {
                continue; // "Great, thanks" between two questions: no topic of its own, and not the antecedent
            }
            for (String name : names(turn)) {
                for (String w : name.split(" ")) {
                    if (carried.size() < MAX_CARRIED && w.length() <= MAX_WORD && !STOP.contains(w.toLowerCase(Locale.ROOT))
                            && seen.add(w.toLowerCase(Locale.ROOT))) {
                        carried.add(w);
                    }
                }
            }
            for (String w : words(turn)) {
                String lower = w.toLowerCase(Locale.ROOT);
                if (carried.size() < MAX_CARRIED && !STOP.contains(lower) && lower.length() > 1
                        && lower.length() <= MAX_WORD && seen.add(lower)) {
                    carried.add(lower);
                }
            }
            if (!pointsBack(turn)) {
                break; // a turn that named its own subject is the antecedent; one that leaned back leans on the one before
            }
        }
        return carried.isEmpty() ? question : question.strip() + " " + String.join(" ", carried);
    }

    /** Whether the question leans on what was said before. */
    static boolean pointsBack(String question) {
        String lower = question.toLowerCase(Locale.ROOT).strip();
        if (OPENERS.matcher(lower).find()) {
            return true;
        }
        List<String> words = words(lower);
        // Small talk ("thanks", "ok, bye") leans on nothing: with the topic added it was searched and answered.
        if (!words.isEmpty() && SMALL_TALK.containsAll(words)) {
            return false;
        }
        int content = 0;
        for (int i = 0; i < words.size(); i++) {
            String w = words.get(i);
            if (POINTERS.contains(w) && pointer(words, i)) {
                return true;
            }
            if (!STOP.contains(w)) {
                content++;
            }
        }
        return content <= 1 && names(question).isEmpty();
    }

    /**
     * Whether the pointer word at {@code i} stands for something said before: not the "there" of "is there a …?",
     * nor a "that" that opens a clause ("prove that the tenant paid").
     */
    private static boolean pointer(List<String> words, int i) {
        String w = words.get(i);
        String before = i > 0 ? words.get(i - 1) : "";
        String after = i + 1 < words.size() ? words.get(i + 1) : "";
        if (w.equals("there")) {
            return !EXISTENTIAL.contains(before) && !EXISTENTIAL.contains(after);
        }
        if (w.equals("that") || w.equals("this")) {
            return !CLAUSE.contains(after);
        }
        return true;
    }

    /** Capitalised runs not opening the text ("the Pharos of Alexandria" gives "Pharos of Alexandria"). */
    static List<String> names(String text) {
        List<String> out = new ArrayList<>();
        List<String> ws = words(text);
        StringBuilder run = new StringBuilder();
        for (int i = 0; i < ws.size(); i++) {
            String w = ws.get(i);
            boolean capital = i > 0 && Character.isUpperCase(w.codePointAt(0)) && !STOP.contains(w.toLowerCase(
                    Locale.ROOT));
            boolean joiner = !run.isEmpty() && (w.equals("of") || w.equals("the")) && i + 1 < ws.size()
                    && Character.isUpperCase(ws.get(i + 1).codePointAt(0));
            if (capital || joiner) {
                run.append(run.isEmpty() ? "" : " ").append(w);
            } else if (!run.isEmpty()) {
                out.add(run.toString());
                run.setLength(0);
            }
        }
        if (!run.isEmpty()) {
            out.add(run.toString());
        }
        return out;
    }

    private static List<String> words(String text) {
        List<String> out = new ArrayList<>();
        Matcher m = WORD.matcher(text);
        while (m.find()) {
            out.add(m.group());
        }
        return out;
    }
}
