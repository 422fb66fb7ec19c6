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
        int parts = Math.min(texts.size(), Runtime.getRuntime().availableProcessors());
        if (parts <= 1) {
            Tools tools = newTools();
            return texts.stream().map(t -> extract(t, tools)).toList();
        }
        Extraction[] out = new Extraction[texts.size()];
        List<java.util.concurrent.Future<?>> tasks = new java.util.ArrayList<>();
        for (int p = 0; p < parts; p++) {
            int part = p;
            tasks.add(pool.submit(() -> {
                Tools tools = newTools();
                for (int i = part; i < out.length; i += parts) {
                    out[i] = extract(texts.get(i), tools);
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

    private Extraction extract(String text, Tools tools) {
        List<Entity> entities = new ArrayList<>();
        List<Fact> facts = new ArrayList<>();
        for (String sentence : tools.sentences().sentDetect(text)) {
            String[] words = tools.tokens().tokenize(sentence);
            if (words.length == 0 || words.length > 400) {
                continue;
            }
            String[] tags = tools.tagger().tag(words);
            List<Span> found = spans(words, tags);
            for (Span s : found) {
                entities.add(Entity.of(s.name(), s.type()));
            }
            if (found.size() < 2) {
                continue;
            }
            String[] lemma = tools.lemmatizer().lemmatize(words, tags);
            String evidence = sentence.length() > MAX_EVIDENCE ? sentence.substring(0, MAX_EVIDENCE) + "…" : sentence;
            for (int i = 0; i + 1 < found.size(); i++) {
                Span a = found.get(i);
                Span b = found.get(i + 1);
                facts.add(new Fact(a.name(), a.type(), predicate(words, tags, lemma, a.end(), b.start()), b.name(),
                        b.type(), Map.of("extractor", "offline", "evidence", evidence)));
            }
        }
        return new Extraction(entities, facts, 0);
    }

    private record Span(int start, int end, String name, String type) {
    }

    /** Maximal runs of proper nouns, with connectors inside; [start, end) token offsets. */
    static List<Span> spans(String[] words, String[] tags) {
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
                if (isName(words[end], tags[end])) {
                    end++;
                } else if (end + 1 < words.length && CONNECTORS.contains(words[end].toLowerCase(Locale.ROOT))
                        && isName(words[end + 1], tags[end + 1])) {
                    end += 2;
                } else {
                    break;
                }
            }
            String name = String.join(" ", java.util.Arrays.copyOfRange(words, start, end));
            if (Entity.key(name).length() >= 2) {
                out.add(new Span(start, end, name, type(words, start, end)));
            }
            i = end;
        }
        return out;
    }

    private static boolean isName(String word, String tag) {
        return tag.equals("PROPN") && !word.isEmpty() && Character.isUpperCase(word.codePointAt(0));
    }

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

    /** The last verb's lemma between two entities, with the preposition after it; else {@code related_to}. */
    private static String predicate(String[] words, String[] tags, String[] lemma, int from, int to) {
        for (int i = to - 1; i >= from; i--) {
            if (tags[i].equals("VERB")) {
                String verb = lemma[i].equals("O") ? words[i].toLowerCase(Locale.ROOT) : lemma[i]
                        .toLowerCase(Locale.ROOT);
                if (i + 1 < to && tags[i + 1].equals("ADP")) {
                    return verb + "_" + words[i + 1].toLowerCase(Locale.ROOT);
                }
                return verb;
            }
        }
        return "related_to";
    }
}
