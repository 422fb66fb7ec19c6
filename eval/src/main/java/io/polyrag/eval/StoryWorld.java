// style(file): an evaluation set's invented world as data (its entities and the relation lists), not logic
package io.polyrag.eval;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

/**
 * The invented maritime and museum history behind {@link StoryCorpus}: its entities, the relations between them, and
 * for every relation the one document that states it ({@code doc}: a profile's id, or a {@code note-} id for a fact
 * that lives in a register, a catalogue entry or a notice). Stating each relation in exactly one place is what lets a
 * question name a single relevant document.
 */
record StoryWorld(List<Port> ports, List<Person> people, List<Ship> ships, List<Yard> yards, List<Museum> museums,
        List<Painting> paintings, List<Voyage> voyages, List<Birth> births, List<Command> commands, List<Build> builds,
        List<Founding> foundings, List<Wright> wrights, List<Holding> holdings, List<Authorship> authorships,
        List<Depiction> depictions, List<Pair> pairs, List<Note> notes) {

    enum Role { CAPTAIN, PAINTER, PATRON }

    /** How a person is referred to; ships are "she" and everything else "it". */
    enum Pronoun {
        SHE("she", "her", "her"), HE("he", "him", "his"), THEY("they", "them", "their"), IT("it", "it", "its");

        private final String subject;
        private final String object;
        private final String possessive;

        Pronoun(String subject, String object, String possessive) {
            this.subject = subject;
            this.object = object;
            this.possessive = possessive;
        }

        String subject() {
            return subject;
        }

        String object() {
            return object;
        }

        String possessive() {
            return possessive;
        }
    }

    record Rig(String name, String plural) {
    }

    record Medium(String name, String plural) {
    }

    /** What a painting shows; {@code titles} are patterns for a made-up place word. */
    record Theme(String phrase, String plural, List<String> titles) {
    }

    /** What befell a voyage: {@code question} as a question says it, {@code tellings} as the documents do. */
    record Hazard(String question, List<String> tellings) {
    }

    record Port(String id, String name, String key, String province, String water, boolean river, String feature,
            int inhabitants, int wallCentury) {
    }

    record Person(String id, Role role, String given, String surname, Pronoun pronoun, int born, int died,
            String trade) {
        String name() {
            return given + " " + surname;
        }
    }

    /** A ship; {@code figurehead} is empty for a ship without one, {@code table} puts its measurements in a table. */
    record Ship(String id, String name, String key, Rig rig, int built, int tons, int length, int crew, Port home,
            String figurehead, boolean table) {
        String shortName() {
            return key;
        }
    }

    /** A shipyard or a museum: both are founded by a person, stand in a port and go by an abbreviation. */
    sealed interface Org permits Yard, Museum {
        String id();

        String name();

        String key();

        String abbreviation();

        Port port();

        int founded();
    }

    record Yard(String id, String name, String key, String abbreviation, Port port, int founded, String speciality,
            int hands) implements Org {
    }

    record Museum(String id, String name, String key, String abbreviation, Port port, int founded, int rooms,
            boolean inventory) implements Org {
    }

    record Painting(String id, String title, String key, Theme theme, Medium medium, int year, int width,
            int height) {
    }

    record Voyage(String id, String name, String key, Ship ship, int year, Port from, Port to, String cargo,
            Hazard hazard, int days) {
    }

    record Birth(Person person, Port port, String doc) {
    }

    record Command(Person captain, Ship ship, int year, String doc) {
    }

    record Build(Ship ship, Yard yard, String doc) {
    }

    record Founding(Org org, Person founder, String doc) {
    }

    record Wright(Yard yard, Person wright, String doc) {
    }

    record Holding(Painting painting, Museum museum, int acquired, String doc) {
    }

    record Authorship(Painting painting, Person painter, String doc) {
    }

    record Depiction(Painting painting, Ship ship) {
    }

    /** Two entities whose names share a word on purpose, so that each is the other's distractor. */
    record Pair(String first, String second) {
    }

    /** A split-fact document: its id and the number it shows (catalogue entry, lot). */
    record Note(String id, int number) {
    }

    static final List<Rig> RIGS = List.of(new Rig("brig", "brigs"), new Rig("barque", "barques"),
            new Rig("schooner", "schooners"), new Rig("sloop", "sloops"), new Rig("clipper", "clippers"),
            new Rig("ketch", "ketches"), new Rig("brigantine", "brigantines"), new Rig("lugger", "luggers"));
    static final List<Medium> MEDIA = List.of(new Medium("oil painting", "oil paintings"),
            new Medium("watercolour", "watercolours"), new Medium("engraving", "engravings"),
            new Medium("tempera panel", "tempera panels"), new Medium("gouache", "gouaches"),
            new Medium("charcoal drawing", "charcoal drawings"));
    static final List<Theme> THEMES = List.of(
            new Theme("a storm at sea", "storms at sea", List.of("Squall off %s", "Gale at %s", "Tempest near %s")),
            new Theme("a harbour at dawn", "harbours at dawn",
                    List.of("Dawn at %s", "First Light over %s", "Early Tide, %s")),
            new Theme("a shipwreck", "shipwrecks", List.of("Wreck on the %s Rocks", "The Loss at %s")),
            new Theme("a regatta", "regattas", List.of("Regatta at %s", "Racing Sails off %s")),
            new Theme("a fishing fleet coming home", "fishing fleets coming home",
                    List.of("The %s Boats Return", "Herring Fleet off %s")),
            new Theme("a moonlit coast", "moonlit coasts", List.of("Moonrise over %s", "Night Coast at %s")),
            new Theme("a whale hunt", "whale hunts", List.of("Whalers off %s", "The %s Whale Hunt")),
            new Theme("ships at anchor", "ships at anchor", List.of("Anchorage at %s", "The Roads of %s")));
    static final List<String> CARGOES = List.of("salt", "timber", "wool", "tea", "copper ore", "grain", "wine", "coal",
            "hides", "tobacco");
    static final List<Hazard> HAZARDS = List.of(
            new Hazard("ran into a storm", List.of("{ship} was caught in a storm", "a storm tore {her} sails",
                    "{ship} rode out a violent storm")),
            new Hazard("were lost in fog", List.of("thick fog hid the coast from {ship} for days",
                    "{ship} groped her way through thick fog")),
            new Hazard("lay becalmed", List.of("the wind died and {ship} lay becalmed",
                    "{ship} lay becalmed for nine days")),
            new Hazard("had fever aboard", List.of("fever broke out among {her} crew",
                    "fever went through {her} forecastle")),
            new Hazard("were beset by ice", List.of("ice closed in around {ship}", "{ship} was beset by ice")),
            new Hazard("had a fire on board", List.of("a fire broke out in {her} hold",
                    "fire spread from {her} galley below decks")),
            new Hazard("were attacked by pirates", List.of("pirates attacked {ship}",
                    "{ship} beat off an attack by pirates")),
            new Hazard("saw a mutiny", List.of("{her} crew mutinied", "a mutiny broke out on {ship}")));
    static final List<String> FEATURES = List.of("a lighthouse", "salt pans", "a fish market", "a customs house",
            "a dry dock", "a rope walk", "an old fortress", "oyster beds", "a cathedral", "a shipbreakers' beach");
    static final List<String> FIGUREHEADS = List.of("swan", "lion", "mermaid", "eagle", "dolphin", "unicorn", "horse",
            "owl", "fox", "stag", "heron", "bear");
    static final List<String> SPECIALITIES = List.of("whalers", "fishing smacks", "coastal traders", "packet ships",
            "pilot cutters", "river barges", "revenue cutters", "pleasure yachts");
    static final List<String> TRADES = List.of("salt merchant", "banker", "shipowner", "timber merchant",
            "wool merchant", "insurer", "brewer", "rope maker");
    private static final List<String> SHIP_FIRST_WORDS = List.of("Morning", "Evening", "Silver", "Golden",
            "Northern", "Southern", "Western", "Eastern", "Swift", "Bright", "Winter", "Summer", "Gentle", "Faithful",
            "Lucky", "Proud", "Quiet", "Wild", "Scarlet", "Amber", "Hopeful", "Steady", "Merry", "Distant", "Early",
            "Patient", "Honest", "Restless", "Little", "Grey");
    private static final List<String> YARD_WORDS = List.of("Yards", "Shipyard", "Shipworks", "Dockyard");
    private static final List<String> MUSEUM_WORDS = List.of("Museum of Art", "Maritime Museum", "Gallery",
            "Sea Museum");
    private static final List<String> VOYAGE_WORDS = List.of("Passage", "Run", "Crossing", "Venture");

    /** The world for {@code captains} captains; every other count is scaled from it (600 gives the spec's sizes). */
    static StoryWorld build(Random random, int captains) {
        return new Builder(random, captains).build();
    }

    Optional<Depiction> depictionOf(Painting painting) {
        return depictions.stream().filter(d -> d.painting().equals(painting)).findFirst();
    }

    List<Depiction> depictionsOf(Ship ship) {
        return depictions.stream().filter(d -> d.ship().equals(ship)).toList();
    }

    List<Command> commandsOf(Person captain) {
        return commands.stream().filter(c -> c.captain().equals(captain)).toList();
    }

    Command commandOf(Ship ship) {
        return commands.stream().filter(c -> c.ship().equals(ship)).findFirst().orElseThrow();
    }

    Build buildOf(Ship ship) {
        return builds.stream().filter(b -> b.ship().equals(ship)).findFirst().orElseThrow();
    }

    Birth birthOf(Person person) {
        return births.stream().filter(b -> b.person().equals(person)).findFirst().orElseThrow();
    }

    Founding foundingOf(Org org) {
        return foundings.stream().filter(f -> f.org().equals(org)).findFirst().orElseThrow();
    }

    List<Founding> foundingsBy(Person founder) {
        return foundings.stream().filter(f -> f.founder().equals(founder)).toList();
    }

    Wright wrightOf(Yard yard) {
        return wrights.stream().filter(w -> w.yard().equals(yard)).findFirst().orElseThrow();
    }

    Holding holdingOf(Painting painting) {
        return holdings.stream().filter(h -> h.painting().equals(painting)).findFirst().orElseThrow();
    }

    List<Holding> holdingsOf(Museum museum) {
        return holdings.stream().filter(h -> h.museum().equals(museum)).toList();
    }

    Authorship authorshipOf(Painting painting) {
        return authorships.stream().filter(a -> a.painting().equals(painting)).findFirst().orElseThrow();
    }

    List<Authorship> authorshipsBy(Person painter) {
        return authorships.stream().filter(a -> a.painter().equals(painter)).toList();
    }

    /** The captain who shares {@code painter}'s surname, for a cousin. */
    Optional<Person> cousinOf(Person painter) {
        return pairs.stream().filter(p -> p.second().equals(painter.id())).map(Pair::first)
                .flatMap(id -> people.stream().filter(q -> q.id().equals(id))).findFirst();
    }

    private static final class Builder {
        private final Random random;
        private final StoryNames names;
        private final int captains;
        private final List<Port> ports = new ArrayList<>();
        private final List<Person> people = new ArrayList<>();
        private final List<Ship> ships = new ArrayList<>();
        private final List<Yard> yards = new ArrayList<>();
        private final List<Museum> museums = new ArrayList<>();
        private final List<Painting> paintings = new ArrayList<>();
        private final List<Voyage> voyages = new ArrayList<>();
        private final List<Birth> births = new ArrayList<>();
        private final List<Command> commands = new ArrayList<>();
        private final List<Build> builds = new ArrayList<>();
        private final List<Founding> foundings = new ArrayList<>();
        private final List<Wright> wrights = new ArrayList<>();
        private final List<Holding> holdings = new ArrayList<>();
        private final List<Authorship> authorships = new ArrayList<>();
        private final List<Depiction> depictions = new ArrayList<>();
        private final List<Pair> pairs = new ArrayList<>();
        private final List<Note> notes = new ArrayList<>();
        private final List<String> feminine = new ArrayList<>();
        private final List<String> masculine = new ArrayList<>();

        Builder(Random random, int captains) {
            this.random = random;
            this.names = new StoryNames(random);
            this.captains = captains;
        }

        StoryWorld build() {
            for (int i = 0; i < 40; i++) {
                feminine.add(names.word(StoryNames.FEMININE));
                masculine.add(names.word(StoryNames.MASCULINE));
            }
            ports();
            yards();
            museums();
            ships();
            captains();
            paintings();
            founders();
            wrights();
            births();
            voyages();
            return new StoryWorld(List.copyOf(ports), List.copyOf(people), List.copyOf(ships), List.copyOf(yards),
                    List.copyOf(museums), List.copyOf(paintings), List.copyOf(voyages), List.copyOf(births),
                    List.copyOf(commands), List.copyOf(builds), List.copyOf(foundings), List.copyOf(wrights),
                    List.copyOf(holdings), List.copyOf(authorships), List.copyOf(depictions), List.copyOf(pairs),
                    List.copyOf(notes));
        }

        private int scaled(double perCaptain, int floor) {
            return Math.max(floor, (int) Math.round(captains * perCaptain));
        }

        private void ports() {
            int n = scaled(0.15, 6);
            int twins = Math.max(1, n / 6);
            List<String> provinces = words(StoryNames.REGION, Math.max(3, n / 8), "%s");
            List<String> seas = words(StoryNames.PLACE, Math.max(2, n / 15), "the %s Sea");
            List<String> rivers = words(StoryNames.SHORT, Math.max(3, n / 8), "the River %s");
            for (int i = 0; i < n - twins; i++) {
                String key;
                String name;
                switch (random.nextInt(3)) {
                    case 0 -> {
                        key = names.word(StoryNames.SHORT);
                        name = "Port " + key;
                    }
                    case 1 -> {
                        key = names.word(StoryNames.SHORT);
                        name = key + " Harbour";
                    }
                    default -> {
                        key = names.word(StoryNames.PLACE);
                        name = key;
                    }
                }
                boolean river = random.nextInt(3) == 0;
                ports.add(new Port(id("port", ports.size()), name, key, pick(provinces), pick(river ? rivers : seas),
                        river, pick(FEATURES), 100 * (20 + random.nextInt(600)), 1 + random.nextInt(9)));
            }
            for (Port base : shuffled(ports).subList(0, twins)) {
                String name = base.name().endsWith(" Harbour") ? base.key() + " Sound" : base.name() + " Minor";
                Port twin = new Port(id("port", ports.size()), name, base.key(), base.province(), base.water(),
                        base.river(), pick(FEATURES), 100 * (5 + random.nextInt(100)), 1 + random.nextInt(9));
                ports.add(twin);
                pairs.add(new Pair(base.id(), twin.id()));
            }
        }

        private List<String> words(String[] endings, int n, String pattern) {
            List<String> out = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                out.add(pattern.formatted(names.word(endings)));
            }
            return out;
        }

        private void yards() {
            int n = scaled(1 / 5.0, 4);
            for (int i = 0; i < n; i++) {
                String key = names.word(StoryNames.PLACE);
                String name = key + " " + pick(YARD_WORDS);
                // the first yard is old enough to have built the earliest ships
                int founded = 1730 + random.nextInt(i == 0 ? 40 : 100);
                yards.add(new Yard(id("yard", i), name, key, initials(name), pick(ports), founded, pick(SPECIALITIES),
                        10 * (4 + random.nextInt(60))));
            }
        }

        private void museums() {
            int n = scaled(2 / 15.0, 3);
            for (int i = 0; i < n; i++) {
                boolean twin = i < n / 2 && i < yards.size();
                String key = twin ? yards.get(i).key() : names.word(StoryNames.PLACE);
                String name = key + " " + pick(MUSEUM_WORDS);
                Museum m = new Museum(id("museum", i), name, key, initials(name), pick(ports),
                        1790 + random.nextInt(95), 4 + random.nextInt(30), i == 1 || random.nextInt(8) == 0);
                museums.add(m);
                if (twin) {
                    pairs.add(new Pair(yards.get(i).id(), m.id()));
                }
            }
        }

        private void ships() {
            int n = captains + scaled(1 / 6.0, 1);
            while (ships.size() < n) {
                String key = names.word(StoryNames.HULL);
                List<String> firsts = shuffled(SHIP_FIRST_WORDS);
                Ship a = ship(firsts.get(0), key);
                if (ships.size() < n) {
                    Ship b = ship(firsts.get(1), key);
                    pairs.add(new Pair(a.id(), b.id()));
                }
            }
            for (Ship s : ships) {
                List<Yard> open = yards.stream().filter(y -> y.founded() <= s.built() - 2).toList();
                builds.add(new Build(s, pick(open), home(s.id())));
            }
        }

        private Ship ship(String first, String key) {
            int tons = 10 * (6 + random.nextInt(90));
            String figurehead = random.nextInt(3) == 0 ? pick(FIGUREHEADS) : "";
            Ship s = new Ship(id("ship", ships.size()), first + " " + key, key, pick(RIGS), 1790 + random.nextInt(91),
                    tons, 12 + tons / 20 + random.nextInt(8), 6 + tons / 30 + random.nextInt(6), pick(ports),
                    figurehead, random.nextInt(3) == 0);
            ships.add(s);
            return s;
        }

        /**
         * Each captain commands one ship; the ships beyond one per captain go, as a second command, to a captain whose
         * first ship was built within 15 years of it, so that careers keep a plausible length.
         */
        private void captains() {
            List<Ship> order = shuffled(ships);
            List<List<Ship>> fleets = new ArrayList<>();
            for (Ship s : order.subList(0, captains)) {
                fleets.add(new ArrayList<>(List.of(s)));
            }
            for (Ship extra : order.subList(captains, order.size())) {
                List<List<Ship>> single = fleets.stream().filter(f -> f.size() == 1).toList();
                single.stream().filter(f -> Math.abs(f.get(0).built() - extra.built()) <= 15).findFirst()
                        .orElse(single.get(0)).add(extra);
            }
            for (List<Ship> own : fleets) {
                own.sort(Comparator.comparingInt(Ship::built));
                int first = own.get(0).built() + random.nextInt(9);
                int last = own.size() == 1 ? first
                        : Math.max(own.get(1).built() + random.nextInt(7), first + 3 + random.nextInt(9));
                Person p = person(Role.CAPTAIN, names.word(StoryNames.FAMILY), first - 22 - random.nextInt(15),
                        last + 12 + random.nextInt(30), "");
                commands.add(new Command(p, own.get(0), first, home(p.id())));
                if (own.size() > 1) {
                    commands.add(new Command(p, own.get(1), last, home(p.id())));
                }
            }
        }

        private Person person(Role role, String surname, int born, int died, String trade) {
            return person(role, surname, born, died, trade, "");
        }

        /** A new person; {@code notGiven} keeps a cousin from sharing the whole name with the captain. */
        private Person person(Role role, String surname, int born, int died, String trade, String notGiven) {
            Pronoun pronoun = switch (random.nextInt(3)) {
                case 0 -> Pronoun.THEY;
                case 1 -> Pronoun.SHE;
                default -> Pronoun.HE;
            };
            List<String> pool = switch (pronoun) {
                case SHE -> feminine;
                case HE -> masculine;
                default -> random.nextBoolean() ? feminine : masculine;
            };
            String given;
            do {
                given = pick(pool);
            } while (given.equals(notGiven));
            Person p = new Person(id("person", people.size()), role, given, surname, pronoun, born, died, trade);
            people.add(p);
            return p;
        }

        /** A painter's working years, within which all the painter's paintings are dated. */
        private record Career(Person painter, int start, int length) {
        }

        /**
         * Painters first, each with a career of 8 to 37 years, then the paintings, each dated within its painter's
         * career; every painter has at least one. A third of the painters are cousins of a captain, sharing the
         * surname.
         */
        private void paintings() {
            int n = scaled(2 / 3.0, 12);
            int painters = Math.min(scaled(1 / 4.0, 4), n);
            List<Person> captainOrder = shuffled(people.stream().filter(p -> p.role() == Role.CAPTAIN).toList());
            List<Career> careers = new ArrayList<>();
            for (int i = 0; i < painters; i++) {
                int start = 1790 + random.nextInt(85);
                int length = 8 + random.nextInt(30);
                int born = start - 18 - random.nextInt(12);
                int died = start + length + 1 + random.nextInt(25);
                Person painter = i < painters / 3 ? cousin(captainOrder.get(i), born, died)
                        : person(Role.PAINTER, names.word(StoryNames.FAMILY), born, died, "");
                careers.add(new Career(painter, start, length));
            }
            for (int i = 0; i < n; i++) {
                Career career = i < painters ? careers.get(i) : pick(careers);
                Theme theme = pick(THEMES);
                String key = names.word(StoryNames.PLACE);
                int year = Math.min(1899, career.start() + random.nextInt(career.length()));
                Painting p = new Painting(id("painting", i), pick(theme.titles()).formatted(key), key, theme,
                        pick(MEDIA), year, 20 + random.nextInt(180), 20 + random.nextInt(140));
                paintings.add(p);
                // the painting's page names its painter three times as often as the painter's page names the work,
                // so that the painting's page, which also says where it hangs, often states both
                authorships.add(new Authorship(p, career.painter(),
                        home(p.id(), p.id(), p.id(), career.painter().id())));
            }
            depictions();
            holdings();
        }

        private Person cousin(Person captain, int born, int died) {
            Person painter = person(Role.PAINTER, captain.surname(), born, died, "", captain.given());
            pairs.add(new Pair(captain.id(), painter.id()));
            return painter;
        }

        private void depictions() {
            List<Ship> free = shuffled(ships);
            for (Painting p : shuffled(paintings)) {
                if (depictions.size() >= paintings.size() / 2) {
                    return;
                }
                free.stream().filter(s -> s.built() <= p.year()).findFirst().ifPresent(s -> {
                    depictions.add(new Depiction(p, s));
                    free.remove(s);
                });
            }
        }

        /**
         * Three fifths of the museums hold a single painting, so that "the painting held by" such a museum is one. A
         * museum that small keeps no catalogue: its painting's own page says where it hangs.
         */
        private void holdings() {
            List<Museum> order = shuffled(museums);
            int single = Math.max(1, (int) Math.round(museums.size() * 0.6));
            List<Museum> larger = order.subList(single, order.size());
            List<Painting> rest = shuffled(paintings);
            for (int i = 0; i < rest.size(); i++) {
                Museum m = i < single ? order.get(i)
                        : i < single + 2 * larger.size() ? larger.get((i - single) % larger.size()) : pick(larger);
                Painting p = rest.get(i);
                holdings.add(new Holding(p, m, Math.max(p.year(), m.founded()) + random.nextInt(25),
                        i < single ? p.id() : home(p.id())));
            }
        }

        /**
         * Every patron founds a yard or a museum; the rest go to a captain alive and grown at the time, else to a
         * patron whose other foundations are at most 30 years away, else to one more patron.
         */
        private void founders() {
            List<Org> orgs = new ArrayList<>(yards);
            orgs.addAll(museums);
            Collections.shuffle(orgs, random);
            int patrons = Math.min(scaled(1 / 6.0, 3), orgs.size());
            List<List<Org>> byPatron = new ArrayList<>();
            for (int i = 0; i < patrons; i++) {
                byPatron.add(new ArrayList<>(List.of(orgs.get(i))));
            }
            Map<Org, Person> founder = new LinkedHashMap<>();
            List<Person> captainOrder = shuffled(people.stream().filter(p -> p.role() == Role.CAPTAIN).toList());
            for (Org o : orgs.subList(patrons, orgs.size())) {
                Optional<Person> captain = captainOrder.stream().filter(c -> !founder.containsValue(c)
                        && c.born() + 30 <= o.founded() && o.founded() <= c.died()).findFirst();
                if (captain.isPresent()) {
                    founder.put(o, captain.get());
                } else {
                    Optional<List<Org>> patron = byPatron.stream().filter(l -> l.size() < 3 && span(l, o) <= 30)
                            .min(Comparator.comparingInt(l -> span(l, o)));
                    if (patron.isPresent()) {
                        patron.get().add(o);
                    } else {
                        byPatron.add(new ArrayList<>(List.of(o)));
                    }
                }
            }
            for (List<Org> own : byPatron) {
                int first = own.stream().mapToInt(Org::founded).min().orElseThrow();
                int last = own.stream().mapToInt(Org::founded).max().orElseThrow();
                int born = first - 25 - random.nextInt(20);
                Person patron = person(Role.PATRON, names.word(StoryNames.FAMILY), born,
                        Math.max(last + 1 + random.nextInt(20), born + 50 + random.nextInt(30)), pick(TRADES));
                own.forEach(o -> founder.put(o, patron));
            }
            for (Org o : orgs) {
                Person by = founder.get(o);
                foundings.add(new Founding(o, by, home(o.id(), by.id())));
            }
        }

        private static int span(List<Org> own, Org o) {
            int first = Math.min(o.founded(), own.stream().mapToInt(Org::founded).min().orElse(o.founded()));
            int last = Math.max(o.founded(), own.stream().mapToInt(Org::founded).max().orElse(o.founded()));
            return last - first;
        }

        private void wrights() {
            List<Person> order = shuffled(people.stream().filter(p -> p.role() == Role.CAPTAIN).toList());
            for (int i = 0; i < yards.size(); i++) {
                Yard y = yards.get(i);
                wrights.add(new Wright(y, order.get(i % order.size()), home(y.id())));
            }
        }

        /**
         * Most ports see one captain born there and no other (the question "the captain born in X" needs one); the
         * rest of the captains, and every painter and patron, are born anywhere else.
         */
        private void births() {
            List<Port> order = shuffled(ports);
            List<Port> small = order.subList(0, (int) Math.round(ports.size() * 0.6));
            List<Port> large = order.subList(small.size(), order.size());
            List<Person> oneShip = shuffled(people.stream()
                    .filter(p -> p.role() == Role.CAPTAIN && commandCount(p) == 1).toList());
            Map<Person, Port> born = new LinkedHashMap<>();
            for (int i = 0; i < small.size() && i < oneShip.size(); i++) {
                born.put(oneShip.get(i), small.get(i));
            }
            for (Person p : people) {
                Port port = born.get(p);
                if (port == null) {
                    port = p.role() == Role.CAPTAIN ? pick(large) : pick(ports);
                }
                births.add(new Birth(p, port, home(p.id())));
            }
        }

        private long commandCount(Person captain) {
            return commands.stream().filter(c -> c.captain().equals(captain)).count();
        }

        private void voyages() {
            int n = scaled(0.5, 8);
            for (int i = 0; i < n; i++) {
                String key = names.word(StoryNames.PLACE);
                Ship ship = pick(ships);
                Port from = pick(ports);
                Port to;
                do {
                    to = pick(ports);
                } while (to.equals(from));
                voyages.add(new Voyage(id("voyage", i), key + " " + pick(VOYAGE_WORDS), key, ship,
                        ship.built() + 1 + random.nextInt(25), from, to, pick(CARGOES), pick(HAZARDS),
                        12 + random.nextInt(120)));
            }
        }

        /**
         * Where a relation is stated: in a note a third of the time, else in one of {@code profiles}, each equally
         * often (a profile named twice is chosen twice as often).
         */
        private String home(String... profiles) {
            int roll = random.nextInt(3 * profiles.length);
            if (roll < profiles.length) {
                Note note = new Note(id("note", notes.size()), 1 + random.nextInt(900));
                notes.add(note);
                return note.id();
            }
            return profiles[roll % profiles.length];
        }

        private static String id(String kind, int index) {
            return String.format(Locale.ROOT, "%s-%04d", kind, index + 1);
        }

        private static String initials(String name) {
            StringBuilder b = new StringBuilder();
            for (String w : name.split(" ")) {
                if (!w.equals("of") && !w.equals("the")) {
                    b.append(w.charAt(0));
                }
            }
            return b.toString();
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
}
