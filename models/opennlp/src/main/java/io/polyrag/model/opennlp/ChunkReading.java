package io.polyrag.model.opennlp;

import io.polyrag.core.model.Entity;
import io.polyrag.core.model.Extraction;
import io.polyrag.core.model.Fact;
import io.polyrag.core.model.Vocabulary;
import io.polyrag.model.opennlp.OfflineExtractor.Lemmatizer;
import io.polyrag.model.opennlp.OfflineExtractor.Tagged;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * One chunk's reading, for {@link OfflineExtractor}: its mentions in order (for coreference), the votes for each
 * name's type, the facts.
 */
final class ChunkReading {
    /** Pronouns that stand for a person; for anything; for a thing (not a person). */
    private static final Set<String> PERSON_PRONOUNS = Set.of("he", "she", "him", "her", "his", "hers");
    private static final Set<String> PLURAL_PRONOUNS = Set.of("they", "them", "their", "theirs");
    private static final Set<String> THING_PRONOUNS = Set.of("it", "its");
    /** Nouns that, after "the", stand for the latest mention of a type. */
    private static final Map<String, String> DESCRIPTIONS = Map.ofEntries(
            Map.entry("company", Vocabulary.ORGANIZATION), Map.entry("firm", Vocabulary.ORGANIZATION),
            Map.entry("business", Vocabulary.ORGANIZATION), Map.entry("corporation", Vocabulary.ORGANIZATION),
            Map.entry("manufacturer", Vocabulary.ORGANIZATION), Map.entry("maker", Vocabulary.ORGANIZATION),
            Map.entry("group", Vocabulary.ORGANIZATION), Map.entry("yard", Vocabulary.ORGANIZATION),
            Map.entry("shipyard", Vocabulary.ORGANIZATION), Map.entry("museum", Vocabulary.ORGANIZATION),
            Map.entry("gallery", Vocabulary.ORGANIZATION), Map.entry("institute", Vocabulary.ORGANIZATION),
            Map.entry("university", Vocabulary.ORGANIZATION), Map.entry("bank", Vocabulary.ORGANIZATION),
            Map.entry("studio", Vocabulary.ORGANIZATION), Map.entry("brand", Vocabulary.ORGANIZATION),
            Map.entry("organisation", Vocabulary.ORGANIZATION), Map.entry("organization", Vocabulary.ORGANIZATION),
            Map.entry("town", Vocabulary.PLACE), Map.entry("city", Vocabulary.PLACE),
            Map.entry("village", Vocabulary.PLACE), Map.entry("port", Vocabulary.PLACE),
            Map.entry("region", Vocabulary.PLACE), Map.entry("country", Vocabulary.PLACE),
            Map.entry("ship", Vocabulary.PRODUCT), Map.entry("vessel", Vocabulary.PRODUCT),
            Map.entry("boat", Vocabulary.PRODUCT), Map.entry("device", Vocabulary.PRODUCT),
            Map.entry("product", Vocabulary.PRODUCT), Map.entry("model", Vocabulary.PRODUCT),
            Map.entry("painting", Vocabulary.WORK), Map.entry("book", Vocabulary.WORK),
            Map.entry("novel", Vocabulary.WORK), Map.entry("portrait", Vocabulary.WORK));
    /** Nouns said of a name ("X is a port", "X, a painter") and the type they give it. */
    private static final Map<String, String> TYPE_NOUNS = typeNouns();

    private final Lemmatizer lemmatizer;
    /** Words of names seen away from a sentence's opening: a one-word name opening a sentence counts if here. */
    private final Set<String> namedInside = new HashSet<>();
    /** Mentions so far, latest last. */
    private final List<String> recent = new ArrayList<>();
    /** Each sentence's first mention (its subject, most often), latest last: what a pronoun most often means. */
    private final List<String> subjects = new ArrayList<>();
    /** A common noun written right after a name ("the Kestrel-9 seismometer"): "the seismometer" is it. */
    private final Map<String, String> headNouns = new HashMap<>();
    private final Map<String, Map<String, Double>> votes = new HashMap<>();
    private final Map<String, String> forms = new LinkedHashMap<>();
    private final List<Fact> facts = new ArrayList<>();

