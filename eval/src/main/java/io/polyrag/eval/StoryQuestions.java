package io.polyrag.eval;

import io.polyrag.eval.StoryWorld.Birth;
import io.polyrag.eval.StoryWorld.Build;
import io.polyrag.eval.StoryWorld.Command;
import io.polyrag.eval.StoryWorld.Depiction;
import io.polyrag.eval.StoryWorld.Holding;
import io.polyrag.eval.StoryWorld.Museum;
import io.polyrag.eval.StoryWorld.Org;
import io.polyrag.eval.StoryWorld.Painting;
import io.polyrag.eval.StoryWorld.Person;
import io.polyrag.eval.StoryWorld.Port;
import io.polyrag.eval.StoryWorld.Role;
import io.polyrag.eval.StoryWorld.Ship;
import io.polyrag.eval.StoryWorld.Voyage;
import io.polyrag.eval.StoryWorld.Yard;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;

/**
 * The questions of {@link StoryCorpus}: half two-hop, three tenths one-hop, a fifth plain, and a fifth of all of them
 * typed in lower case. Their templates paraphrase the documents' ("launched at" for "built by", "captained" for
 * "commanded") rather than repeat them.
 *
 * <p>A two-hop question names an entity that its relevant document never names: the document names a bridge entity,
 * and states the asked fact about it or about something it names, while one relation stated elsewhere ties the bridge
 * to the named entity. Candidates whose relevant document contains the name, or lacks the bridge, are dropped, and
 * a question is only asked where the answer is unique (a captain with one ship, a museum with one painting, a port
 * with one native captain). A one-hop question's relevant document names the entity and states the fact. A plain
 * question names nothing and has 1 to 5 relevant documents.
 */
final class StoryQuestions {
    static final String TWO_HOP = "two-hop";
    static final String ONE_HOP = "one-hop";
    static final String PLAIN = "plain";

    /**
     * A question before it has an id; {@code entity} is the name it asks about (empty for a plain question),
     * {@code bridge} the entity one relation away from it that the relevant document names (two-hop only, else empty).
     */
    record Draft(String text, String kind, String form, String entity, String bridge, List<String> relevant) {
        Draft lowerCase() {
            return new Draft(text.toLowerCase(Locale.ROOT), kind, form, entity, bridge, relevant);
        }
    }

    // %1$s is the named entity, %2$s its possessive
    private static final List<String> FOUNDER_OF_BUILDER = List.of("Who founded the yard that built the %1$s?",
            "Who set up the shipyard where the %1$s was launched?",
            "Who was the founder of the yard the %1$s came from?",
            "Name the person who founded the shipyard that launched the %1$s.");
    private static final List<String> PORT_OF_BUILDER = List.of("In which port is the yard that built the %1$s?",
            "Where did the shipyard that launched the %1$s stand?", "The %1$s came from a yard in which town?",
            "Which port was home to the yard where the %1$s was built?");
    private static final List<String> MUSEUM_OF_SHIP_PAINTING = List.of(
            "Which museum holds a painting of the ship %1$s commanded?",
            "Where can one see a picture of the vessel %1$s captained?",
            "A painting of %2$s ship hangs in which museum?",
            "Which gallery has a picture of the ship under %2$s command?");
    private static final List<String> PAINTER_OF_FOUNDED_MUSEUM = List.of(
            "Who painted the picture held by the museum that %1$s founded?",
            "Which artist made the painting in the museum %1$s founded?",
            "Who is the painter of the work kept in the museum %1$s set up?",
            "The museum founded by %1$s holds a painting by whom?");
    private static final List<String> SHIP_OF_NATIVE_CAPTAIN = List.of(
            "Which ship did the captain born in %1$s command?",
            "The sea captain who was born at %1$s commanded which vessel?",
            "What vessel was under the command of the captain from %1$s?",
            "Name the ship captained by the master mariner born in %1$s.");
    private static final List<String> LAUNCH_YEAR_OF_COMMAND = List.of(
            "In what year was the ship commanded by %1$s built?", "When was %2$s ship launched?",
            "What year was the vessel %1$s captained completed?",
            "In which year was the ship under %2$s command built?");
    private static final List<String> WRIGHT_OF_BUILDER = List.of(
            "Who was master shipwright at the yard that built the %1$s?",
            "Which shipwright ran the yard where the %1$s was launched?",
            "Name the master shipwright of the shipyard the %1$s came from.",
            "Who led the shipwrights at the yard that produced the %1$s?");

