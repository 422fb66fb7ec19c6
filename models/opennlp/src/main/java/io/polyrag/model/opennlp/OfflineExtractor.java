package io.polyrag.model.opennlp;

import io.polyrag.core.model.Extraction;
import io.polyrag.core.model.Fact;
import io.polyrag.core.model.Vocabulary;
import io.polyrag.core.port.EntityExtractor;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Pattern;
import opennlp.tools.lemmatizer.LemmatizerME;
import opennlp.tools.lemmatizer.LemmatizerModel;
import opennlp.tools.ml.model.MaxentModel;
import opennlp.tools.postag.POSModel;
import opennlp.tools.postag.POSTaggerME;
import opennlp.tools.sentdetect.SentenceDetectorME;
import opennlp.tools.sentdetect.SentenceModel;
import opennlp.tools.tokenize.TokenizerME;
import opennlp.tools.tokenize.TokenizerModel;
import opennlp.tools.util.Span;

/**
 * Entities and relations with no language model, from Apache OpenNLP's English Universal Dependencies models
 * (sentences, tokens, part-of-speech tags, lemmas; all from Maven Central, loaded from the class path). No NER model is
 * published on Maven Central, so names come from part of speech and types from evidence:
 *
 * <ul>
 *   <li><b>What is read</b>: the chunk's prose ({@link Prose}: no code, tables, headings, URLs). Names are runs of
 *       proper nouns ({@link Names}); numerals, era marks, months, code-like tokens and a one-word name that only
 *       ever opens a sentence are not.</li>
 *   <li><b>Types</b> ({@link Vocabulary#TYPES}) by votes: the name's own words ("… Instruments", "Port …", a model
 *       number), a title before it, a type noun said of it ("X is a port town", "X, a painter", "the Kestrel-9
 *       seismometer"), the roles it plays ("born in X" — a place; "X founded …" — a person), and the pronouns that
 *       stand for it.</li>
 *   <li><b>Coreference</b> inside the chunk: a pronoun ("she", "its", "they") or a definite description ("the
 *       company", "the yard", "the seismometer" when a name was so described) stands for the latest mention it can
 *       stand for; with none, for the document's subject ({@link Fact#DOCUMENT_SUBJECT}, which the ingest resolves
 *       to the entity its title names).</li>
 *   <li><b>Relations</b> between neighbouring mentions of a sentence, named by {@link Clauses} in the graph's
 *       {@link Vocabulary} ({@code founded}, {@code makes}, {@code located_in}, … or a verb's lemma), a passive read
 *       actively, {@code related_to} only for close names with no verb; "X makes A and B" relates X to both. The
 *       sentence is kept as evidence.</li>
 * </ul>
 * Linear in the text's length (see {@link Prose}), thousands of sentences a second. The models are immutable and
 * shared; the taggers, which are not thread-safe, are made per task.
 */
final class OfflineExtractor implements EntityExtractor {
    static final int MAX_EVIDENCE = 300;
    /** Longest sentence tagged; a longer one (a table flattened into a line, a log) names nothing usefully. */
    static final int MAX_SENTENCE = 2000;