    ChunkReading(Lemmatizer lemmatizer) {
        this.lemmatizer = lemmatizer;
    }

    /** Whether a sentence with no capital after its first word may still relate mentions: "It makes them." */
    static boolean refers(String sentence) {
        String s = " " + sentence.toLowerCase(Locale.ROOT) + " ";
        return s.contains(" the company ") || s.contains(" the firm ") || s.contains(" its ")
                || s.contains(" it ") || s.contains(" she ") || s.contains(" he ") || s.contains(" they ");
    }

    void noteNamesInside(List<Tagged> tagged) {
        for (Tagged t : tagged) {
            for (Names.Span sp : Names.find(t.words(), t.tags(), t.glued(), t.opens())) {
                // Written inside a sentence, or as several words ("Maimore Shipworks … Maimore was located"):
                // its words name something wherever they stand.
                if (!t.opens()[sp.start()] || sp.end() - sp.start() > 1) {
                    namedInside.addAll(List.of(Entity.key(sp.name()).split(" ")));
                }
            }
        }
    }

    /** A mention: a name, or a reference standing for one (resolved: {@code name} is what it stands for). */
    private record Mention(int start, int end, String name, boolean reference, String needs) {
    }

    // style: one left-to-right pass over a sentence's tags: the mention rules share its state
    void read(Tagged t) {
        String[] words = t.words();
        String[] tags = t.tags();
        Lemmas lemmas = new Lemmas(lemmatizer.me(), lemmatizer.memo(), words, tags);
        List<Mention> mentions = new ArrayList<>();
        List<Names.Span> names = Names.find(words, tags, t.glued(), t.opens()).stream().filter(sp -> !t.opens()[sp.start()]
                || sp.end() - sp.start() > 1 || namedInside.contains(Entity.key(sp.name()))
                || Names.looksLikeName(sp.name())).toList();
        int n = 0;
        for (int i = 0; i < words.length; i++) {
            while (n < names.size() && names.get(n).start() < i) {
                n++; // a name inside a mention taken before: missed, or every later name of the sentence was
            }
            if (n < names.size() && names.get(n).start() == i) {
                Names.Span sp = names.get(n++);
                noteName(sp, words, tags);
                mentions.add(new Mention(sp.start(), sp.end(), sp.name(), false, ""));
                remember(sp.name(), mentions.size() == 1);
                i = sp.end() - 1;
                continue;
            }
            Mention ref = reference(words, tags, i);
            // "the University Ortega": the name, not "the university" said before, which would swallow its start.
            if (ref != null && (n >= names.size() || names.get(n).start() >= ref.end())) {
                mentions.add(ref);
                remember(ref.name(), mentions.size() == 1);
                i = ref.end() - 1;
            }
        }
        String evidence = t.text().length() > OfflineExtractor.MAX_EVIDENCE ? t.text().substring(0, OfflineExtractor.MAX_EVIDENCE) + "…" : t.text();
        Map<String, String> props = Map.of("extractor", "offline", "evidence", evidence);
        label(words, mentions, props);
        String lastSubject = null;
        String lastPredicate = null;
        boolean lastReversed = false;
        for (int i = 0; i + 1 < mentions.size(); i++) {
            Mention a = mentions.get(i);
            Mention b = mentions.get(i + 1);
            if (a.name() == null || b.name() == null) {
                continue;
            }
            boolean bPlace = isPlace(b.name(), words, b.start());
            Clauses.Link link = Clauses.between(words, tags, lemmas, a.end(), b.start(), bPlace);
            boolean listed = link == null || link.predicate().equals(Vocabulary.RELATED_TO)
                    && listGoesOn(words, tags, mentions, i + 1);
            if (listed && lastPredicate != null && coordination(words, tags, a.end(), b.start())) {
                // "X makes A and B", "X makes A, B and C": B (and C) take A's relation to X.
                add(lastReversed ? b.name() : lastSubject, lastPredicate, lastReversed ? lastSubject : b.name(),
                        props);
                continue;
            }
            if (link == null || link.predicate().equals(Vocabulary.RELATED_TO) && (a.reference() || b.reference())) {
                lastPredicate = null;
                continue;
            }
            String subject = link.reversed() ? b.name() : a.name();
            String object = link.reversed() ? a.name() : b.name();
            if (link.predicate().equals(Vocabulary.RELATED_TO) && b.start() == a.end() + 1
                    && (words[a.end()].equals("'s") || words[a.end()].equals("’s"))
                    && typeOf(b.name()).equals(Vocabulary.PRODUCT) && (typeOf(a.name()).equals(
                            Vocabulary.ORGANIZATION) || typeOf(a.name()).equals(Vocabulary.PERSON))) {
                // "the European Space Agency's Rosetta spacecraft": whose the product is.
                link = new Clauses.Link(Vocabulary.OWNS, false);
            }
            add(subject, link.predicate(), object, props);
            // The end the next coordinated mention shares: the first mention, subject or object ("X makes A and B",
            // "X was founded by A and B"); the second's own end was taken for it ("B founded A").
            lastSubject = a.name();
            lastPredicate = Vocabulary.closed(link.predicate()) ? link.predicate() : null;
            lastReversed = link.reversed();
        }
    }