    private static final List<String> BUILDER = List.of("Which yard built the %1$s?",
            "What shipyard did the %1$s come from?", "Where was the %1$s launched?");
    private static final List<String> MASTER = List.of("Who commanded the %1$s?", "Who was master of the %1$s?",
            "Which captain sailed the %1$s?");
    private static final List<String> BIRTHPLACE = List.of("In what port was %1$s born?",
            "%1$s was born in which town?", "Which harbour town is %1$s from?");
    private static final List<String> FOUNDER = List.of("Who founded %1$s?", "Who was behind the founding of %1$s?",
            "Whose money started %1$s?");
    private static final List<String> HOLDER = List.of("Which museum holds \"%1$s\"?", "Where does \"%1$s\" hang?",
            "In which collection is \"%1$s\"?");
    private static final List<String> PAINTER = List.of("Who painted \"%1$s\"?", "Which artist made \"%1$s\"?",
            "By whom was \"%1$s\" painted?");
    private static final List<String> PROVINCE = List.of("Which province is %1$s in?",
            "In what province does %1$s lie?", "%1$s belongs to which province?");
    private static final List<String> VOYAGE_SHIP = List.of("Which ship made the %1$s?",
            "What vessel sailed on the %1$s?", "The %1$s was made by which ship?");
    private static final List<String> YARD_PORT = List.of("In which port did %1$s stand?", "Where was %1$s?",
            "Which town was %1$s in?");
    private static final List<String> MUSEUM_PORT = List.of("In which port is %1$s?", "Where is %1$s?",
            "Which town is %1$s in?");
    private static final List<String> SHIPWRIGHT = List.of("Who was master shipwright at %1$s?",
            "Who ran the slips at %1$s as master shipwright?", "Which shipwright led %1$s?");

    private static final List<String> VOYAGES_PLAIN = List.of("Which voyages carried %1$s and %2$s?",
            "voyages with a cargo of %1$s that %2$s", "Find the voyages that carried %1$s and %2$s.");
    private static final List<String> PAINTINGS_PLAIN = List.of("Which %1$s show %2$s?", "%1$s of %2$s",
            "List the %1$s that depict %2$s.");
    private static final List<String> SHIPS_PLAIN = List.of("Which %1$s had %2$s for a figurehead?",
            "%1$s with a figurehead of %2$s", "Name the %1$s that carried a carved %3$s at the bow.");
    private static final List<String> VOYAGES_REFINED = List.of("Which voyages of the %3$s carried %1$s and %2$s?",
            "voyages in the %3$s with a cargo of %1$s that %2$s");
    private static final List<String> PAINTINGS_REFINED = List.of("Which %1$s from the %3$s show %2$s?",
            "%1$s of %2$s made in the %3$s");
    private static final List<String> SHIPS_REFINED = List.of("Which %1$s %4$s had %2$s for a figurehead?",
            "%1$s %4$s with a figurehead of %2$s");
    private static final List<String> PORTS_PLAIN = List.of("Which %1$s ports have %2$s?",
            "%1$s ports known for %2$s", "In which %1$s ports can one see %2$s?");

    private final StoryWorld world;
    private final Map<String, BeirDataset.Doc> docs = new LinkedHashMap<>();
    private final Random random;

