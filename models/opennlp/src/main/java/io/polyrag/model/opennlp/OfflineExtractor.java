package io.polyrag.model.opennlp;

import io.polyrag.core.model.Entity;
import io.polyrag.core.model.Extraction;
import io.polyrag.core.model.Fact;
import io.polyrag.core.port.EntityExtractor;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import opennlp.tools.lemmatizer.LemmatizerME;
import opennlp.tools.lemmatizer.LemmatizerModel;
import opennlp.tools.postag.POSModel;
import opennlp.tools.postag.POSTaggerME;
import opennlp.tools.sentdetect.SentenceDetectorME;
import opennlp.tools.sentdetect.SentenceModel;
import opennlp.tools.tokenize.TokenizerME;
import opennlp.tools.tokenize.TokenizerModel;

/**
 * Entities and relations with no language model, from Apache OpenNLP's English Universal Dependencies models
 * (sentences, tokens, part-of-speech tags, lemmas; all from Maven Central, loaded from the class path).
 *
 * <ul>
 *   <li>An entity is a maximal run of proper nouns ({@code PROPN}), which may include a lower-case connector between
 *       two of them ("University of Paris"). Its type is {@code Organization} when one of its words is an
 *       organisation word (Institute, University, Inc, …), {@code Person} when a title precedes it (Dr, Mrs, …), else empty.</li>
 *   <li>A relation links each entity to the next one in the same sentence. Its predicate is the lemma of the last
 *       verb between them, joined to the preposition that follows it ("worked at" → {@code work_at}); with no verb
 *       between them it is the plain co-occurrence {@code related_to}. The sentence is kept as evidence.</li>
 * </ul>
 * This is deliberately simple and fast (thousands of sentences a second); a configured language model extracts
 * richer, typed graphs. The models are immutable and shared; the taggers, which are not thread-safe, are made per
 * call.
 */
final class OfflineExtractor implements EntityExtractor {
    private static final Set<String> CONNECTORS = Set.of("of", "de", "du", "des", "la", "le", "von", "van", "der",
            "den", "di", "da", "del", "y", "&");
    private static final Set<String> ORGANISATION_WORDS = Set.of("inc", "corp", "corporation", "company", "co", "ltd",
            "llc", "gmbh", "university", "institute", "college", "school", "laboratory", "laboratories", "lab",
            "society", "academy", "association", "agency", "bank", "group", "foundation", "council", "ministry",
            "department", "museum", "hospital", "church", "party", "committee", "commission", "union", "organization",
            "organisation", "club", "team", "press", "times", "observatory", "centre", "center");
    private static final Set<String> PERSON_TITLES = Set.of("mr", "mrs", "ms", "miss", "dr", "prof", "professor",
            "sir", "lady", "lord", "madame", "monsieur", "captain", "inspector", "doctor");
    private static final int MAX_EVIDENCE = 300;

    private final SentenceModel sentences;
    private final TokenizerModel tokens;
    private final POSModel pos;
    private final LemmatizerModel lemmas;
    private final java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(
            Runtime.getRuntime().availableProcessors(), Thread.ofPlatform().daemon().name("polyrag-extract-", 0)
                    .factory());

    OfflineExtractor() {
        this.sentences = load("opennlp-en-ud-ewt-sentence-1.3-2.5.4.bin", SentenceModel::new);
        this.tokens = load("opennlp-en-ud-ewt-tokens-1.3-2.5.4.bin", TokenizerModel::new);
        this.pos = load("opennlp-en-ud-ewt-pos-1.3-2.5.4.bin", POSModel::new);
        this.lemmas = load("opennlp-en-ud-ewt-lemmas-1.3-2.5.4.bin", LemmatizerModel::new);
    }

    private interface ModelReader<T> {
        T read(InputStream in) throws IOException;
    }