    /**
     * A mention just read is the latest; a sentence's first is its subject: what a pronoun after it, in this
     * sentence or the next, stands for first.
     */
    private void remember(String name, boolean first) {
        if (name != null && !name.equals(Fact.DOCUMENT_SUBJECT)) {
            recent.remove(name);
            recent.add(name);
            if (first) {
                subjects.remove(name);
                subjects.add(name);
            }
        }
    }

    /**
     * A register's label line, "Builder: Shaisanby Dockyard." after "New hull, 1827: the Early Shuune.": the
     * name holds the role towards the entry the lines before are about.
     */
    private void label(String[] words, List<Mention> mentions, Map<String, String> props) {
        if (words.length < 3 || !words[1].equals(":") || mentions.size() != 1 || mentions.getFirst().start() != 2) {
            return;
        }
        String predicate = Vocabulary.role(words[0]);
        String holder = mentions.getFirst().name();
        String entry = recent.size() >= 2 ? recent.get(recent.size() - 2) : null;
        if (predicate != null && entry != null && !entry.equals(holder)) {
            add(holder, predicate, entry, props);
        }
    }

    private void add(String subject, String predicate, String object, Map<String, String> props) {
        if (subject.equals(object)) {
            return;
        }
        List<String> ends = Vocabulary.PREDICATES.get(predicate);
        if (ends != null) {
            vote(subject, ends.get(0), 1.5);
            vote(object, ends.get(1), 1.5);
        }
        facts.add(new Fact(subject, "", predicate, object, "", props));
    }