    private StoryQuestions(StoryWorld world, List<BeirDataset.Doc> docs, Random random) {
        this.world = world;
        docs.forEach(d -> this.docs.put(d.id(), d));
        this.random = random;
    }

    /** {@code count} questions, fewer only where the world is too small to hold that many distinct ones. */
    static List<Draft> ask(StoryWorld world, List<BeirDataset.Doc> docs, Random random, int count) {
        return new StoryQuestions(world, docs, random).all(count);
    }

    /** Whether {@code doc}'s title or text contains {@code name}, ignoring case. */
    static boolean mentions(BeirDataset.Doc doc, String name) {
        String needle = name.toLowerCase(Locale.ROOT);
        return doc.title().toLowerCase(Locale.ROOT).contains(needle)
                || doc.text().toLowerCase(Locale.ROOT).contains(needle);
    }

    private List<Draft> all(int count) {
        int twoHop = (int) Math.round(count * 0.5);
        int oneHop = (int) Math.round(count * 0.3);
        List<Draft> chosen = new ArrayList<>(take(twoHopPools(), twoHop));
        chosen.addAll(take(oneHopPools(), oneHop));
        chosen.addAll(take(plainPools(), count - twoHop - oneHop));
        List<Draft> out = new ArrayList<>();
        for (Draft d : chosen) {
            out.add(random.nextInt(5) == 0 ? d.lowerCase() : d);
        }
        return out;
    }

    /** Round robin over the pools, so that each form gets its share and a short pool's gap is spread over the rest. */
    private static List<Draft> take(List<List<Draft>> pools, int n) {
        List<Draft> out = new ArrayList<>();
        for (int round = 0; out.size() < n; round++) {
            boolean any = false;
            for (List<Draft> pool : pools) {
                if (round < pool.size() && out.size() < n) {
                    out.add(pool.get(round));
                    any = true;
                }
            }
            if (!any) {
                break;
            }
        }
        return out;
    }

    private List<List<Draft>> twoHopPools() {
        return List.of(viaBuilder(FOUNDER_OF_BUILDER, "founder-of-builder", y -> world.foundingOf(y).doc()),
                viaBuilder(PORT_OF_BUILDER, "port-of-builder", Yard::id), museumOfShipPainting(),
                painterOfFoundedMuseum(), shipOfNativeCaptain(), launchYearOfCommand(),
                viaBuilder(WRIGHT_OF_BUILDER, "wright-of-builder", y -> world.wrightOf(y).doc()));
    }

    /** Asks about a ship's yard, one ship per yard, so that each yard's document answers once. */
    private List<Draft> viaBuilder(List<String> templates, String form, Function<Yard, String> answer) {
        List<Draft> pool = new ArrayList<>();
        for (Yard y : shuffled(world.yards())) {
            List<Ship> built = world.builds().stream().filter(b -> b.yard().equals(y)).map(Build::ship).toList();
            if (!built.isEmpty()) {
                Ship s = pick(built);
                twoHop(pool, templates, form, s.name(), y.name(), answer.apply(y));
            }
        }
        return pool;
    }

    private List<Draft> museumOfShipPainting() {
        List<Draft> pool = new ArrayList<>();
        for (Person c : shuffled(captains())) {
            List<Command> commands = world.commandsOf(c);
            List<Depiction> depictions = commands.size() == 1 ? world.depictionsOf(commands.get(0).ship()) : List.of();
            if (depictions.size() == 1) {
                twoHop(pool, MUSEUM_OF_SHIP_PAINTING, "museum-of-ship-painting", c.name(),
                        commands.get(0).ship().name(), world.holdingOf(depictions.get(0).painting()).doc());
            }
        }
        return pool;
    }