    private static <T> T load(String resource, ModelReader<T> reader) {
        try (InputStream in = OfflineExtractor.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the OpenNLP model " + resource + " is not on the class path: the "
                        + "opennlp-models-*-en jars are missing from the installation");
            }
            return reader.read(in);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the OpenNLP model " + resource + ": " + e.getMessage(), e);
        }
    }

    @Override
    public String id() {
        return "offline:opennlp-ud-pos";
    }

    /** Texts are split over one task per core, each with its own taggers (they are not thread-safe). */
    @Override
    public List<Extraction> extract(List<String> texts, long tokenBudget) {
        return extract(texts, tokenBudget, TimeLimits.none());
    }

    /**
     * Each text gets at most {@code limits.perText()}, checked between sentences; a text that runs over, or is not
     * reached before the call's deadline, gets {@link Extraction#TIME_STOPPED}. With the input bounded as
     * {@link #clean} bounds it, a real text takes milliseconds: the limit is for what no real text is.
     */
    @Override
    public List<Extraction> extract(List<String> texts, long tokenBudget, TimeLimits limits) {
        int parts = Math.min(texts.size(), Runtime.getRuntime().availableProcessors());
        if (parts <= 1) {
            Tools tools = newTools();
            return texts.stream().map(t -> extract(t, tools, limits)).toList();
        }
        Extraction[] out = new Extraction[texts.size()];
        List<java.util.concurrent.Future<?>> tasks = new java.util.ArrayList<>();
        for (int p = 0; p < parts; p++) {
            int part = p;
            tasks.add(pool.submit(() -> {
                Tools tools = newTools();
                for (int i = part; i < out.length; i += parts) {
                    out[i] = extract(texts.get(i), tools, limits);
                }
            }));
        }
        for (var t : tasks) {
            try {
                t.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while extracting entities", e);
            } catch (java.util.concurrent.ExecutionException e) {
                throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
            }
        }
        return List.of(out);
    }

    /** Longest run of characters without a space that can be part of a name; longer ones are not read at all. */
    static final int MAX_WORD = 64;
    /** Longest sentence tagged; a longer one (a table flattened into a line, a log) names nothing usefully. */
    static final int MAX_SENTENCE = 2000;

    /**
     * The text as the taggers may read it in time linear in its length: runs of more than {@value #MAX_WORD}
     * characters without a space (a URL, base64, a minified line, a text with no spaces at all) become a space.
     * OpenNLP's tokenizer and sentence detector look at a whole space-free run for each candidate boundary in it,
     * which made a 200 KB text without spaces take 33 s and a 1 MB one ten minutes.
     */
    static String clean(String text) {
        StringBuilder out = new StringBuilder(text.length());
        int i = 0;
        while (i < text.length()) {
            int j = i;
            while (j < text.length() && !Character.isWhitespace(text.charAt(j))) {
                j++;
            }
            if (j - i <= MAX_WORD) {
                out.append(text, i, j);
            } else {
                out.append(' ');
            }
            int k = j;
            while (k < text.length() && Character.isWhitespace(text.charAt(k))) {
                k++;
            }
            out.append(text, j, k);
            i = k;
        }
        return out.toString();
    }

    /** The words the text writes capitalised after a space, trailing punctuation taken off: one pass. */
    static Set<String> capitalisedInside(String text) {
        Set<String> out = new java.util.HashSet<>();
        for (int i = 1; i < text.length(); i++) {
            if (text.charAt(i - 1) == ' ' && Character.isUpperCase(text.charAt(i))) {
                int j = i;
                while (j < text.length() && !Character.isWhitespace(text.charAt(j))) {
                    j++;
                }
                out.add(trimTrailing(text.substring(i, j)));
                i = j;
            }
        }
        return out;
    }

    /** {@code word} without the trailing characters that are neither letters, digits nor '-'. */
    private static String trimTrailing(String word) {
        int end = word.length();
        while (end > 0) {
            char c = word.charAt(end - 1);
            if (Character.isLetterOrDigit(c) || c == '-') {
                break;
            }
            end--;
        }
        return word.substring(0, end);
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }

    private record Tools(SentenceDetectorME sentences, TokenizerME tokens, POSTaggerME tagger,
            LemmatizerME lemmatizer) {
    }

    private Tools newTools() {
        return new Tools(new SentenceDetectorME(sentences), new TokenizerME(tokens), new POSTaggerME(pos),
                new LemmatizerME(lemmas));
    }

    private Extraction extract(String raw, Tools tools, TimeLimits limits) {
        long deadline = Math.min(limits.deadlineNanos() == Long.MAX_VALUE ? Long.MAX_VALUE
                : limits.deadlineNanos() - System.nanoTime(), limits.perText().toNanos());
        deadline = deadline == Long.MAX_VALUE ? Long.MAX_VALUE : System.nanoTime() + Math.max(0, deadline);
        if (limits.expired()) {
            return Extraction.TIME_STOPPED;
        }
        String text = clean(raw);
        Set<String> inside = capitalisedInside(text);
        List<Entity> entities = new ArrayList<>();
        List<Fact> facts = new ArrayList<>();
        List<Sentence> sentences = new ArrayList<>();
        Set<String> named = new java.util.HashSet<>();
        for (String sentence : tools.sentences().sentDetect(text)) {
            if (deadline != Long.MAX_VALUE && System.nanoTime() - deadline > 0) {
                return Extraction.TIME_STOPPED;
            }
            if (sentence.length() > MAX_SENTENCE || !mayName(sentence, inside)) {
                continue;
            }
            opennlp.tools.util.Span[] at = tools.tokens().tokenizePos(sentence);
            if (at.length == 0 || at.length > 400) {
                continue;
            }
            String[] words = opennlp.tools.util.Span.spansToStrings(at, sentence);
            String[] tags = tools.tagger().tag(words);
            boolean[] glued = new boolean[words.length];
            for (int i = 1; i < words.length; i++) {
                glued[i] = at[i].getStart() == at[i - 1].getEnd();
            }
            // A table's cells and a list's lines open like sentences: "| Order | Focal length | Typical use |"
            // capitalises "Focal" and "Typical" for the same reason a sentence capitalises its first word.
            boolean[] opens = new boolean[words.length];
            opens[0] = true;
            for (int i = 1; i < words.length; i++) {
                opens[i] = words[i - 1].equals("|") || sentence.substring(at[i - 1].getEnd(), at[i].getStart())
                        .indexOf('\n') >= 0;
            }
            List<Span> found = spans(words, tags, glued);
            for (Span sp : found) {
                if (!opens[sp.start()]) {
                    named.addAll(List.of(Entity.key(sp.name()).split(" ")));
                }
            }
            sentences.add(new Sentence(sentence, words, tags, found, opens));
        }
        for (Sentence st : sentences) {
            // A one-word name opening a sentence (a cell, a line) is a name only if the text also uses it inside a
            // sentence, or it looks like one in any position (an acronym, a word with digits): "Born in Paris",
            // "Saturday's market", "Gentle heating…" mis-tagged are not entities.
            List<Span> found = st.found().stream().filter(sp -> !st.opens()[sp.start()] || sp.end() - sp.start() > 1
                    || named.contains(Entity.key(sp.name())) || looksLikeName(sp.name())).toList();
            for (Span sp : found) {
                entities.add(Entity.of(sp.name(), sp.type()));
            }
            int pronoun = subjectPronoun(st.words(), st.tags(), found);
            if (found.size() < 2 && pronoun < 0) {
                continue;
            }
            Lemmas lemma = new Lemmas(tools.lemmatizer(), st.words(), st.tags());
            String sentence = st.text();
            String evidence = sentence.length() > MAX_EVIDENCE ? sentence.substring(0, MAX_EVIDENCE) + "…" : sentence;
            Map<String, String> props = Map.of("extractor", "offline", "evidence", evidence);
            if (pronoun >= 0) {
                // "She founded Quillon Dynamics", "In 1998 he set up…", "Its chief executive is…": the pronoun stands
                // for the document's subject, which the resolver knows (the entity its title names).
                Span first = found.stream().filter(sp -> sp.start() > pronoun).findFirst().orElseThrow();
                facts.add(new Fact(Fact.DOCUMENT_SUBJECT, "", predicate(st.words(), st.tags(), lemma, pronoun + 1,
                        first.start()), first.name(), first.type(), props));
            }
            for (int i = 0; i + 1 < found.size(); i++) {
                Span a = found.get(i);
                Span b = found.get(i + 1);
                facts.add(new Fact(a.name(), a.type(), predicate(st.words(), st.tags(), lemma, a.end(), b.start()),
                        b.name(), b.type(), props));
            }
        }
        return new Extraction(entities, facts, 0);
    }

    private record Sentence(String text, String[] words, String[] tags, List<Span> found, boolean[] opens) {
    }

    /**
     * Whether a sentence can hold a name, before it is tokenised and tagged (most of extraction's time): a capital
     * letter after its first word, or a first word written as a code ("MRI", "ALDH1") or that the text also writes,
     * capitalised, after a space (a one-word name opening a sentence is kept only then). "It rained all day." is
     * not read at all. ({@code capitalisedInside}: {@link #capitalisedInside} of the whole text.)
     */
    static boolean mayName(String sentence, Set<String> capitalisedInside) {
        String s = sentence.strip();
        int space = 0;
        while (space < s.length() && !Character.isWhitespace(s.charAt(space))) {
            space++;
        }
        for (int i = space; i < s.length(); i++) {
            if (Character.isUpperCase(s.charAt(i))) {
                return true;
            }
        }
        String first = trimTrailing(s.substring(0, space));
        return !first.isEmpty() && Character.isUpperCase(first.codePointAt(0))
                && (looksLikeName(first) || capitalisedInside.contains(first));
    }

    private static final Set<String> SUBJECT_PRONOUNS = Set.of("he", "she", "it", "they", "his", "her", "its",
            "their");

    /**
     * The token offset of a pronoun standing for the text's subject: a personal or possessive pronoun among the
     * sentence's first six tokens, before its first verb and its first name, with a name after it ("She founded
     * X", "In 1998 he set up X", "Its chief executive is X"); -1 when there is none.
     */
    static int subjectPronoun(String[] words, String[] tags, List<Span> found) {
        if (found.isEmpty()) {
            return -1;
        }
        for (int i = 0; i < Math.min(found.getFirst().start(), 6); i++) {
            if (tags[i].equals("VERB") || tags[i].equals("AUX")) {
                return -1;
            }
            if (SUBJECT_PRONOUNS.contains(words[i].toLowerCase(Locale.ROOT))
                    && (tags[i].equals("PRON") || tags[i].equals("DET"))) {
                return i;
            }
        }
        return -1;
    }

    private static boolean looksLikeName(String name) {
        return name.chars().anyMatch(Character::isDigit)
                || name.length() >= 2 && name.chars().filter(Character::isLetter).allMatch(Character::isUpperCase);
    }

    private record Span(int start, int end, String name, String type) {
    }

    /**
     * Maximal runs of proper nouns, with connectors inside, tokens glued to them ("Velkro-80", "S-22") and a model
     * number after them ("Bedruk 300", "Nalvo X2"); [start, end) token offsets. A lone generic word ("River",
     * "Institute", "Monday") is not a name.
     */
    static List<Span> spans(String[] words, String[] tags, boolean[] glued) {
        List<Span> out = new ArrayList<>();
        int i = 0;
        while (i < words.length) {
            if (!isName(words[i], tags[i])) {
                i++;
                continue;
            }
            int start = i;
            int end = i + 1;
            while (end < words.length) {
                if (isName(words[end], tags[end]) || gluedPart(words, glued, end)) {
                    end++;
                } else if (end + 1 < words.length && CONNECTORS.contains(words[end].toLowerCase(Locale.ROOT))
                        && isName(words[end + 1], tags[end + 1])) {
                    end += 2;
                } else {
                    break;
                }
            }
            if (end < words.length && !glued[end] && MODEL_NUMBER.matcher(words[end]).matches()
                    && !tags[end].equals("PRON")) {
                end++;
                while (end < words.length && gluedPart(words, glued, end)) {
                    end++;
                }
            }
            String name = join(words, glued, start, end);
            String key = Entity.key(name);
            if (key.length() >= 2 && !(end - start == 1 && GENERIC.contains(key))) {
                out.add(new Span(start, end, name, type(words, start, end)));
            }
            i = end;
        }
        return out;
    }

    /** A model number or code after a name: 300, 7S, X2, S (then glued: S-22). Not a year-like 4-digit number. */
    private static final java.util.regex.Pattern MODEL_NUMBER = java.util.regex.Pattern.compile(
            "\\d{1,3}[A-Za-z]{0,3}|[A-Z]{1,3}\\d+[A-Za-z\\d]*|[A-Z]{1,2}");
    private static final Set<String> GENERIC = Set.of("river", "lake", "mount", "street", "road", "island",
            "region", "city", "north", "south", "east", "west", "monday", "tuesday", "wednesday", "thursday", "friday",
            "saturday", "sunday", "january", "february", "march", "april", "may", "june", "july", "august",
            "september", "october", "november", "december", "university", "institute", "company", "group", "bank",
            "museum", "hospital", "school", "college", "council", "department", "ministry", "centre", "center");

    /**
     * Whether the token at {@code i} continues the name before it without a space: a hyphen followed by a glued
     * letter or digit ("S" "-" "22"), or a letter/digit run glued after a hyphen ("S-" "22").
     */
    private static boolean gluedPart(String[] words, boolean[] glued, int i) {
        if (!glued[i]) {
            return false;
        }
        if (words[i].equals("-")) {
            return i + 1 < words.length && glued[i + 1] && Character.isLetterOrDigit(words[i + 1].codePointAt(0));
        }
        return i > 0 && words[i - 1].endsWith("-") && words[i].chars().allMatch(Character::isLetterOrDigit);
    }

    private static String join(String[] words, boolean[] glued, int start, int end) {
        StringBuilder b = new StringBuilder(words[start]);
        for (int i = start + 1; i < end; i++) {
            b.append(glued[i] ? "" : " ").append(words[i]);
        }
        return b.toString();
    }

    /** A capitalised proper noun, or a capitalised word mixing letters and digits ("Velkro-80", "ALDH1", "X2"). */
    private static boolean isName(String word, String tag) {
        return !word.isEmpty() && Character.isUpperCase(word.codePointAt(0))
                && (tag.equals("PROPN") || CODE.matcher(word).matches());
    }

    private static final java.util.regex.Pattern CODE = java.util.regex.Pattern.compile(
            "\\p{Lu}[\\p{L}\\d]*(-?\\d[\\p{L}\\d]*)+|\\p{Lu}[\\p{L}]*-\\p{Lu}[\\p{L}\\d]*");

    private static String type(String[] words, int start, int end) {
        for (int i = start; i < end; i++) {
            if (ORGANISATION_WORDS.contains(words[i].toLowerCase(Locale.ROOT).replace(".", ""))) {
                return "Organization";
            }
        }
        String first = words[start].toLowerCase(Locale.ROOT).replace(".", "");
        String before = start > 0 ? words[start - 1].toLowerCase(Locale.ROOT).replace(".", "") : "";
        if (PERSON_TITLES.contains(first) || PERSON_TITLES.contains(before)) {
            return "Person";
        }
        return "";
    }

    /**
     * The lemmas of a sentence's tokens, each worked out when first asked for, from the token and the one before it.
     * The lemmatizer's features are a token's own (its form, tag and affixes) and the class it gave the token before,
     * so two tokens give the lemma the whole sentence would: on 14,307 verbs of 1,000 SciFact abstracts, 7 differ
     * (reexamined: reexamin or reexamine), one token alone 420. Lemmatising the whole sentence for its one or two
     * predicate verbs was most of extraction's time (a beam search over every token).
     */
    private static final class Lemmas {
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
                String[] l = lemmatizer.lemmatize(java.util.Arrays.copyOfRange(words, from, i + 1),
                        java.util.Arrays.copyOfRange(tags, from, i + 1));
                known[i] = l[l.length - 1];
            }
            return known[i];
        }
    }

    /** The last verb's lemma between two entities, with the preposition after it; else {@code related_to}. */
    private static String predicate(String[] words, String[] tags, Lemmas lemmas, int from, int to) {
        for (int i = to - 1; i >= from; i--) {
            if (tags[i].equals("VERB")) {
                String lemma = lemmas.of(i);
                String verb = lemma.equals("O") ? words[i].toLowerCase(Locale.ROOT) : lemma.toLowerCase(Locale.ROOT);
                if (i + 1 < to && tags[i + 1].equals("ADP")) {
                    return verb + "_" + words[i + 1].toLowerCase(Locale.ROOT);
                }
                return verb;
            }
        }
        return "related_to";
    }
}