    /** A name's own evidence: its words, a title, and the type noun said of it ("X is a port", "X, a painter"). */
    private void noteName(Names.Span sp, String[] words, String[] tags) {
        forms.putIfAbsent(Entity.key(sp.name()), sp.name());
        if (!sp.type().isEmpty()) {
            vote(sp.name(), sp.type(), 3);
        }
        int after = sp.end();
        if (after < words.length && tags[after].equals("NOUN") && !words[after].equals("'s")) {
            String noun = words[after].toLowerCase(Locale.ROOT);
            headNouns.put(noun, sp.name());
            String typed = TYPE_NOUNS.get(noun);
            vote(sp.name(), typed != null ? typed : Vocabulary.PRODUCT, typed != null ? 2 : 1);
        }
        // "X is a port town", "X, a chemist,", "X (1820–1866) was a sea captain": the first nouns after the
        // copula or the comma and article, a parenthesis skipped.
        int i = after;
        if (i < words.length && words[i].equals("(")) {
            while (i < words.length && !words[i].equals(")")) {
                i++;
            }
            i++;
        }
        if (i < words.length && (words[i].equals(",") || tags[i].equals("AUX"))) {
            i++;
            while (i < words.length && (tags[i].equals("DET") || tags[i].equals("ADJ") || tags[i].equals("ADV")
                    || tags[i].equals("NUM"))) {
                i++;
            }
            for (int j = i; j < Math.min(words.length, i + 3) && (tags[j].equals("NOUN") || tags[j].equals("ADJ"));
                    j++) {
                String noun = words[j].toLowerCase(Locale.ROOT);
                String typed = TYPE_NOUNS.get(noun);
                if (typed != null) {
                    vote(sp.name(), typed, 2);
                }
                if (tags[j].equals("NOUN")) {
                    // "The Grey Gragostel, a sloop, …": "the sloop" is it from now on.
                    headNouns.put(noun, sp.name());
                }
            }
        }
        // "the island of Pharos", "the city of Ys": the noun before "of" says what the name is.
        if (sp.start() >= 2 && words[sp.start() - 1].equalsIgnoreCase("of") && tags[sp.start() - 2].equals("NOUN")
                && Vocabulary.PLACE.equals(TYPE_NOUNS.get(words[sp.start() - 2].toLowerCase(Locale.ROOT)))) {
            vote(sp.name(), Vocabulary.PLACE, 2);
        }
        int before = sp.start() - 1;
        while (before >= 0 && tags[before].equals("DET")) {
            before--;
        }
        if (before >= 0 && tags[before].equals("ADP") && Set.of("in", "at", "from", "near", "to")
                .contains(words[before].toLowerCase(Locale.ROOT))) {
            vote(sp.name(), Vocabulary.PLACE, 0.5);
        }
    }

    /** A pronoun or definite description at {@code i}, resolved to what it stands for; null when none is. */
    private Mention reference(String[] words, String[] tags, int i) {
        String w = words[i].toLowerCase(Locale.ROOT);
        if ((tags[i].equals("PRON") || tags[i].equals("DET")) && (PERSON_PRONOUNS.contains(w)
                || PLURAL_PRONOUNS.contains(w) || THING_PRONOUNS.contains(w))) {
            if (w.equals("it") && i + 1 < words.length && tags[i + 1].equals("AUX")
                    && (i + 2 >= words.length || !tags[i + 2].equals("VERB"))) {
                return null; // "It is likely that…": a placeholder, not a reference
            }
            // A subject ("she founded", "they took command") before the sentence's first verb, or a possessive
            // before a noun ("its board", "her ship"); an object pronoun ("thanked her") relates nothing here.
            boolean possessive = Set.of("his", "her", "its", "their").contains(w) && i + 1 < words.length
                    && (tags[i + 1].equals("NOUN") || tags[i + 1].equals("ADJ") || tags[i + 1].equals("PROPN"));
            boolean subject = Set.of("he", "she", "they", "it").contains(w) && firstVerbAfter(tags, i);
            if (!possessive && !subject) {
                return null;
            }
            // "They" stands for people or an organisation ("the keepers … they", "Acme said they"), never a place.
            String needs = PERSON_PRONOUNS.contains(w) ? Vocabulary.PERSON : THING_PRONOUNS.contains(w) ? "thing"
                    : "agent";
            String target = antecedent(needs);
            if (target != null && needs.equals(Vocabulary.PERSON)) {
                vote(target, Vocabulary.PERSON, 2);
            }
            return new Mention(i, i + 1, target != null ? target : Fact.DOCUMENT_SUBJECT, true, needs);
        }
        if (w.equals("the") && i + 1 < words.length && tags[i + 1].equals("NOUN")) {
            String noun = words[i + 1].toLowerCase(Locale.ROOT);
            String described = headNouns.get(noun);
            if (described != null) {
                return new Mention(i, i + 2, described, true, "");
            }
            String type = DESCRIPTIONS.getOrDefault(noun, TYPE_NOUNS.get(noun));
            if (type != null && !type.equals(Vocabulary.PERSON)) {
                String target = antecedent(type);
                return new Mention(i, i + 2, target != null ? target : Fact.DOCUMENT_SUBJECT, true, type);
            }
        }
        return null;
    }

    /** Whether no verb comes before token {@code i} in its sentence (a pronoun there is the subject). */
    private static boolean firstVerbAfter(String[] tags, int i) {
        for (int j = 0; j < i; j++) {
            if (tags[j].equals("VERB")) {
                return false;
            }
        }
        return true;
    }