    private List<Draft> painterOfFoundedMuseum() {
        List<Draft> pool = new ArrayList<>();
        for (Museum m : shuffled(world.museums())) {
            List<Holding> held = world.holdingsOf(m);
            Person founder = world.foundingOf(m).founder();
            long museums = world.foundingsBy(founder).stream().filter(f -> f.org() instanceof Museum).count();
            if (held.size() == 1 && museums == 1) {
                twoHop(pool, PAINTER_OF_FOUNDED_MUSEUM, "painter-of-founded-museum", founder.name(), m.name(),
                        world.authorshipOf(held.get(0).painting()).doc());
            }
        }
        return pool;
    }

    private List<Draft> shipOfNativeCaptain() {
        List<Draft> pool = new ArrayList<>();
        for (Port x : shuffled(world.ports())) {
            List<Person> natives = world.births().stream()
                    .filter(b -> b.port().equals(x) && b.person().role() == Role.CAPTAIN).map(Birth::person).toList();
            List<Command> commands = natives.size() == 1 ? world.commandsOf(natives.get(0)) : List.of();
            if (commands.size() == 1) {
                twoHop(pool, SHIP_OF_NATIVE_CAPTAIN, "ship-of-native-captain", x.name(), natives.get(0).name(),
                        commands.get(0).doc());
            }
        }
        return pool;
    }

    private List<Draft> launchYearOfCommand() {
        List<Draft> pool = new ArrayList<>();
        for (Person c : shuffled(captains())) {
            List<Command> commands = world.commandsOf(c);
            if (commands.size() == 1) {
                twoHop(pool, LAUNCH_YEAR_OF_COMMAND, "launch-year-of-command", c.name(),
                        commands.get(0).ship().name(), world.buildOf(commands.get(0).ship()).doc());
            }
        }
        return pool;
    }

    private void twoHop(List<Draft> pool, List<String> templates, String form, String entity, String bridge,
            String doc) {
        if (!mentions(docs.get(doc), entity) && mentions(docs.get(doc), bridge)) {
            pool.add(new Draft(phrase(templates, entity), TWO_HOP, form, entity, bridge, List.of(doc)));
        }
    }

    private List<List<Draft>> oneHopPools() {
        List<Org> orgs = new ArrayList<>(world.yards());
        orgs.addAll(world.museums());
        return List.of(
                oneHop(world.ships(), BUILDER, "builder", Ship::name, s -> world.buildOf(s).doc()),
                oneHop(world.ships(), MASTER, "master", Ship::name, s -> world.commandOf(s).doc()),
                oneHop(world.people(), BIRTHPLACE, "birthplace", Person::name, p -> world.birthOf(p).doc()),
                oneHop(orgs, FOUNDER, "founder", Org::name, o -> world.foundingOf(o).doc()),
                oneHop(world.paintings(), HOLDER, "holder", Painting::title, p -> world.holdingOf(p).doc()),
                oneHop(world.paintings(), PAINTER, "painter", Painting::title, p -> world.authorshipOf(p).doc()),
                oneHop(world.ports(), PROVINCE, "province", Port::name, Port::id),
                oneHop(world.voyages(), VOYAGE_SHIP, "voyage-ship", Voyage::name, Voyage::id),
                oneHop(world.yards(), YARD_PORT, "yard-port", Yard::name, Yard::id),
                oneHop(world.museums(), MUSEUM_PORT, "museum-port", Museum::name, Museum::id),
                oneHop(world.yards(), SHIPWRIGHT, "shipwright", Yard::name, y -> world.wrightOf(y).doc()));
    }

    private <T> List<Draft> oneHop(List<T> entities, List<String> templates, String form, Function<T, String> name,
            Function<T, String> answer) {
        List<Draft> pool = new ArrayList<>();
        for (T e : shuffled(entities)) {
            String entity = name.apply(e);
            String doc = answer.apply(e);
            if (mentions(docs.get(doc), entity)) {
                pool.add(new Draft(phrase(templates, entity), ONE_HOP, form, entity, "", List.of(doc)));
            }
        }
        return pool;
    }

