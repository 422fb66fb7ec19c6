package io.polyrag.retrieval;

import io.polyrag.core.model.AnswerSource;
import io.polyrag.core.model.ChunkKind;
import io.polyrag.core.port.Embedder;
import java.text.BreakIterator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The answer when no language model is configured: the sentences of the retrieved passages that best answer the
 * question, at most two per source and {@value #MAX_SENTENCES} in all, quoted in source order, each followed by its
 * citation. A sentence scores by
 * <ul>
 *   <li>the informative words it shares with the question (each weighted by how rare it is among the candidate
 *       sentences; plurals and common endings folded), or, for a sentence that refers back ("its height", "After
 *       about twelve hours…"), part of what the sentence before it shares — its subject is named there;</li>
 *   <li>its meaning: the embedding model's cosine between the question and the sentence, scaled over the candidates
 *       (when vectors are on; sentence vectors are kept in memory, so a passage is embedded once);</li>
 *   <li>for a question that sets a condition ("…if the 25th is a Saturday?", "what happens in a power cut?"), a
 *       sentence that states one ("When the 25th falls on a weekend…") gains: it is the one that completes it;</li>
 *   <li>for a question asking for a kind of answer (how long, how often, how many, how far, what temperature, when,
 *       why), a sentence that gives one gains; where the kind is a measure a pattern recognises reliably and some
 *       candidate gives it, a sentence that gives none loses;</li>
 * </ul>
 * discounted by the source's rank, since retrieval ranked the sources. A sentence needs a word of the question (its
 * own or inherited). When no candidate has one, nothing is quoted (the answer is empty): the sources retrieval
 * found do not speak of what was asked, and the sentence nearest in meaning would be a confident quote of something
 * else ("When is salary paid?" over a corpus without a payroll page once got a sentence about Rust's borrow
 * checker). Measured: none of the 73 questions of the answer sets has no word in its sources; of 12 questions the
 * sample corpus does not cover, 6 have none (their nearest sentences' cosines, 0.45-0.60, overlap the answered
 * questions', from 0.55, so no cosine floor could tell them apart). None with less than half the best sentence's
 * score is quoted. Table rows count as sentences, prefixed by their header; code is not quoted.
 */
public final class ExtractiveAnswerer {
    static final int MAX_SENTENCES = 3;
    private static final int PER_SOURCE = 2;
    private static final int CACHE = 20_000;
    private static final Set<String> STOPWORDS = Set.of("a", "an", "and", "are", "as", "at", "be", "but", "by",
            "can", "do", "does", "for", "from", "how", "i", "if", "in", "into", "is", "it", "its", "much", "many",
            "no", "not", "of", "on", "or", "so", "such", "that", "the", "their", "then", "there", "these", "they",
            "this", "to", "was", "were", "what", "when", "where", "which", "who", "why", "will", "with", "you",
            "have", "has", "had", "did", "done", "any", "all", "some", "more", "most", "other", "than", "also", "only",
            "just", "may", "might", "would", "should", "could", "been", "being", "we", "our", "he", "she", "his", "her",
            "them", "your", "my", "me", "about", "get", "use", "used");
    /** Words that, among a sentence's first few, point back to what the sentence before named. */
    private static final Set<String> BACK = Set.of("it", "its", "they", "their", "them", "this", "these", "those",
            "he", "she", "his", "her", "there", "after", "then", "afterwards", "later", "once");
    private static final Pattern CONDITION_ASKED = Pattern.compile(
            "\\b(if|unless|in case|what happens|what if|should i do)\\b|^.+\\bwhen\\b");
    private static final Pattern CONDITION_STATED = Pattern.compile(
            "^(if|when|unless|in a|in an|during|once|on|whenever)\\b");

    private static final String NUMBER = "(\\d[\\d,.]*|a few|several|half|one|two|three|four|five|six|seven|eight|"
            + "nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand)";
    private static final Pattern NUMBER_WORD = Pattern.compile(NUMBER);
    /** Quantities said with a measure word instead of a number ("a spoonful of starter", "a pinch of salt"). */
    private static final String MEASURE = "a (spoonful|teaspoonful|tablespoonful|pinch|handful|cupful|cup|glass|"
            + "dozen|couple|little|dash|splash|drop|slice|piece)|spoonfuls?|teaspoons?|tablespoons?|cups?|dozens?";
    /**
     * A sentence naming who: a person's name (two capitalised words not opening the sentence), an agent ("…drawn up
     * by the team lead"), or a role.
     */
    private static final String WHO = "(?<=\\S )\\p{Lu}\\p{Ll}+ \\p{Lu}\\p{Ll}+|\\b[Bb]y (the |a |an |our |your )?\\p{L}|"
            + "\\b(guides?|volunteers?|staff|curators?|keepers?|lead|leads|manager|director|officer|owner|"
            + "committee|council|inventor|founder|physicist|engineer)\\b";
    /** A sentence naming where: a place preposition before a place, or a floor, room or direction. */
    private static final String WHERE = "\\b(in|at|inside|outside|behind|beside|next to|near|opposite|under|above|"
            + "from|beyond) (the|a|an|our|each|every|its|their)\\b|\\b(upstairs|downstairs|basement|floor|room|"
            + "entrance|desk|office|cloakroom|lockers?)\\b";
    /**
     * What kind of answer a question asks for, and how a sentence that gives one reads: the duration a "how long"
     * question wants, the frequency of "how often", the number of "how many", the measure of "how tall", the degrees
     * of "what temperature", the time of "when", the cause of "why". The first five are recognised reliably (a
     * number with its unit, degrees, a frequency word): a sentence giving none of them does not answer such a
     * question. "When" and "why" are answered in too many ways ("from the first to the last day of the month") for a
     * pattern to rule a sentence out.
     */
    private static final List<AnswerKind> ANSWER_KINDS = List.of(
            kind("a duration", "\\bhow long\\b", "\\b" + NUMBER + "\\b[^.;]{0,24}\\b(seconds?|minutes?|hours?|"
                    + "days?|nights?|weeks?|months?|years?|centuries)\\b", true),
            kind("a frequency", "\\bhow often\\b", "\\b(every|each|daily|weekly|monthly|yearly|twice|once|"
                    + "times a)\\b", true),
            kind("a quantity", "\\bhow (many|much)\\b", "\\b(" + NUMBER + "|" + MEASURE + ")\\b", true),
            kind("a measure", "\\bhow (far|tall|high|big|large|deep|wide|heavy|long is|long was)\\b", "\\b" + NUMBER
                    + "\\b[^.;]{0,24}\\b(metres?|meters?|kilometres?|kilometers?|km|miles?|feet|kilos?|kg|tonnes?|"
                    + "grams?|bar|millimetres?)\\b", true),
            kind("a temperature", "\\bwhat temperature\\b|\\bhow (hot|cold|warm)\\b", "(\\bdegrees?\\b|°)", true),
            kind("a time", "^when\\b|\\bwhat (time|year|day)\\b|\\bwhich day\\b", "\\b(\\d{4}|\\d+(st|nd|rd|th)|"
                    + "january|february|march|april|may|june|july|august|september|october|november|december|monday|"
                    + "tuesday|wednesday|thursday|friday|saturday|sunday|morning|evening|night|before|after|until)\\b",
                    false),
            kind("a reason", "^why\\b", "\\b(because|since|so that|due to|in order to|which gives?|causes?|"
                    + "produces?)\\b", false),
            cased("a person", "^who\\b|\\bwho (is|was|are|were)\\b", WHO, true),
            kind("a place", "^where\\b", WHERE, false));
    /**
     * The subject of a question asking how long, how often, how much… with an auxiliary ("how long does <b>the
     * levain</b> ferment"): the thing the measure is about; its first word that is not a determiner or pronoun.
     */
    private static final Pattern SUBJECT = Pattern.compile("^how (long|often|much|many|"
            + "far|fast|big|old)\\s+(does|do|did|can|will|should|could|would|must)\\s+(?:(?:the|a|an|my|"
            + "your|our|its|their|this|that)\\s+)?([\\p{L}-]+)");
    /** What a sentence keeps of its score when the question's subject is not its own or its antecedent's. */
    private static final double OFF_SUBJECT = 0.7;
    /** The share of its passage's best word evidence a sentence without a word of the question gets. */
    private static final double PASSAGE = 0.3;
    /** What a sentence keeps of its score when the question asks for a kind it does not give and another gives. */
    private static final double WRONG_KIND = 0.7;

    /**
     * @param reliable whether a sentence not matching {@code sentence} can be taken not to give this kind
     * @param cased whether {@code sentence} reads the sentence as written (names), not lower-cased
     */
    private record AnswerKind(String name, Pattern question, Pattern sentence,
            boolean reliable, boolean cased) {
        boolean given(String text, String lower) {
            return sentence.matcher(cased ? text : lower).find();
        }
    }

    private static AnswerKind kind(String name, String question, String sentence, boolean reliable) {
        return new AnswerKind(name, Pattern.compile(question), Pattern.compile(
                sentence), reliable, false);
    }

    private static AnswerKind cased(String name, String question, String sentence, boolean reliable) {
        return new AnswerKind(name, Pattern.compile(question), Pattern.compile(
                sentence), reliable, true);
    }

    private record Sentence(int source, int position, int passage, String text, Set<String> terms) {
    }

    private final Embedder embedder;
    private final Map<String, float[]> vectors = Collections.synchronizedMap(
            new LinkedHashMap<>(1024, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, float[]> eldest) {
                    return size() > CACHE;
                }
            });

    /** Words only. */
    public ExtractiveAnswerer() {
        this(null);
    }

    /** @param embedder scores sentences by meaning too; null for words only */
    public ExtractiveAnswerer(Embedder embedder) {
        this.embedder = embedder;
    }

    public String answer(String question, List<AnswerSource> sources) {
        return answer(question, sources, Style.ANSWER);
    }

    /**
     * How an answer is laid out, as the intent router chose for the question: the best sentences (a lookup); every
     * sentence that names an item, one per line (a list); the best of each side (a comparison); the first sentence
     * of each passage in reading order (a summary of one document); one line per document (an overview).
     */
    public enum Style {
        ANSWER(MAX_SENTENCES, PER_SOURCE, 2), LIST(8, 4, 3), COMPARISON(6, 2, 3), SUMMARY(8, 8, 0), OVERVIEW(10, 1, 0);

        final int max;
        final int perSource;
        /** A chosen sentence carries at least 1/{@code share} of the best one's evidence. */
        final int share;

        Style(int max, int perSource, int share) {
            this.max = max;
            this.perSource = perSource;
            this.share = share;
        }
    }

    /** An answer laid out in {@code style}; empty when no sentence shares a word with a question that needs one. */
    public String answer(String question, List<AnswerSource> sources, Style style) {
        List<Sentence> pool = sentences(sources);
        if (style == Style.SUMMARY || style == Style.OVERVIEW) {
            return lead(pool, sources, style);
        }
        Map<Sentence, Double> score = pool.isEmpty() ? Map.of() : scores(question, pool);
        if (score.isEmpty()) {
            return "";
        }
        List<Sentence> chosen = choose(pool, score, style);
        if (chosen.isEmpty()) {
            chosen = List.of(pool.getFirst());
        }
        StringBuilder sb = new StringBuilder();
        for (Sentence s : chosen) {
            if (!sb.isEmpty()) {
                sb.append(style == Style.LIST ? "\n" : " ");
            }
            sb.append(style == Style.LIST ? "- " : "").append(AnswerPrompt.ownMarkersOnly(s.text())).append(" [").append(s.source()).append(']');
        }
        return sb.toString();
    }

    /**
     * A summary without a model: the first sentence of each passage in reading order (where writers put what a
     * section is about), at most {@link Style#max}; an overview gives each document its title and first sentence.
     */
    private static String lead(List<Sentence> pool, List<AnswerSource> sources, Style style) {
        StringBuilder sb = new StringBuilder();
        Set<Integer> seen = new HashSet<>();
        int n = 0;
        for (Sentence s : pool) {
            if (s.passage() < 0) {
                continue; // a table's rows: no summary opens with one
            }
            boolean first = style == Style.OVERVIEW ? seen.add(s.source()) : seen.add(s.passage());
            if (!first || n == style.max) {
                continue;
            }
            n++;
            if (style == Style.OVERVIEW) {
                String title = sources.stream().filter(x -> x.number() == s.source()).map(AnswerSource::title)
                        .findFirst().orElse("");
                sb.append(sb.isEmpty() ? "" : "\n").append("- ").append(title.isBlank() ? "" : title + ": ")
                        .append(AnswerPrompt.ownMarkersOnly(s.text())).append(" [").append(s.source()).append(']');
            } else {
                sb.append(sb.isEmpty() ? "" : " ").append(AnswerPrompt.ownMarkersOnly(s.text())).append(" [").append(s.source()).append(']');
            }
        }
        return sb.toString();
    }

    /**
     * The kind of answer a question asks for when it asks for one this answerer recognises — a duration ("how
     * long"), a frequency, a quantity, a measure, a temperature, a time, a reason, a person, a place — or null. The
     * intent router reads a question that asks for one as a lookup.
     */
    public static String askedKind(String question) {
        String asked = question.toLowerCase(Locale.ROOT).strip();
        return ANSWER_KINDS.stream().filter(k -> k.question().matcher(asked).find()).map(AnswerKind::name)
                .findFirst().orElse(null);
    }

    /** The sentence that scores best, for tests: what the answer quotes first in importance. */
    String best(String question, List<AnswerSource> sources) {
        List<Sentence> pool = sentences(sources);
        return scores(question, pool).entrySet().stream().max(Map.Entry.comparingByValue()).map(e -> e.getKey().text())
                .orElse("");
    }

    /** Each candidate sentence's score; empty when no sentence shares a word with the question. */
    // style: one pass scoring every candidate sentence; the features share its token sets
    private Map<Sentence, Double> scores(String question, List<Sentence> pool) {
        Set<String> query = terms(question);
        Map<String, Integer> df = new HashMap<>();
        pool.forEach(s -> s.terms().forEach(t -> df.merge(t, 1, Integer::sum)));
        double[] words = new double[pool.size()];
        for (int i = 0; i < pool.size(); i++) {
            for (String t : query) {
                if (pool.get(i).terms().contains(t)) {
                    words[i] += Math.log(1 + (double) pool.size() / df.get(t));
                }
            }
        }
        double maxWords = Arrays.stream(words).max().orElse(0);
        if (maxWords == 0) {
            return Map.of();
        }
        double[] meaning = meaning(question, pool);
        boolean conditional = CONDITION_ASKED.matcher(question.toLowerCase(Locale.ROOT).strip()).find();
        Map<Sentence, Double> score = new HashMap<>();
        String asked = question.toLowerCase(Locale.ROOT).strip();
        List<AnswerKind> wanted = ANSWER_KINDS.stream().filter(k -> k.question().matcher(asked).find()).toList();
        boolean[] gives = new boolean[pool.size()];
        boolean someGives = false;
        for (int i = 0; i < pool.size(); i++) {
            String lower = pool.get(i).text().toLowerCase(Locale.ROOT);
            String text = pool.get(i).text();
            gives[i] = wanted.stream().anyMatch(k -> k.given(text, lower));
            someGives |= gives[i];
        }
        // Whether a sentence giving none of the kinds asked for can be ruled out (and some candidate gives one).
        boolean ruleOut = someGives && wanted.stream().anyMatch(AnswerKind::reliable);
        String subject = subject(asked);
        Map<Integer, Double> passageBest = new HashMap<>();
        for (int i = 0; i < pool.size(); i++) {
            passageBest.merge(pool.get(i).passage(), words[i] / maxWords, Math::max);
        }
        double[] anchored = new double[pool.size()];
        boolean[] onSubject = new boolean[pool.size()];
        for (int i = 0; i < pool.size(); i++) {
            Sentence s = pool.get(i);
            double w = maxWords == 0 ? 0 : words[i] / maxWords;
            onSubject[i] = subject != null && s.terms().contains(subject);
            if (i > 0 && pool.get(i - 1).passage() == s.passage() && refersBack(s, pool.get(i - 1))) {
                // Its subject is named in the sentence before (which may itself refer back): part of that evidence.
                w = Math.max(w, 0.6 * anchored[i - 1]);
                onSubject[i] |= onSubject[i - 1];
                if (meaning != null) {
                    // And part of its meaning: "After about twelve hours it should be bubbly" is about the levain
                    // the sentence before mixes, though alone it reads close to nothing asked.
                    meaning[i] = Math.max(meaning[i], 0.6 * meaning[i - 1]);
                }
            }
            // A passage that speaks of the question lends its sentences a little: "Bags must be left in the lockers"
            // answers where to leave a rucksack at the museum in a passage about the museum.
            w = Math.max(w, PASSAGE * passageBest.get(s.passage()));
            anchored[i] = w;
        }
        boolean subjectNamed = false;
        for (boolean b : onSubject) {
            subjectNamed |= b;
        }
        for (int i = 0; i < pool.size(); i++) {
            Sentence s = pool.get(i);
            double w = anchored[i];
            double v = meaning == null ? w : 0.5 * w + 0.5 * meaning[i];
            String lower = s.text().toLowerCase(Locale.ROOT);
            if (conditional && w > 0 && CONDITION_STATED.matcher(lower).find()) {
                v += 0.25;
            }
            if (w > 0 && gives[i]) {
                v += 0.2;
            } else if (ruleOut && !gives[i]) {
                // "How long should the levain rest?" is not answered by the recipe's table row naming the levain.
                v *= WRONG_KIND;
            }
            if (subjectNamed && !onSubject[i]) {
                // "How long does the levain ferment?" is about the levain, not the starter that also ferments.
                v *= OFF_SUBJECT;
            }
            // Retrieval already ranked the sources: the same evidence counts for less in a lower-ranked source.
            score.put(s, w == 0 ? 0 : v / (1 + 0.5 * (s.source() - 1)));
        }
        return score;
    }

    /** The folded subject word of a question asked with an auxiliary, or null. */
    static String subject(String asked) {
        Matcher m = SUBJECT.matcher(asked);
        if (!m.find()) {
            return null;
        }
        String w = m.group(3);
        return STOPWORDS.contains(w) || NUMBER_WORD.matcher(w).matches() ? null : fold(w);
    }

    /**
     * Each sentence's cosine with the question, scaled to 0..1 over the candidates; null without an embedder, or
     * when it fails (words alone then).
     */
    private double[] meaning(String question, List<Sentence> pool) {
        if (embedder == null) {
            return null;
        }
        try {
            float[] q = embedder.embedQuery(question);
            List<String> missing = pool.stream().map(Sentence::text).filter(t -> !vectors.containsKey(t)).distinct()
                    .toList();
            if (!missing.isEmpty()) {
                List<float[]> got = embedder.embedPassages(missing);
                for (int i = 0; i < missing.size(); i++) {
                    vectors.put(missing.get(i), got.get(i));
                }
            }
            double[] cos = new double[pool.size()];
            double min = Double.MAX_VALUE;
            double max = -Double.MAX_VALUE;
            for (int i = 0; i < pool.size(); i++) {
                float[] v = vectors.get(pool.get(i).text());
                cos[i] = v == null ? 0 : cosine(q, v);
                // A vector of NaN (a custom fp16 model) made every scaled score NaN, and the answer quoted the
                // first sentence of source 1 whatever the question.
                if (!Double.isFinite(cos[i])) {
                    cos[i] = 0;
                }
                min = Math.min(min, cos[i]);
                max = Math.max(max, cos[i]);
            }
            for (int i = 0; i < cos.length; i++) {
                cos[i] = max - min < 1e-9 ? 1 : (cos[i] - min) / (max - min);
            }
            return cos;
        } catch (RuntimeException e) {
            System.getLogger(ExtractiveAnswerer.class.getName()).log(System.Logger.Level.WARNING, "the embedding "
                    + "model could not score the answer's sentences; words alone decide: " + e.getMessage());
            return null;
        }
    }

    private static double cosine(float[] a, float[] b) {
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < Math.min(a.length, b.length); i++) {
            dot += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        return na == 0 || nb == 0 ? 0 : dot / Math.sqrt(na * nb);
    }

    /**
     * Whether a sentence points back to the one before: a pronoun or a sequence word among its first eight words
     * ("Estimates put its height…", "After about twelve hours it…"), or a definite subject the sentence before named
     * ("The bacteria produce…" after "…lactic acid bacteria…").
     */
    private static boolean refersBack(Sentence s, Sentence before) {
        String[] w = s.text().toLowerCase(Locale.ROOT).split("[^\\p{L}]+");
        for (int i = 0; i < Math.min(8, w.length); i++) {
            if (BACK.contains(w[i])) {
                return true;
            }
        }
        return w.length > 1 && (w[0].equals("the") || w[0].equals("these") || w[0].equals("such"))
                && before.terms().contains(fold(w[1]));
    }

    private static List<Sentence> choose(List<Sentence> pool, Map<Sentence, Double> score, Style style) {
        double best = score.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
        // A sentence must carry at least half the evidence of the best one (a third, for a list or a comparison,
        // whose items each match less of the question): a lone common word is not an answer.
        List<Sentence> ranked = pool.stream().filter(s -> score.get(s) > 0 && score.get(s) >= best / style.share)
                .sorted(Comparator.comparingDouble((Sentence s) -> -score.get(s)).thenComparingInt(Sentence::source)
                        .thenComparingInt(Sentence::position)).toList();
        List<Sentence> chosen = new ArrayList<>();
        Map<Integer, Integer> perSource = new HashMap<>();
        for (Sentence s : ranked) {
            if (chosen.size() == style.max) {
                break;
            }
            if (perSource.merge(s.source(), 1, Integer::sum) <= style.perSource) {
                chosen.add(s);
            }
        }
        chosen.sort(Comparator.comparingInt(Sentence::source).thenComparingInt(Sentence::position));
        return chosen;
    }

    private static List<Sentence> sentences(List<AnswerSource> sources) {
        List<Sentence> out = new ArrayList<>();
        int passage = 0;
        for (AnswerSource src : sources) {
            for (AnswerSource.Passage p : src.passages()) {
                passage++;
                if (!p.hit() || p.kind() == ChunkKind.CODE) {
                    continue;
                }
                if (p.kind() == ChunkKind.TABLE) {
                    String[] lines = p.text().split("\n");
                    for (int i = 1; i < lines.length; i++) {
                        // Matched on the row's own words (the header is in every row), quoted with the header.
                        out.add(new Sentence(src.number(), out.size(), -passage * 1000 - i, lines[0] + ": " + lines[i],
                                terms(lines[i])));
                    }
                } else {
                    for (String text : split(p.text())) {
                        out.add(new Sentence(src.number(), out.size(), passage, text, terms(text)));
                    }
                }
            }
        }
        // Once each: neighbouring chunks repeat their overlap's sentences, and both copies were quoted side by side.
        Set<String> seen = new HashSet<>();
        return out.stream().filter(x -> seen.add(x.text().strip().replaceAll("\\s+", " "))).toList();
    }

    /**
     * A full stop that ends a title, a month or weekday, a common Latin abbreviation or an initial ("Dr.", "Sept.",
     * "e.g.", "J.", "U.S."), where the JDK's sentence breaks cut a sentence in two.
     */
    private static final Pattern ABBREVIATION = Pattern.compile("(?:\\b(?:Dr|Mr|Mrs|Ms|Mme|Prof|Sr|Jr|St|Mt|Ft|"
            + "Vol|Fig|Figs|Eq|approx|ca|cf|vs|viz|resp|Gen|Col|Capt|Lt|Sgt|Rev|Hon|Gov|Sen|Rep)|\\b(?:\\p{L}\\.)+\\p{L}"
            + "|\\be\\.g|\\bi\\.e)\\.$");

    /**
     * A month, weekday or "No." is an abbreviation before a number ("Sept. 5", "No. 7"); before anything else it is
     * a word ending a sentence ("…that orbit the Sun. Far from the Sun…" was quoted as one sentence).
     */
    private static final Pattern DATED = Pattern.compile("\\b(?:No|Nos|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|"
            + "Dec|Mon|Tue|Tues|Wed|Thu|Thurs|Fri|Sat|Sun)\\.$");

    /** An initial: a capital letter after a name or another initial ("John F.", "J."), not "vitamin C.". */
    private static final Pattern INITIAL = Pattern.compile("(?:^|(?:^|\\s)\\p{Lu}[\\p{L}.]*\\s)\\p{Lu}\\.$");

    private static List<String> split(String text) {
        BreakIterator it = BreakIterator.getSentenceInstance(Locale.ROOT);
        String flat = text.replaceAll("\\s+", " ").strip();
        it.setText(flat);
        List<String> out = new ArrayList<>();
        int from = it.first();
        for (int end = it.next(); end != BreakIterator.DONE; end = it.next()) {
            String s = flat.substring(from, end).strip();
            // "Tours are led by Dr." is no sentence: the name and the rest of it were lost from the quote.
            if (end < flat.length() && (ABBREVIATION.matcher(s).find() || INITIAL.matcher(s).find()
                    || DATED.matcher(s).find() && Character.isDigit(flat.charAt(end)))) {
                continue;
            }
            from = end;
            if (s.split(" ").length >= 3 || s.codePoints().filter(Spaceless::script).count() >= 6) {
                out.add(s);
            }
        }
        return out;
    }

    /** Lower-cased words without stopwords, plurals and common endings folded so "ferments" meets "fermented". */
    static Set<String> terms(String text) {
        Set<String> out = new HashSet<>();
        // Marks belong to their words (Devanagari, Bengali, Tamil, Thai vowel signs): split at them, "स्थापित"
        // was one-letter fragments, all dropped.
        for (String w : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{M}\\p{N}]+")) {
            if (w.codePoints().anyMatch(Spaceless::script)) {
                Spaceless.bigrams(w, out);
            } else if (w.length() > 1 && !STOPWORDS.contains(w)) {
                out.add(fold(w));
            }
        }
        return out;
    }

    /** "bake" and "baked" meet at "bak", "rule" and "ruled" at "rul". */
    private static String dropE(String w) {
        return w.length() > 3 && w.endsWith("e") ? w.substring(0, w.length() - 1) : w;
    }

    private static String fold(String w) {
        if (w.length() > 4 && (w.endsWith("ies") || w.endsWith("ied"))) {
            return w.substring(0, w.length() - 3) + "y";
        }
        for (String suffix : new String[] {"ment", "ing", "ed", "es", "s"}) {
            if (w.length() > suffix.length() + 3 && w.endsWith(suffix)) {
                return dropE(w.substring(0, w.length() - suffix.length()));
            }
        }
        return dropE(w);
    }
}