    /**
     * What a pronoun or description standing for {@code needs} (a type, "thing": not a person, "agent": a person
     * or organisation, "": any) means: the
     * latest sentence subject that fits ("Maimore was located in Wurgate. It opened in 1797" — Maimore, not
     * Wurgate), else the latest mention that fits; null when none does.
     */
    private String antecedent(String needs) {
        String subject = latestFitting(subjects, needs);
        return subject != null ? subject : latestFitting(recent, needs);
    }

    private String latestFitting(List<String> names, String needs) {
        for (int i = names.size() - 1; i >= 0; i--) {
            String name = names.get(i);
            String type = typeOf(name);
            boolean fits = switch (needs) {
                case "" -> true;
                case "thing" -> !type.equals(Vocabulary.PERSON);
                case "agent" -> type.isEmpty() || type.equals(Vocabulary.PERSON)
                        || type.equals(Vocabulary.ORGANIZATION);
                case Vocabulary.PERSON -> type.equals(Vocabulary.PERSON) || type.isEmpty()
                        && name.trim().split("\\s+").length >= 2 && !Names.looksLikeName(name);
                default -> type.equals(needs) || type.isEmpty();
            };
            if (fits) {
                return name;
            }
        }
        return null;
    }

    private boolean isPlace(String name, String[] words, int start) {
        if (typeOf(name).equals(Vocabulary.PLACE)) {
            return true;
        }
        int before = start - 1;
        while (before >= 0 && (words[before].equalsIgnoreCase("the") || words[before].equalsIgnoreCase("a"))) {
            before--;
        }
        return typeOf(name).isEmpty() && before >= 0 && Set.of("in", "at", "near")
                .contains(words[before].toLowerCase(Locale.ROOT));
    }