    /**
     * A plain question over {@code entities}: their {@code traits} fill {@code templates}. Where more than five share
     * the traits (a large world), {@code refinement} (a decade, a size) splits them, filling the last argument of
     * {@code refined}, so that a plain question keeps 1 to 5 relevant documents at any size.
     */
    private record PlainForm<T>(String form, List<T> entities, Function<T, List<String>> traits,
            List<String> templates, Function<T, String> refinement, List<String> refined, Function<T, String> id) {
    }

    private List<List<Draft>> plainPools() {
        return List.of(
                plain(new PlainForm<>("voyages", world.voyages(), v -> List.of(v.cargo(), v.hazard().question()),
                        VOYAGES_PLAIN, v -> decade(v.year()), VOYAGES_REFINED, Voyage::id)),
                plain(new PlainForm<>("paintings", world.paintings(),
                        p -> List.of(p.medium().plural(), p.theme().plural()), PAINTINGS_PLAIN,
                        p -> decade(p.year()), PAINTINGS_REFINED, Painting::id)),
                plain(new PlainForm<>("ships", world.ships().stream().filter(s -> !s.figurehead().isEmpty()).toList(),
                        s -> List.of(s.rig().plural(), StoryProse.article(s.figurehead()), s.figurehead()),
                        SHIPS_PLAIN, StoryQuestions::tonnage, SHIPS_REFINED, Ship::id)),
                // ports stay coarse: nothing else is stated in every port's profile, and even a large world has few
                plain(new PlainForm<>("ports", world.ports(), p -> List.of(p.river() ? "river" : "sea", p.feature()),
                        PORTS_PLAIN, p -> "", List.of(), Port::id)));
    }

    private <T> List<Draft> plain(PlainForm<T> f) {
        List<Draft> pool = new ArrayList<>();
        group(f.entities(), f.traits()).forEach((traits, members) -> {
            if (members.size() <= 5) {
                pool.add(plain(f, f.templates(), traits, members));
            } else {
                group(members, e -> refine(traits, f.refinement().apply(e))).forEach((refined, few) -> {
                    if (few.size() <= 5) {
                        pool.add(plain(f, f.refined(), refined, few));
                    }
                });
            }
        });
        Collections.shuffle(pool, random);
        return pool;
    }

    private <T> Draft plain(PlainForm<T> f, List<String> templates, List<String> traits, List<T> members) {
        String text = String.format(Locale.ROOT, pick(templates), traits.toArray());
        return new Draft(StoryProse.capitalise(text), PLAIN, f.form(), "", "",
                members.stream().map(f.id()).toList());
    }

    private static <T> Map<List<String>, List<T>> group(List<T> entities, Function<T, List<String>> traits) {
        Map<List<String>, List<T>> groups = new LinkedHashMap<>();
        for (T e : entities) {
            groups.computeIfAbsent(traits.apply(e), k -> new ArrayList<>()).add(e);
        }
        return groups;
    }

    private static List<String> refine(List<String> traits, String refinement) {
        List<String> out = new ArrayList<>(traits);
        out.add(refinement);
        return out;
    }

    private static String decade(int year) {
        return (year / 10 * 10) + "s";
    }

    /** The sizes a ship profile's "some 680 tons" falls into. */
    private static String tonnage(Ship s) {
        return s.tons() < 200 ? "of under 200 tons" : s.tons() <= 500 ? "of 200 to 500 tons" : "of over 500 tons";
    }

    private String phrase(List<String> templates, String entity) {
        return StoryProse.capitalise(String.format(Locale.ROOT, pick(templates), entity,
                StoryProse.possessive(entity)));
    }

    private List<Person> captains() {
        return world.people().stream().filter(p -> p.role() == Role.CAPTAIN).toList();
    }

    private <T> T pick(List<T> options) {
        return options.get(random.nextInt(options.size()));
    }

    private <T> List<T> shuffled(List<T> items) {
        List<T> copy = new ArrayList<>(items);
        Collections.shuffle(copy, random);
        return copy;
    }
}
