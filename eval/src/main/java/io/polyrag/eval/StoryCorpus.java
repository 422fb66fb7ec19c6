package io.polyrag.eval;

import io.polyrag.eval.StoryQuestions.Draft;
import io.polyrag.eval.StoryWorld.Pair;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import tools.jackson.databind.json.JsonMapper;

/**
 * A second multi-hop dataset, an invented maritime and museum history (docs/story-corpus.md is its contract), written
 * independently of {@link EntityCorpus} so that the graph arms are measured on questions nobody shaped them for.
 *
 * <p>Deterministic: one seed and size give the same bytes, since every choice comes from one seeded {@link Random} and
 * every collection that is iterated keeps its insertion order. Every name is made up from syllables
 * ({@link StoryNames}), so no model knows any of it.
 *
 * <p>Files, in BEIR's layout: {@code corpus.jsonl}, {@code queries.jsonl} (each query with
 * {@code "metadata": {"kind": "two-hop" | "one-hop" | "plain"}}), {@code qrels-train.tsv} and {@code qrels-test.tsv}:
 * after a seeded shuffle every second query goes to test. Tune on train, report test.
 */
public final class StoryCorpus {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** Below this the world has too few museums and ports for every two-hop form to be asked. */
    static final int MIN_CAPTAINS = 40;
    /** The made-up words and the quadratic look-ups stay comfortable up to here. */
    static final int MAX_CAPTAINS = 6000;

    private StoryCorpus() {
    }

    public record Summary(int documents, int queries, int twoHop, int oneHop, int plain, int train, int test) {
    }

    /**
     * One query; {@code entity} is the name the question asks about (empty for a plain question), {@code bridge} the
     * entity one relation away that a two-hop question's relevant document names, {@code form} which question it is
     * (e.g. {@code founder-of-builder}). These three are not written out: they are for checking the dataset.
     */
    record Question(String id, String text, String kind, String form, String entity, String bridge,
            List<String> relevant) {
    }

    /** An entity's name, the made-up word that sets it apart, and the id of its deliberate distractor ("" if none). */
    record Name(String id, String name, String key, String twin) {
    }

    /** Everything written out, plus what the files leave implicit. */
    record Story(List<BeirDataset.Doc> documents, List<Question> questions, Set<String> test, List<Name> names) {
    }

    /** Writes the dataset for {@code captains} captains (600 is the specification's size) into {@code dir}. */
    public static Summary write(Path dir, long seed, int captains) {
        Story story = generate(seed, captains);
        write(dir, story);
        int test = story.test().size();
        return new Summary(story.documents().size(), story.questions().size(), count(story, StoryQuestions.TWO_HOP),
                count(story, StoryQuestions.ONE_HOP), count(story, StoryQuestions.PLAIN),
                story.questions().size() - test, test);
    }

    private static int count(Story story, String kind) {
        return (int) story.questions().stream().filter(q -> q.kind().equals(kind)).count();
    }

    static Story generate(long seed, int captains) {
        if (captains < MIN_CAPTAINS || captains > MAX_CAPTAINS) {
            throw new IllegalArgumentException("--captains must be between " + MIN_CAPTAINS + " and " + MAX_CAPTAINS
                    + ", was " + captains);
        }
        Random random = new Random(seed);
        StoryWorld world = StoryWorld.build(random, captains);
        List<BeirDataset.Doc> docs = StoryProse.write(world, random);
        // shuffled so that the kinds and forms are interleaved in queries.jsonl rather than in blocks
        int count = (int) Math.round(captains * 0.75);
        List<Draft> drafts = new ArrayList<>(StoryQuestions.ask(world, docs, random, count));
        Collections.shuffle(drafts, random);
        List<Question> questions = new ArrayList<>();
        for (Draft d : drafts) {
            questions.add(new Question(String.format(Locale.ROOT, "q-%04d", questions.size() + 1), d.text(), d.kind(),
                    d.form(), d.entity(), d.bridge(), d.relevant()));
        }
        List<Question> order = new ArrayList<>(questions);
        Collections.shuffle(order, random);
        Set<String> test = new LinkedHashSet<>();
        for (int i = 1; i < order.size(); i += 2) {
            test.add(order.get(i).id());
        }
        return new Story(List.copyOf(docs), List.copyOf(questions), Collections.unmodifiableSet(test), names(world));
    }