    /** Whether only a coordination lies between two mentions: ", and the", "or", ",". */
    /**
     * Whether the mentions from {@code j} on close a list: joined by commas to one joined by "and" or "or" ("A, B and
     * C", "A, B, or C"). A lone comma is not a list: "in Umeå, Sweden", "Borealis, Marta's company".
     */
    private static boolean listGoesOn(String[] words, String[] tags, List<Mention> mentions, int j) {
        for (; j + 1 < mentions.size(); j++) {
            Mention b = mentions.get(j);
            Mention c = mentions.get(j + 1);
            if (b.name() == null || c.name() == null || !coordination(words, tags, b.end(), c.start())) {
                return false;
            }
            for (int k = b.end(); k < c.start(); k++) {
                String w = words[k].toLowerCase(Locale.ROOT);
                if (w.equals("and") || w.equals("or")) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean coordination(String[] words, String[] tags, int from, int to) {
        boolean joined = false;
        for (int i = from; i < to; i++) {
            String w = words[i].toLowerCase(Locale.ROOT);
            if (w.equals("and") || w.equals("or") || w.equals(",")) {
                joined = true;
            } else if (!tags[i].equals("DET") && !tags[i].equals("ADJ") && !tags[i].equals("NOUN")
                    && !tags[i].equals("NUM")) {
                return false;
            }
        }
        return joined;
    }

    private void vote(String name, String type, double weight) {
        if (name == null || type == null || type.isEmpty() || name.equals(Fact.DOCUMENT_SUBJECT)) {
            return;
        }
        votes.computeIfAbsent(Entity.key(name), k -> new HashMap<>()).merge(type, weight, Double::sum);
    }

    /** The type with the most votes, when it has at least 1.5 of them; else empty. */
    private String typeOf(String name) {
        Map<String, Double> v = votes.get(Entity.key(name));
        if (v == null) {
            return "";
        }
        return v.entrySet().stream().filter(e -> e.getValue() >= 1.5).max(Map.Entry.comparingByValue())
                .map(Map.Entry::getKey).orElse("");
    }

    Extraction extraction() {
        List<Entity> entities = new ArrayList<>();
        forms.forEach((key, name) -> entities.add(Entity.of(name, typeOf(name))));
        List<Fact> typed = facts.stream().map(this::typed).toList();
        return new Extraction(entities, typed, 0);
    }

    /**
     * A fact with its ends' types. "Came from", "came off the slips of" an organisation: it made the subject
     * (where a person comes from is where they were born, a place).
     */
    private Fact typed(Fact f) {
        String st = f.subject().equals(Fact.DOCUMENT_SUBJECT) ? "" : typeOf(f.subject());
        String ot = f.object().equals(Fact.DOCUMENT_SUBJECT) ? "" : typeOf(f.object());
        if (f.predicate().startsWith("come_") && ot.equals(Vocabulary.ORGANIZATION)) {
            return new Fact(f.object(), ot, Vocabulary.MAKES, f.subject(), st, f.properties());
        }
        return new Fact(f.subject(), st, f.predicate(), f.object(), ot, f.properties());
    }

    private static Map<String, String> typeNouns() {
        Map<String, String> m = new HashMap<>();
        for (String w : List.of("city", "town", "village", "port", "harbour", "region", "country", "river",
                "province", "county", "island", "capital", "suburb", "district", "state", "nation", "kingdom",
                "lake", "mountain", "valley", "bay", "peninsula", "continent", "citadel", "castle", "fortress",
                "palace", "cathedral", "temple", "bridge", "tower", "lighthouse", "airport", "station")) {
            m.put(w, Vocabulary.PLACE);
        }
        for (String w : List.of("company", "firm", "manufacturer", "maker", "business", "corporation", "yard",
                "shipyard", "museum", "gallery", "institute", "university", "school", "bank", "brand", "studio",
                "publisher", "agency", "charity", "foundation", "startup", "supplier", "organisation",
                "organization", "club", "team", "band", "label", "newspaper", "airline")) {
            m.put(w, Vocabulary.ORGANIZATION);
        }
        for (String w : List.of("engineer", "chemist", "economist", "architect", "physicist", "designer",
                "lawyer", "biologist", "entrepreneur", "mathematician", "painter", "writer", "author", "poet",
                "composer", "scientist", "teacher", "doctor", "captain", "sailor", "merchant", "banker",
                "politician", "actor", "actress", "singer", "artist", "sculptor", "philosopher", "historian",
                "explorer", "inventor", "farmer", "soldier", "officer", "pilot", "journalist", "geologist",
                "geophysicist", "astronomer", "professor", "founder", "shipwright", "patron", "collector",
                "navigator", "keeper", "director", "manager", "businessman", "businesswoman", "woman", "man")) {
            m.put(w, Vocabulary.PERSON);
        }
        for (String w : List.of("ship", "vessel", "schooner", "steamer", "brig", "frigate", "barque", "ketch",
                "clipper", "lugger", "sloop", "cutter", "whaler", "galleon", "yacht", "trawler", "ferry", "liner",
                "tanker", "barge", "smack", "packet", "tug", "submarine", "locomotive", "truck", "bicycle",
                "drone", "device", "instrument", "seismometer", "sensor", "model", "product", "car", "aircraft",
                "engine", "camera", "lens", "robot", "motor", "phone", "terminal", "headphone", "headphones",
                "inverter", "medicine", "drug", "vaccine", "software", "app", "tool", "machine", "logger", "spacecraft",
                "probe", "satellite", "telescope", "rocket", "lander", "rover", "microscope", "processor", "chip",
                "computer", "laptop", "console", "tablet", "compiler", "browser", "database", "vehicle",
                "tractor", "rifle", "watch", "printer", "reactor", "turbine", "pump", "valve")) {
            m.put(w, Vocabulary.PRODUCT);
        }
        for (String w : List.of("novel", "book", "painting", "poem", "song", "film", "album", "opera",
                "symphony", "portrait", "sculpture", "play", "essay", "canvas", "mural", "fresco", "study")) {
            m.put(w, Vocabulary.WORK);
        }
        for (String w : List.of("war", "battle", "festival", "fair", "conference", "expedition", "voyage",
                "storm", "election", "exhibition", "treaty", "race")) {
            m.put(w, Vocabulary.EVENT);
        }
        return Map.copyOf(m);
    }
}