    private final SentenceModel sentences;
    private final TokenizerModel tokens;
    private final POSModel pos;
    private final LemmatizerModel lemmas;
    private final Memo memo = new Memo();
    private final ExecutorService pool = Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors(),
            Thread.ofPlatform().daemon().name("polyrag-extract-", 0).factory());

    OfflineExtractor() {
        this.sentences = load("opennlp-en-ud-ewt-sentence-1.3-2.5.4.bin", SentenceModel::new);
        this.tokens = load("opennlp-en-ud-ewt-tokens-1.3-2.5.4.bin", TokenizerModel::new);
        this.pos = greedy(load("opennlp-en-ud-ewt-pos-1.3-2.5.4.bin", POSModel::new));
        this.lemmas = load("opennlp-en-ud-ewt-lemmas-1.3-2.5.4.bin", LemmatizerModel::new);
    }

    /**
     * The same tagger deciding each word's tag in turn (a beam of one) instead of keeping the three best sequences:
     * tagging was the largest part of extraction (28% of an ingest's Java samples with the graph arms on), and only
     * the capitalised words' tags and the verbs between them are read, which the best tag of each word already gives.
     */
    static POSModel greedy(POSModel model) {
        MaxentModel maxent = model.getArtifact("pos.model");
        if (maxent == null) {
            return model;
        }
        return new POSModel(model.getLanguage(), maxent, 1, Map.of(), model.getFactory());
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
        return "offline:opennlp-ud-pos:2";
    }

    @Override
    public List<Extraction> extract(List<String> texts, long tokenBudget) {
        return extract(texts, tokenBudget, TimeLimits.none());
    }

    /**
     * Texts are split over one task per core, each with its own taggers. Each text gets at most
     * {@code limits.perText()}, checked between sentences; a text that runs over, or is not reached before the call's
     * deadline, gets {@link Extraction#TIME_STOPPED}.
     */
    @Override
    public List<Extraction> extract(List<String> texts, long tokenBudget, TimeLimits limits) {
        int parts = Math.min(texts.size(), Runtime.getRuntime().availableProcessors());
        if (parts <= 1) {
            Tools tools = newTools();
            return texts.stream().map(t -> extract(t, tools, limits)).toList();
        }
        Extraction[] out = new Extraction[texts.size()];
        List<Future<?>> tasks = new ArrayList<>();
        for (int p = 0; p < parts; p++) {
            int part = p;
            if (pool.isShutdown()) {
                throw new IllegalStateException("entity extraction stopped: the extractor was closed");
            }
            tasks.add(pool.submit(() -> {
                Tools tools = newTools();
                for (int i = part; i < out.length; i += parts) {
                    out[i] = extract(texts.get(i), tools, limits);
                }
            }));
        }
        for (Future<?> t : tasks) {
            try {
                t.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while extracting entities", e);
            } catch (ExecutionException e) {
                throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
            } catch (CancellationException e) {
                throw new IllegalStateException("entity extraction stopped: the extractor was closed", e);
            }
        }
        return List.of(out);
    }

    /**
     * Stops the pool; tasks it had not started are canceled, so a caller waiting on them fails at once (dropped
     * uncanceled, they left an extraction still running at shutdown waiting for ever).
     */
    @Override
    public void close() {
        for (Runnable r : pool.shutdownNow()) {
            if (r instanceof Future<?> f) {
                f.cancel(false);
            }
        }
    }

    record Tools(SentenceDetectorME sentences, TokenizerME tokens, POSTaggerME tagger,
            LemmatizerME lemmatizer, Memo memo) {
    }

    Tools newTools() {
        return new Tools(new SentenceDetectorME(sentences), new TokenizerME(tokens), new POSTaggerME(pos),
                new LemmatizerME(lemmas), memo);
    }

    /** One tagged sentence. */
    record Tagged(String text, String[] words, String[] tags, boolean[] glued, boolean[] opens) {
    }

    private Extraction extract(String raw, Tools tools, TimeLimits limits) {
        long budget = limits.perText().toNanos();
        if (limits.deadlineNanos() != Long.MAX_VALUE) {
            budget = Math.min(budget, limits.deadlineNanos() - System.nanoTime());
        }
        if (budget <= 0) {
            return Extraction.TIME_STOPPED;
        }
        long deadline = System.nanoTime() + budget;
        String text = Prose.of(raw);
        Set<String> inside = capitalisedInside(text);
        List<Tagged> tagged = new ArrayList<>();
        for (String sentence : tools.sentences().sentDetect(text)) {
            if (System.nanoTime() - deadline > 0) {
                return Extraction.TIME_STOPPED;
            }
            if (sentence.length() <= MAX_SENTENCE && (mayName(sentence, inside) || ChunkReading.refers(sentence))) {
                tagged.add(tag(sentence, tools));
            }
        }
        ChunkReading reading = new ChunkReading(new Lemmatizer(tools.lemmatizer(), tools.memo()));
        reading.noteNamesInside(tagged);
        for (Tagged t : tagged) {
            if (System.nanoTime() - deadline > 0) {
                return Extraction.TIME_STOPPED;
            }
            reading.read(t);
        }
        return reading.extraction();
    }

    /**
     * What may stand before a sentence's first word: a list marker, an item's number or letter, a bracket. Not a
     * quote: a quoted title opening a sentence ("\"Racing Sails off Burmere\" (1829) is…") is a name.
     */
    private static final Pattern LEAD_MARK = Pattern.compile("[*+•·‣▪◦–—(\\[.)]|\\d{1,3}[.)]?|[a-zA-Z][.)]"
            + "|[ivxIVX]{1,4}[.)]");

    private static Tagged tag(String sentence, Tools tools) {
        Span[] at = splitPossessives(tools.memo().tokenize(tools.tokens(), sentence), sentence);
        String[] words = Span.spansToStrings(at, sentence);
        String[] tags = words.length == 0 ? new String[0] : tools.tagger().tag(words);
        boolean[] glued = new boolean[words.length];
        boolean[] opens = new boolean[words.length];
        for (int i = 0; i < words.length; i++) {
            glued[i] = i > 0 && at[i].getStart() == at[i - 1].getEnd();
            // A list's lines open like sentences: "Gentle heating…" on a line of its own capitalises "Gentle".
            // So does a word after a list marker, a number's or letter's item mark or an opening bracket at the
            // start ("* Sediment cores…", "2. Pressure readings…", "(Sediment…"): they made "Sediment" a name.
            opens[i] = i == 0 || words[i - 1].equals("|") || words[i - 1].equals(":") || words[i - 1].equals("-")
                    && !glued[i] || sentence.substring(at[i - 1].getEnd(), at[i].getStart()).indexOf('\n') >= 0
                    || opens[i - 1] && LEAD_MARK.matcher(words[i - 1]).matches();
        }
        return new Tagged(sentence, words, tags, glued, opens);
    }

    /**
     * Tokens with a possessive "'s" of their own: the tokenizer leaves "brigantine's" whole for a word it does not
     * know, and "The brigantine's home port was …" then hides its possessive.
     */
    private static Span[] splitPossessives(Span[] spans, String sentence) {
        List<Span> out = new ArrayList<>(spans.length + 2);
        for (Span sp : spans) {
            String w = sp.getCoveredText(sentence).toString();
            if (w.length() > 2 && (w.endsWith("'s") || w.endsWith("’s"))) {
                out.add(new Span(sp.getStart(), sp.getEnd() - 2));
                out.add(new Span(sp.getEnd() - 2, sp.getEnd()));
            } else {
                out.add(sp);
            }
        }
        return out.toArray(Span[]::new);
    }

    /** The lemmatizer of one task, for {@link Lemmas}. */
    record Lemmatizer(LemmatizerME me, Memo memo) {
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
                && (Names.looksLikeName(first) || capitalisedInside.contains(first));
    }

    /** The words the text writes capitalised after a space, trailing punctuation taken off: one pass. */
    static Set<String> capitalisedInside(String text) {
        Set<String> out = new HashSet<>();
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
}