    private static List<Name> names(StoryWorld world) {
        Map<String, String> twins = new LinkedHashMap<>();
        for (Pair p : world.pairs()) {
            twins.put(p.first(), p.second());
            twins.put(p.second(), p.first());
        }
        List<Name> names = new ArrayList<>();
        world.ports().forEach(p -> names.add(name(p.id(), p.name(), p.key(), twins)));
        world.people().forEach(p -> names.add(name(p.id(), p.name(), p.surname(), twins)));
        world.ships().forEach(s -> names.add(name(s.id(), s.name(), s.key(), twins)));
        world.yards().forEach(y -> names.add(name(y.id(), y.name(), y.key(), twins)));
        world.museums().forEach(m -> names.add(name(m.id(), m.name(), m.key(), twins)));
        world.paintings().forEach(p -> names.add(name(p.id(), p.title(), p.key(), twins)));
        world.voyages().forEach(v -> names.add(name(v.id(), v.name(), v.key(), twins)));
        return List.copyOf(names);
    }

    private static Name name(String id, String name, String key, Map<String, String> twins) {
        return new Name(id, name, key, twins.getOrDefault(id, ""));
    }

    /** JSON objects are built as ordered maps: the field order, and so the bytes, must not vary between runs. */
    private static void write(Path dir, Story story) {
        StringBuilder corpus = new StringBuilder();
        for (BeirDataset.Doc d : story.documents()) {
            Map<String, Object> line = new LinkedHashMap<>();
            line.put("_id", d.id());
            line.put("title", d.title());
            line.put("text", d.text());
            corpus.append(JSON.writeValueAsString(line)).append('\n');
        }
        StringBuilder queries = new StringBuilder();
        StringBuilder train = new StringBuilder("query-id\tcorpus-id\tscore\n");
        StringBuilder test = new StringBuilder("query-id\tcorpus-id\tscore\n");
        for (Question q : story.questions()) {
            Map<String, Object> line = new LinkedHashMap<>();
            line.put("_id", q.id());
            line.put("text", q.text());
            line.put("metadata", Map.of("kind", q.kind()));
            queries.append(JSON.writeValueAsString(line)).append('\n');
            for (String r : q.relevant()) {
                (story.test().contains(q.id()) ? test : train).append(q.id()).append('\t').append(r).append("\t1\n");
            }
        }
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("corpus.jsonl"), corpus, StandardCharsets.UTF_8);
            Files.writeString(dir.resolve("queries.jsonl"), queries, StandardCharsets.UTF_8);
            Files.writeString(dir.resolve("qrels-train.tsv"), train, StandardCharsets.UTF_8);
            Files.writeString(dir.resolve("qrels-test.tsv"), test, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the dataset to " + dir, e);
        }
    }

    private static final String USAGE = "usage: eval/stories DIR [--seed N] [--captains N]\n"
            + "  writes corpus.jsonl, queries.jsonl, qrels-train.tsv and qrels-test.tsv into DIR;\n"
            + "  --seed (default 7) picks the world, --captains (default 600, " + MIN_CAPTAINS + " to " + MAX_CAPTAINS
            + ") its size: 600 captains give 450 questions (half two-hop)";

    /** {@code StoryCorpus DIR [--seed N] [--captains N]}; exit 2 with the usage on a wrong argument. */
    public static void main(String[] args) {
        Path dir = null;
        long seed = 7;
        int captains = 600;
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "-h", "--help" -> {
                        System.out.println(USAGE);
                        return;
                    }
                    case "--seed" -> seed = Long.parseLong(value(args, ++i, "--seed"));
                    case "--captains" -> captains = Integer.parseInt(value(args, ++i, "--captains"));
                    default -> {
                        if (args[i].startsWith("-") || dir != null) {
                            throw new IllegalArgumentException("unexpected argument '" + args[i] + "'");
                        }
                        dir = Path.of(args[i]);
                    }
                }
            }
            if (dir == null) {
                throw new IllegalArgumentException("give the folder to write the dataset to");
            }
            if (captains < MIN_CAPTAINS || captains > MAX_CAPTAINS) {
                throw new IllegalArgumentException("--captains must be between " + MIN_CAPTAINS + " and "
                        + MAX_CAPTAINS + ", was " + captains);
            }
        } catch (NumberFormatException e) {
            System.err.println("eval/stories: --seed and --captains take a whole number (" + e.getMessage() + ")\n"
                    + USAGE);
            System.exit(2);
            return;
        } catch (IllegalArgumentException e) {
            System.err.println("eval/stories: " + e.getMessage() + "\n" + USAGE);
            System.exit(2);
            return;
        }
        try {
            Summary s = write(dir, seed, captains);
            System.out.printf(Locale.ROOT, "wrote %s: %,d documents, %d queries (%d two-hop, %d one-hop, %d plain), "
                    + "%d train / %d test%n", dir, s.documents(), s.queries(), s.twoHop(), s.oneHop(), s.plain(),
                    s.train(), s.test());
        } catch (UncheckedIOException e) {
            System.err.println("eval/stories: " + e.getMessage() + ": " + e.getCause().getMessage());
            System.exit(1);
        }
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }
}
