package io.polyrag.eval;

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
 * An invented, entity-rich retrieval dataset in BEIR's layout, generated deterministically from a seed: people,
 * organisations, products and places, one document each, and questions of two kinds.
 *
 * <ul>
 *   <li><b>Multi-hop</b> (two thirds): the answer lies in a document that never names the question's entity, only a
 *       relation stated in another document links them. "In which city is the company founded by Maren Ostrava
 *       headquartered?" is answered by the company's profile, which names its chief executive but never its
 *       founder; the founding is stated in her biography, often through a pronoun ("She founded it…", "In 1998 she
 *       set up Quillon Dynamics").</li>
 *   <li><b>Single-hop</b> (one third): the answer's document names the entity ("Where was Maren Ostrava born?"), so
 *       the text retrievers should find it and the graph must not get in their way.</li>
 * </ul>
 * What makes it hard for an entity extractor, on purpose: organisations introduced with an abbreviation and called
 * by it afterwards ("Quillon Dynamics (QD) … QD employs…"), people called by their surname, names with digits and
 * hyphens ("Tulfouth-93 Systems", "Bedruk 300"), sentences that open with a capitalised common word ("Born in
 * Varnholm, …"), and distractors: families sharing a surname, companies sharing the first word of their name,
 * products of one series, factories in another city than the headquarters.
 *
 * <p>Files: {@code corpus.jsonl}, {@code queries.jsonl}, {@code qrels-train.tsv} and {@code qrels-test.tsv} (every
 * second question, after a seeded shuffle: tune on train, report test). The same seed and scale give the same bytes.
 */
public final class EntityCorpus {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String[] SYLLABLES = {"ba", "dru", "kel", "mar", "os", "tra", "vel", "quil", "lon", "tul",
        "fou", "ned", "vik", "sor", "tan", "bel", "gar", "ris", "mon", "dal", "fen", "hal", "jor", "kas", "lin", "mer",
        "nor", "pel", "rud", "sal", "tor", "ul", "var", "wen", "yor", "zel", "ar", "bo", "ci", "de", "el", "fi", "go",
        "ha", "ir", "ka", "lu", "mo", "ni", "pa", "ro", "su", "te", "vo", "ze", "bran", "crel", "dor", "esk", "frim",
        "gul", "hest", "imb", "jat", "kro", "lesk", "mav", "nol", "orv", "prin", "quen", "rask", "stav", "trel", "ung"};
    private static final String[] GIVEN_F = {"a", "ia", "ena", "ine", "el"};
    private static final String[] GIVEN_M = {"o", "an", "is", "or", "ek"};
    private static final String[] SURNAME_END = {"ova", "sen", "ard", "ski", "well", "ez", "ini", "ström", "berg"};
    private static final String[] PLACE_END = {"holm", "vik", "ford", "bridge", "stad", "mouth", "ton", "burg"};
    private static final String[][] INDUSTRIES = {
        {"Dynamics", "industrial drones", "industrial drone"}, {"Foods", "packaged soups", "packaged soup"},
        {"Textiles", "technical fabrics", "technical fabric"}, {"Robotics", "warehouse robots", "warehouse robot"},
        {"Pharma", "generic medicines", "generic medicine"}, {"Optics", "camera lenses", "camera lens"},
        {"Energy", "solar inverters", "solar inverter"}, {"Marine", "outboard motors", "outboard motor"},
        {"Audio", "studio headphones", "studio headphone"}, {"Systems", "payment terminals", "payment terminal"}};
    private static final String[] PROFESSIONS = {"engineer", "chemist", "economist", "architect", "physicist",
        "designer", "lawyer", "biologist", "entrepreneur", "mathematician"};
    private static final String[] SUBJECTS = {"physics", "chemistry", "economics", "design", "law", "biology",
        "mathematics", "computer science"};
    private static final String[] FEATURES = {"its harbour", "a medieval bridge", "its salt marshes", "a glass museum",
        "its spring fair", "a cathedral", "its vineyards", "an old lighthouse", "its botanical garden"};
    private static final String[] SPECS = {"battery life", "weight", "top speed", "rated power", "warranty"};
    private static final String[] SPEC_UNITS = {"hours", "kilograms", "kilometres per hour", "watts", "years"};

    private final Random random;
    private final Set<String> used = new LinkedHashSet<>();

    private EntityCorpus(long seed) {
        this.random = new Random(seed);
    }

    record Person(String id, String given, String surname, boolean female, String born, int year, String profession) {
        String full() {
            return given + " " + surname;
        }
    }

    record Org(String id, String name, String abbreviation, String[] industry, String hq, int established, int staff) {
    }

    record Product(String id, String name, Org maker, String plant, int year, int spec, int value) {
    }

    record Place(String id, String name, String region, String river, int population, String feature) {
    }

    /** A question with its judged documents. */
    public record Question(String id, String text, boolean multiHop, List<String> relevant) {
    }

    /** What was written. */
    public record Summary(int documents, int questions, int multiHop, int train, int test) {
    }

    /**
     * Writes the dataset for {@code people} people (and about 5/8 as many organisations, 3/4 as many products, 3/16
     * as many places: 800 people give 2,050 documents and 600 questions).
     */
    public static Summary write(Path dir, long seed, int people) {
        return new EntityCorpus(seed).generate(dir, people);
    }

    // style: the generator's specification, template by template, kept in one place as it is documented
    private Summary generate(Path dir, int peopleCount) {
        if (peopleCount < 16 || peopleCount > MAX_PEOPLE) {
            throw new IllegalArgumentException("between 16 and " + MAX_PEOPLE + " people, was " + peopleCount);
        }
        List<Place> places = new ArrayList<>();
        String[] regions = new String[Math.max(4, peopleCount / 40)];
        for (int i = 0; i < regions.length; i++) {
            regions[i] = name(2, "");
        }
        String[] rivers = new String[Math.max(4, peopleCount / 40)];
        for (int i = 0; i < rivers.length; i++) {
            rivers[i] = name(2, "");
        }
        for (int i = 0; i < peopleCount * 3 / 16; i++) {
            places.add(new Place("place-" + i, name(2, pick(PLACE_END)), pick(regions), pick(rivers),
                    1000 * (5 + random.nextInt(900)), pick(FEATURES)));
        }
        String[] surnames = new String[peopleCount / 2];
        for (int i = 0; i < surnames.length; i++) {
            surnames[i] = name(2, pick(SURNAME_END));
        }
        List<Person> people = new ArrayList<>();
        for (int i = 0; i < peopleCount; i++) {
            boolean female = random.nextBoolean();
            String given = given(female);
            people.add(new Person("person-" + i, given, surnames[random.nextInt(surnames.length)], female,
                    places.get(random.nextInt(places.size())).name(), 1940 + random.nextInt(60), pick(PROFESSIONS)));
        }
        List<Org> orgs = new ArrayList<>();
        String previousStem = null;
        for (int i = 0; i < peopleCount * 5 / 8; i++) {
            // One company in eight shares its first word with the one before (Quillon Dynamics, Quillon Foods).
            String stem = previousStem != null && random.nextInt(8) == 0 ? previousStem
                    : random.nextInt(10) == 0 ? name(2, "") + "-" + (10 + random.nextInt(90)) : name(2, "");
            previousStem = stem;
            String[] industry = pick(INDUSTRIES);
            String orgName = stem + " " + industry[0];
            if (!used.add("org " + orgName)) {
                orgName = stem + " " + industry[0] + " Group";
            }
            String abbreviation = initials(orgName);
            orgs.add(new Org("org-" + i, orgName, abbreviation, industry, places.get(random.nextInt(places.size()))
                    .name(), 1950 + random.nextInt(70), 20 * (1 + random.nextInt(500))));
        }
        // Founders and chief executives: distinct people, so a company's profile never names its founder.
        List<Person> shuffled = new ArrayList<>(people);
        Collections.shuffle(shuffled, random);
        Map<Org, Person> founder = new LinkedHashMap<>();
        Map<Org, Person> ceo = new LinkedHashMap<>();
        for (int i = 0; i < orgs.size(); i++) {
            founder.put(orgs.get(i), shuffled.get(i));
            ceo.put(orgs.get(i), shuffled.get((i + orgs.size()) % shuffled.size()));
        }
        List<Product> products = new ArrayList<>();
        while (products.size() < peopleCount * 3 / 4) {
            Org maker = orgs.get(random.nextInt(orgs.size()));
            String series = name(2, "");
            int models = 1 + random.nextInt(3);
            for (int m = 0; m < models && products.size() < peopleCount * 3 / 4; m++) {
                String model = switch (random.nextInt(3)) {
                    case 0 -> String.valueOf(100 * (1 + random.nextInt(9)) + 10 * m);
                    case 1 -> "X" + (m + 2);
                    default -> "S-" + (10 * (m + 1) + random.nextInt(9));
                };
                String productName = series + " " + model;
                if (!used.add("product " + productName)) {
                    continue;
                }
                products.add(new Product("product-" + products.size(), productName, maker,
                        places.get(random.nextInt(places.size())).name(), maker.established() + 1 + random.nextInt(30),
                        random.nextInt(SPECS.length), 2 + random.nextInt(98)));
            }
        }
        Map<Org, List<Product>> byMaker = new LinkedHashMap<>();
        products.forEach(p -> byMaker.computeIfAbsent(p.maker(), o -> new ArrayList<>()).add(p));
        Map<Person, Org> foundedBy = new LinkedHashMap<>();
        founder.forEach((o, p) -> foundedBy.put(p, o));
        Map<Person, Org> ceoOf = new LinkedHashMap<>();
        ceo.forEach((o, p) -> ceoOf.putIfAbsent(p, o));

        List<BeirDataset.Doc> docs = new ArrayList<>();
        Map<String, String> placeDoc = new LinkedHashMap<>();
        for (Place pl : places) {
            docs.add(new BeirDataset.Doc(pl.id(), pl.name(), placeText(pl)));
            placeDoc.put(pl.name(), pl.id());
        }
        for (Person p : people) {
            docs.add(new BeirDataset.Doc(p.id(), p.full(), personText(p, foundedBy.get(p), ceoOf.get(p), places)));
        }
        for (Org o : orgs) {
            docs.add(new BeirDataset.Doc(o.id(), o.name(), orgText(o, ceo.get(o))));
        }
        for (Product p : products) {
            List<Product> series = products.stream().filter(q -> q != p && q.maker() == p.maker()
                    && q.name().split(" ")[0].equals(p.name().split(" ")[0])).toList();
            docs.add(new BeirDataset.Doc(p.id(), p.name(), productText(p, series)));
        }

        List<Question> questions = new ArrayList<>();
        int target = peopleCount * 3 / 4;
        List<Org> orgOrder = new ArrayList<>(orgs);
        Collections.shuffle(orgOrder, random);
        List<Product> productOrder = new ArrayList<>(products);
        Collections.shuffle(productOrder, random);
        int o = 0;
        int pr = 0;
        while (questions.size() < target) {
            int kind = questions.size() % 9;
            String id = "q" + questions.size();
            switch (kind) {
                case 0, 1 -> { // person -> founded org -> headquarters (answer: the org's profile)
                    Org org = orgOrder.get(o++ % orgOrder.size());
                    questions.add(new Question(id, pick(new String[] {
                        "In which city is the company founded by %s headquartered?",
                        "Where does the firm that %s set up have its headquarters?",
                        "%s founded a company. In which city is it based?"}).formatted(founder.get(org).full()), true,
                            List.of(org.id())));
                }
                case 2 -> { // person -> founded org -> what it makes (org profile and its products)
                    Org org = orgOrder.get(o++ % orgOrder.size());
                    List<String> rel = new ArrayList<>(List.of(org.id()));
                    byMaker.getOrDefault(org, List.of()).forEach(p -> rel.add(p.id()));
                    questions.add(new Question(id, pick(new String[] {
                        "What does the company founded by %s make?",
                        "What kind of products does the business %s started produce?"}).formatted(
                                founder.get(org).full()), true, rel));
                }
                case 3 -> { // product -> maker -> chief executive (org profile)
                    Product p = productOrder.get(pr++ % productOrder.size());
                    questions.add(new Question(id, pick(new String[] {
                        "Who is the chief executive of the company that makes the %s?",
                        "Who leads the manufacturer of the %s?"}).formatted(p.name()), true, List.of(p.maker().id())));
                }
                case 4 -> { // product -> maker -> established (org profile)
                    Product p = productOrder.get(pr++ % productOrder.size());
                    questions.add(new Question(id, pick(new String[] {
                        "When was the maker of the %s established?",
                        "In what year was the company producing the %s founded?"}).formatted(p.name()), true,
                            List.of(p.maker().id())));
                }
                case 5 -> { // person -> founded org -> its products (product documents)
                    Org org;
                    do {
                        org = orgOrder.get(o++ % orgOrder.size());
                    } while (!byMaker.containsKey(org));
                    questions.add(new Question(id, pick(new String[] {
                        "Which products are made by the company %s founded?",
                        "Name a product of the firm founded by %s."}).formatted(founder.get(org).full()), true,
                            byMaker.get(org).stream().map(Product::id).toList()));
                }
                case 6 -> { // single hop: who founded the org (the founder's biography names it)
                    Org org = orgOrder.get(o++ % orgOrder.size());
                    questions.add(new Question(id, pick(new String[] {"Who founded %s?",
                        "Who is the founder of %s?"}).formatted(org.name()), false,
                            List.of(founder.get(org).id())));
                }
                case 7 -> { // single hop: where a person was born
                    Person p = foundedBy.keySet().stream().skip(random.nextInt(foundedBy.size())).findFirst()
                            .orElseThrow();
                    questions.add(new Question(id, pick(new String[] {"Where was %s born?",
                        "What is the birthplace of %s?"}).formatted(p.full()), false, List.of(p.id())));
                }
                default -> { // single hop: a product's maker
                    Product p = productOrder.get(pr++ % productOrder.size());
                    questions.add(new Question(id, pick(new String[] {"Who makes the %s?",
                        "Which company produces the %s?"}).formatted(p.name()), false, List.of(p.id())));
                }
            }
        }
        List<Question> order = new ArrayList<>(questions);
        Collections.shuffle(order, random);
        Set<String> test = new LinkedHashSet<>();
        for (int i = 0; i < order.size(); i += 2) {
            test.add(order.get(i).id());
        }
        write(dir, docs, questions, test);
        int multiHop = (int) questions.stream().filter(Question::multiHop).count();
        return new Summary(docs.size(), questions.size(), multiHop, questions.size() - test.size(), test.size());
    }

    private String placeText(Place p) {
        String kind = pick(new String[] {"town", "city", "port town", "market town"});
        return String.join(" ", pick(new String[] {
            "%s is a %s in the %s region, on the %s River.".formatted(p.name(), kind, p.region(), p.river()),
            "On the banks of the %s River, %s is a %s in the %s region.".formatted(p.river(), p.name(), kind,
                    p.region())}),
            pick(new String[] {"It has a population of about %,d.".formatted(p.population()),
                "About %,d people live there.".formatted(p.population())}),
            "%s is known for %s.".formatted(p.name(), p.feature()),
            pick(new String[] {"Trains run from there to the coast twice an hour.",
                "The weekly market is held on the main square.", "Its old town was restored in the 1980s."}));
    }

    private String personText(Person p, Org founded, Org leads, List<Place> places) {
        String she = p.female() ? "She" : "He";
        String her = p.female() ? "Her" : "His";
        List<String> s = new ArrayList<>();
        s.add(pick(new String[] {
            "%s is %s from %s.".formatted(p.full(), article(p.profession()), p.born()),
            "%s (born %d) is %s born in %s.".formatted(p.full(), p.year(), article(p.profession()), p.born()),
            "Born in %s in %d, %s is %s.".formatted(p.born(), p.year(), p.full(), article(p.profession()))}));
        s.add("%s studied %s at the University of %s.".formatted(she, pick(SUBJECTS),
                places.get(random.nextInt(places.size())).name()));
        if (founded != null) {
            s.add(pick(new String[] {
                "%s founded %s in %d.".formatted(she, founded.name(), founded.established()),
                "In %d %s set up %s.".formatted(founded.established(), she.toLowerCase(Locale.ROOT), founded.name()),
                "%s started %s in %d.".formatted(p.surname(), founded.name(), founded.established()),
                "%s is best known as the founder of %s.".formatted(she, founded.name())}));
        }
        if (leads != null) {
            s.add("Since %d %s has been chief executive of %s.".formatted(Math.min(2024, leads.established() + 5
                    + random.nextInt(20)), she.toLowerCase(Locale.ROOT), leads.name()));
        }
        s.add(pick(new String[] {
            "%s lives in %s and collects old maps.".formatted(p.surname(), places.get(random.nextInt(places.size()))
                    .name()),
            "%s first book, on %s, appeared in %d.".formatted(her, pick(SUBJECTS), p.year() + 30),
            "%s enjoys sailing and chess.".formatted(p.surname())}));
        return String.join(" ", s);
    }

    private String orgText(Org o, Person ceo) {
        return String.join(" ", pick(new String[] {
            "%s (%s) is a maker of %s headquartered in %s.".formatted(o.name(), o.abbreviation(), o.industry()[1],
                    o.hq()),
            "Headquartered in %s, %s (%s) makes %s.".formatted(o.hq(), o.name(), o.abbreviation(), o.industry()[1]),
            "%s (%s) is based in %s, where it designs and makes %s.".formatted(o.name(), o.abbreviation(), o.hq(),
                    o.industry()[1])}),
            pick(new String[] {
                "%s was established in %d and employs about %,d people.".formatted(o.abbreviation(), o.established(),
                        o.staff()),
                "The company was established in %d; it employs about %,d people.".formatted(o.established(),
                        o.staff())}),
            pick(new String[] {"Its chief executive is %s.".formatted(ceo.full()),
                "%s has led %s for several years.".formatted(ceo.full(), o.abbreviation())}),
            "%s exports to %d countries.".formatted(o.abbreviation(), 3 + random.nextInt(60)));
    }

    private String productText(Product p, List<Product> series) {
        List<String> s = new ArrayList<>();
        s.add(pick(new String[] {"The %s is %s first sold in %d.".formatted(p.name(), article(p.maker().industry()[2]),
                p.year()), "%s is %s introduced in %d.".formatted(p.name(), article(p.maker().industry()[2]),
                        p.year())}));
        s.add(pick(new String[] {"It is produced by %s.".formatted(p.maker().name()),
            "%s manufactures it at a plant in %s.".formatted(p.maker().name(), p.plant()),
            "It is made by %s in %s.".formatted(p.maker().name(), p.plant())}));
        s.add("Its %s is %d %s.".formatted(SPECS[p.spec()], p.value(), SPEC_UNITS[p.spec()]));
        if (!series.isEmpty()) {
            s.add("A related model, the %s, shares its frame.".formatted(series.get(0).name()));
        }
        return String.join(" ", s);
    }

    /** A new pronounceable capitalised name of {@code syllables} syllables and an ending, never returned before. */
    private String name(int syllables, String ending) {
        for (int attempt = 0; ; attempt++) {
            if (attempt > 100_000) {
                throw new IllegalStateException("ran out of new names of " + syllables + " syllables");
            }
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < syllables; i++) {
                b.append(SYLLABLES[random.nextInt(SYLLABLES.length)]);
            }
            b.append(ending);
            String n = Character.toUpperCase(b.charAt(0)) + b.substring(1);
            if (n.length() >= 4 && used.add(n.toLowerCase(Locale.ROOT))) {
                return n;
            }
        }
    }

    /** A given name: two syllables and an ending; people may share one. */
    private String given(boolean female) {
        String n = SYLLABLES[random.nextInt(SYLLABLES.length)] + SYLLABLES[random.nextInt(SYLLABLES.length)]
                + (female ? pick(GIVEN_F) : pick(GIVEN_M));
        return Character.toUpperCase(n.charAt(0)) + n.substring(1);
    }

    private static String article(String noun) {
        return ("aeiou".indexOf(noun.charAt(0)) >= 0 ? "an " : "a ") + noun;
    }

    private static String initials(String name) {
        StringBuilder b = new StringBuilder();
        for (String w : name.split("[ -]")) {
            if (!w.isEmpty() && Character.isLetter(w.charAt(0))) {
                b.append(Character.toUpperCase(w.charAt(0)));
            }
        }
        return b.toString();
    }

    private <T> T pick(T[] options) {
        return options[random.nextInt(options.length)];
    }

    private static void write(Path dir, List<BeirDataset.Doc> docs, List<Question> questions, Set<String> test) {
        try {
            Files.createDirectories(dir);
            StringBuilder corpus = new StringBuilder();
            for (BeirDataset.Doc d : docs) {
                corpus.append(JSON.writeValueAsString(Map.of("_id", d.id(), "title", d.title(), "text", d.text())))
                        .append('\n');
            }
            StringBuilder queries = new StringBuilder();
            StringBuilder train = new StringBuilder("query-id\tcorpus-id\tscore\n");
            StringBuilder testQrels = new StringBuilder("query-id\tcorpus-id\tscore\n");
            for (Question q : questions) {
                queries.append(JSON.writeValueAsString(Map.of("_id", q.id(), "text", q.text(), "metadata",
                        Map.of("kind", q.multiHop() ? "multi-hop" : "single-hop")))).append('\n');
                for (String r : q.relevant()) {
                    (test.contains(q.id()) ? testQrels : train).append(q.id()).append('\t').append(r).append("\t1\n");
                }
            }
            Files.writeString(dir.resolve("corpus.jsonl"), corpus, StandardCharsets.UTF_8);
            Files.writeString(dir.resolve("queries.jsonl"), queries, StandardCharsets.UTF_8);
            Files.writeString(dir.resolve("qrels-train.tsv"), train, StandardCharsets.UTF_8);
            Files.writeString(dir.resolve("qrels-test.tsv"), testQrels, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the dataset to " + dir, e);
        }
    }

    /** The syllables give about 5,600 two-syllable company names: this many people keep them comfortably apart. */
    static final int MAX_PEOPLE = 4000;
    private static final String USAGE = "usage: eval/entities DIR [--seed N] [--people N]\n"
            + "  writes corpus.jsonl, queries.jsonl, qrels-train.tsv and qrels-test.tsv into DIR;\n"
            + "  --seed (default 19) picks the world, --people (default 800, 16 to " + MAX_PEOPLE + ") its size:\n"
            + "  800 people give 2,050 documents and 600 questions";

    /** {@code EntityCorpus DIR [--seed N] [--people N]}; exit 2 with the usage on a wrong argument. */
    public static void main(String[] args) {
        Path dir = null;
        long seed = 19;
        int people = 800;
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "-h", "--help" -> {
                        System.out.println(USAGE);
                        return;
                    }
                    case "--seed" -> seed = Long.parseLong(value(args, ++i, "--seed"));
                    case "--people" -> people = Integer.parseInt(value(args, ++i, "--people"));
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
            if (people < 16 || people > MAX_PEOPLE) {
                throw new IllegalArgumentException("--people must be between 16 and " + MAX_PEOPLE + ", was "
                        + people);
            }
        } catch (NumberFormatException e) {
            System.err.println("eval/entities: --seed and --people take a whole number (" + e.getMessage() + ")\n"
                    + USAGE);
            System.exit(2);
            return;
        } catch (IllegalArgumentException e) {
            System.err.println("eval/entities: " + e.getMessage() + "\n" + USAGE);
            System.exit(2);
            return;
        }
        try {
            Summary s = write(dir, seed, people);
            System.out.printf(Locale.ROOT, "wrote %s: %d documents, %d questions (%d multi-hop), %d train / %d test%n",
                    dir, s.documents(), s.questions(), s.multiHop(), s.train(), s.test());
        } catch (UncheckedIOException e) {
            System.err.println("eval/entities: " + e.getMessage() + ": " + e.getCause().getMessage());
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
