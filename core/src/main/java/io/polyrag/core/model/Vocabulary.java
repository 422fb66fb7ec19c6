package io.polyrag.core.model;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one vocabulary of the knowledge graph, shared by every extractor (the offline one and a language model's schema
 * mode) and by retrieval, so that a relation written by one is found by a question asked of the other.
 *
 * <ul>
 *   <li><b>Types</b>: {@link #PERSON}, {@link #ORGANIZATION}, {@link #PLACE}, {@link #PRODUCT}, {@link #WORK},
 *       {@link #EVENT}; empty when unknown.</li>
 *   <li><b>Predicates</b>: a small closed set for the relations questions most often hinge on — {@code founded},
 *       {@code makes}, {@code leads}, {@code works_at}, {@code located_in}, {@code born_in}, {@code part_of},
 *       {@code owns}, {@code created}, {@code holds}, {@code studied_at}, {@code member_of} — each with the verbs
 *       and nouns that say it ("set up", "established", "founder"); any other verb is kept as its lemma (with its
 *       preposition: {@code sit_on}), and {@link #RELATED_TO} only when no verb links two names.</li>
 * </ul>
 * Directions are fixed: {@code founded(person, organisation)}, {@code makes(organisation, product)},
 * {@code leads(person, organisation or vessel)}, {@code located_in(thing, place)}, {@code born_in(person, place)},
 * {@code created(person, work)}, {@code holds(organisation, work)}; a passive ("was founded by") is stored active.
 */
public final class Vocabulary {
    public static final String PERSON = "Person";
    public static final String ORGANIZATION = "Organization";
    public static final String PLACE = "Place";
    public static final String PRODUCT = "Product";
    public static final String WORK = "Work";
    public static final String EVENT = "Event";
    /** Every type, in the order a schema lists them. */
    public static final List<String> TYPES = List.of(PERSON, ORGANIZATION, PLACE, PRODUCT, WORK, EVENT);

    public static final String FOUNDED = "founded";
    public static final String MAKES = "makes";
    public static final String LEADS = "leads";
    public static final String WORKS_AT = "works_at";
    public static final String LOCATED_IN = "located_in";
    public static final String BORN_IN = "born_in";
    public static final String PART_OF = "part_of";
    public static final String OWNS = "owns";
    public static final String CREATED = "created";
    public static final String HOLDS = "holds";
    public static final String STUDIED_AT = "studied_at";
    public static final String MEMBER_OF = "member_of";
    public static final String DEPICTS = "depicts";
    /** Two names in one clause with no verb between them: the relation of last resort. */
    public static final String RELATED_TO = "related_to";
    /** The closed predicates, with the types of their two ends (empty: any). */
    public static final Map<String, List<String>> PREDICATES = Map.ofEntries(
            Map.entry(FOUNDED, List.of(PERSON, ORGANIZATION)), Map.entry(MAKES, List.of(ORGANIZATION, PRODUCT)),
            Map.entry(LEADS, List.of(PERSON, "")), Map.entry(WORKS_AT, List.of(PERSON, ORGANIZATION)),
            Map.entry(LOCATED_IN, List.of("", PLACE)), Map.entry(BORN_IN, List.of(PERSON, PLACE)),
            Map.entry(PART_OF, List.of("", "")), Map.entry(OWNS, List.of("", "")),
            Map.entry(CREATED, List.of(PERSON, WORK)), Map.entry(HOLDS, List.of(ORGANIZATION, WORK)),
            Map.entry(STUDIED_AT, List.of(PERSON, ORGANIZATION)), Map.entry(MEMBER_OF, List.of(PERSON, ORGANIZATION)),
            Map.entry(DEPICTS, List.of(WORK, "")));

    /** Verb lemmas (with a particle or preposition where it matters) and the closed predicate they state. */
    private static final Map<String, String> VERBS = Map.ofEntries(
            Map.entry("found", FOUNDED), Map.entry("co-found", FOUNDED), Map.entry("cofound", FOUNDED),
            Map.entry("establish", FOUNDED), Map.entry("set_up", FOUNDED), Map.entry("start", FOUNDED),
            Map.entry("create", FOUNDED), Map.entry("form", FOUNDED), Map.entry("incorporate", FOUNDED),
            Map.entry("launch", FOUNDED), Map.entry("open", FOUNDED),
            Map.entry("make", MAKES), Map.entry("manufacture", MAKES), Map.entry("produce", MAKES),
            Map.entry("build", MAKES), Map.entry("fabricate", MAKES), Map.entry("assemble", MAKES),
            Map.entry("construct", MAKES), Map.entry("sell", MAKES), Map.entry("supply", MAKES),
            Map.entry("launch_at", MAKES), Map.entry("launch_from", MAKES), Map.entry("launch_by", MAKES),
            Map.entry("build_at", MAKES), Map.entry("build_in", MAKES),
            Map.entry("lead", LEADS), Map.entry("head", LEADS), Map.entry("run", LEADS), Map.entry("direct", LEADS),
            Map.entry("chair", LEADS), Map.entry("manage", LEADS), Map.entry("command", LEADS),
            Map.entry("captain", LEADS), Map.entry("skipper", LEADS), Map.entry("govern", LEADS),
            Map.entry("work_at", WORKS_AT), Map.entry("work_for", WORKS_AT), Map.entry("work_in", WORKS_AT),
            Map.entry("join", WORKS_AT), Map.entry("employ", WORKS_AT), Map.entry("serve_at", WORKS_AT),
            Map.entry("locate", LOCATED_IN), Map.entry("base", LOCATED_IN), Map.entry("headquarter", LOCATED_IN),
            Map.entry("situate", LOCATED_IN), Map.entry("sit_in", LOCATED_IN), Map.entry("lie_in", LOCATED_IN),
            Map.entry("stand_in", LOCATED_IN), Map.entry("house_in", LOCATED_IN),
            Map.entry("bear", BORN_IN), Map.entry("bear_in", BORN_IN), Map.entry("grow_up_in", BORN_IN),
            Map.entry("belong_to", PART_OF),
            Map.entry("own", OWNS), Map.entry("acquire", OWNS), Map.entry("buy", OWNS), Map.entry("purchase", OWNS),
            Map.entry("write", CREATED), Map.entry("paint", CREATED), Map.entry("compose", CREATED),
            Map.entry("author", CREATED), Map.entry("sculpt", CREATED), Map.entry("draw", CREATED),
            Map.entry("design", CREATED),
            Map.entry("hold", HOLDS), Map.entry("house", HOLDS), Map.entry("exhibit", HOLDS),
            Map.entry("display", HOLDS), Map.entry("keep", HOLDS), Map.entry("acquire_for", HOLDS),
            Map.entry("study_at", STUDIED_AT), Map.entry("study_in", STUDIED_AT), Map.entry("graduate_from", STUDIED_AT),
            Map.entry("attend", STUDIED_AT), Map.entry("train_at", STUDIED_AT),
            Map.entry("depict", DEPICTS), Map.entry("portray", DEPICTS), Map.entry("show", DEPICTS),
            Map.entry("represent", DEPICTS), Map.entry("complete", MAKES));

    /**
     * Nouns of a role ("the founder of X", "X's chief executive") and the predicate whose subject the role's holder
     * is. Several words join with a space.
     */
    private static final Map<String, String> ROLES = Map.ofEntries(
            Map.entry("founder", FOUNDED), Map.entry("co-founder", FOUNDED), Map.entry("cofounder", FOUNDED),
            Map.entry("maker", MAKES), Map.entry("manufacturer", MAKES), Map.entry("producer", MAKES),
            Map.entry("builder", MAKES), Map.entry("supplier", MAKES),
            Map.entry("chief executive", LEADS), Map.entry("ceo", LEADS), Map.entry("head", LEADS),
            Map.entry("leader", LEADS), Map.entry("director", LEADS), Map.entry("chair", LEADS),
            Map.entry("chairman", LEADS), Map.entry("chairwoman", LEADS), Map.entry("president", LEADS),
            Map.entry("captain", LEADS), Map.entry("commander", LEADS), Map.entry("master", LEADS),
            Map.entry("manager", LEADS), Map.entry("command", LEADS), Map.entry("owner", OWNS),
            Map.entry("native", BORN_IN),
            Map.entry("employee", WORKS_AT), Map.entry("author", CREATED), Map.entry("painter", CREATED),
            Map.entry("writer", CREATED), Map.entry("composer", CREATED), Map.entry("creator", CREATED),
            Map.entry("designer", CREATED), Map.entry("architect", CREATED),
            Map.entry("member", MEMBER_OF), Map.entry("part", PART_OF), Map.entry("division", PART_OF),
            Map.entry("subsidiary", PART_OF), Map.entry("branch", PART_OF), Map.entry("graduate", STUDIED_AT),
            Map.entry("alumnus", STUDIED_AT), Map.entry("alumna", STUDIED_AT), Map.entry("student", STUDIED_AT),
            Map.entry("portrait", DEPICTS), Map.entry("picture", DEPICTS), Map.entry("painting", DEPICTS),
            Map.entry("image", DEPICTS), Map.entry("view", DEPICTS), Map.entry("depiction", DEPICTS));

    /**
     * Words a question uses to ask about a predicate, as they are written (inflected forms included), beyond the
     * verbs and role nouns above: "Where is X based", "X's headquarters", "When was X established".
     */
    private static final Map<String, String> QUESTION_WORDS = Map.ofEntries(
            Map.entry("founded", FOUNDED), Map.entry("founding", FOUNDED), Map.entry("established", FOUNDED),
            Map.entry("establishment", FOUNDED), Map.entry("started", FOUNDED), Map.entry("created", FOUNDED),
            Map.entry("formed", FOUNDED), Map.entry("set", FOUNDED),
            Map.entry("makes", MAKES), Map.entry("made", MAKES), Map.entry("making", MAKES),
            Map.entry("manufactures", MAKES), Map.entry("manufactured", MAKES), Map.entry("produces", MAKES),
            Map.entry("produced", MAKES), Map.entry("producing", MAKES), Map.entry("builds", MAKES),
            Map.entry("built", MAKES), Map.entry("products", MAKES), Map.entry("product", MAKES),
            Map.entry("sells", MAKES), Map.entry("launched at", MAKES),
            Map.entry("leads", LEADS), Map.entry("led", LEADS), Map.entry("heads", LEADS), Map.entry("runs", LEADS),
            Map.entry("commanded", LEADS), Map.entry("commands", LEADS), Map.entry("captained", LEADS),
            Map.entry("directs", LEADS), Map.entry("managed", LEADS), Map.entry("executive", LEADS),
            Map.entry("skippered", LEADS),
            Map.entry("works", WORKS_AT), Map.entry("worked", WORKS_AT), Map.entry("employs", WORKS_AT),
            Map.entry("employed", WORKS_AT), Map.entry("joined", WORKS_AT),
            Map.entry("located", LOCATED_IN), Map.entry("based", LOCATED_IN), Map.entry("headquartered", LOCATED_IN),
            Map.entry("headquarters", LOCATED_IN), Map.entry("situated", LOCATED_IN), Map.entry("home", LOCATED_IN),
            Map.entry("stand", LOCATED_IN), Map.entry("stands", LOCATED_IN), Map.entry("stood", LOCATED_IN),
            Map.entry("lie", LOCATED_IN), Map.entry("lies", LOCATED_IN), Map.entry("lay", LOCATED_IN),
            Map.entry("sit", LOCATED_IN), Map.entry("sits", LOCATED_IN), Map.entry("sat", LOCATED_IN),
            Map.entry("born", BORN_IN), Map.entry("birthplace", BORN_IN), Map.entry("native", BORN_IN),
            Map.entry("owns", OWNS), Map.entry("owned", OWNS), Map.entry("acquired", OWNS), Map.entry("bought", OWNS),
            Map.entry("wrote", CREATED), Map.entry("written", CREATED), Map.entry("painted", CREATED),
            Map.entry("composed", CREATED), Map.entry("designed", CREATED), Map.entry("authored", CREATED),
            Map.entry("holds", HOLDS), Map.entry("held", HOLDS), Map.entry("houses", HOLDS),
            Map.entry("housed", HOLDS), Map.entry("exhibits", HOLDS), Map.entry("displays", HOLDS),
            Map.entry("collection", HOLDS), Map.entry("studied", STUDIED_AT), Map.entry("graduated", STUDIED_AT),
            Map.entry("attended", STUDIED_AT), Map.entry("member", MEMBER_OF), Map.entry("hangs", HOLDS),
            Map.entry("hang", HOLDS), Map.entry("hung", HOLDS), Map.entry("completed", MAKES),
            Map.entry("depicts", DEPICTS), Map.entry("depicted", DEPICTS), Map.entry("shows", DEPICTS),
            Map.entry("shown", DEPICTS));

    /** Irregular past forms a question writes, with their verb: "Who led…", "the painting kept in…". */
    private static final Map<String, String> IRREGULAR = Map.ofEntries(Map.entry("made", "make"),
            Map.entry("led", "lead"), Map.entry("built", "build"), Map.entry("sold", "sell"),
            Map.entry("bought", "buy"), Map.entry("wrote", "write"), Map.entry("written", "write"),
            Map.entry("held", "hold"), Map.entry("ran", "run"), Map.entry("kept", "keep"), Map.entry("drew", "draw"),
            Map.entry("drawn", "draw"), Map.entry("born", "bear"), Map.entry("borne", "bear"),
            Map.entry("grew", "grow"), Map.entry("began", "start"), Map.entry("begun", "start"),
            Map.entry("set", "set"), Map.entry("took", "take"), Map.entry("taken", "take"));
    /** Nouns of "in which … is X?": a question asking where X is. */
    private static final Set<String> PLACE_NOUNS = Set.of("city", "town", "port", "place", "country", "region",
            "harbour", "harbor", "province", "village", "county", "state");
    /** Question words that ask about more than one predicate: a ship "launched" was built, a company founded. */
    private static final Map<String, Set<String>> AMBIGUOUS = Map.of(
            "launched", Set.of(FOUNDED, MAKES), "launch", Set.of(FOUNDED, MAKES), "launches", Set.of(FOUNDED, MAKES),
            "started", Set.of(FOUNDED, WORKS_AT), "opened", Set.of(FOUNDED, LOCATED_IN),
            "came", Set.of(MAKES, BORN_IN), "come", Set.of(MAKES, BORN_IN), "comes", Set.of(MAKES, BORN_IN));

    private Vocabulary() {
    }

    /**
     * The predicate a verb states: a closed one when the lemma (with its particle or preposition, {@code set_up},
     * {@code work_at}) says one, else the lemma itself with the preposition after it ({@code sit_on}).
     *
     * @param lemma the verb's lemma, lower case
     * @param preposition the particle or preposition right after the verb, or empty
     */
    public static String predicate(String lemma, String preposition) {
        String verb = lemma.toLowerCase(Locale.ROOT);
        String prep = preposition == null ? "" : preposition.toLowerCase(Locale.ROOT);
        if (!prep.isEmpty() && VERBS.containsKey(verb + "_" + prep)) {
            return VERBS.get(verb + "_" + prep);
        }
        if (VERBS.containsKey(verb)) {
            return VERBS.get(verb);
        }
        return prep.isEmpty() ? verb : verb + "_" + prep;
    }

    /** The predicate a role noun's holder is the subject of ("founder" → {@code founded}); null for other nouns. */
    public static String role(String noun) {
        return ROLES.get(noun.toLowerCase(Locale.ROOT));
    }

    private static final Set<String> NUMBER_WORDS = Set.of("zero", "one", "two", "three", "four", "five", "six",
            "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
            "seventeen", "eighteen", "nineteen", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty",
            "ninety", "hundred", "thousand", "million", "billion", "first", "second", "third", "fourth", "fifth",
            "sixth", "seventh", "eighth", "ninth", "tenth", "dozen", "half", "quarter");
    private static final Set<String> ERA_MARKS = Set.of("bc", "ad", "bce", "ce", "b.c", "a.d", "b.c.", "a.d.",
            "b.c.e", "c.e", "am", "pm", "a.m", "p.m");

    /** Whether a word is an era or time-of-day mark ("BC", "a.d.", "pm"). */
    public static boolean eraMark(String word) {
        return ERA_MARKS.contains(word.toLowerCase(Locale.ROOT));
    }

    /** A word that names no entity on its own: a numeral or number word, an era mark, a lone mark. */
    public static boolean numeric(String word) {
        String w = word.toLowerCase(Locale.ROOT);
        return NUMBER_WORDS.contains(w) || ERA_MARKS.contains(w) || w.chars().allMatch(c -> Character.isDigit(c)
                || c == ',' || c == '.') || w.length() == 1 && !Character.isLetterOrDigit(w.charAt(0));
    }

    /**
     * Whether every word of an entity key is {@link #numeric}: a year, a quantity, "280 BC", "Seven" — no entity,
     * whichever extractor found it (a year kept as one joined every document mentioning it).
     */
    public static boolean allNumeric(String key) {
        String[] words = key.split(" ");
        boolean number = false;
        for (int i = 0; i < words.length; i++) {
            String w = words[i];
            boolean afterNumber = i > 0 && numeric(words[i - 1]);
            number |= numeric(w) || digitsWithUnit(w);
            // A date ("March 15", "Monday 3 June"), a quantity with its unit ("16 GB", "16gb", "5 km") or an
            // ordinal ("2nd"): each one entity joining every document that mentions it, the hubs this check keeps out.
            if (!numeric(w) && !CALENDAR.contains(w) && !digitsWithUnit(w) && !(afterNumber && UNITS.contains(w))) {
                return false;
            }
        }
        // A month that is also a name ("May", "June", "DEC") alone is kept: a date needs its number then. A weekday
        // or another month alone ("Monday", "January") is no name, and joined every document naming it.
        return number || Arrays.stream(words).noneMatch(CALENDAR_NAMES::contains);
    }

    private static final Set<String> CALENDAR = Set.of("january", "february", "march", "april", "may", "june",
            "july", "august", "september", "october", "november", "december", "jan", "feb", "mar", "apr", "jun",
            "jul", "aug", "sep", "sept", "oct", "nov", "dec", "monday", "tuesday", "wednesday", "thursday", "friday",
            "saturday", "sunday");
    private static final Set<String> CALENDAR_NAMES = Set.of("may", "june", "april", "august", "jan", "dec", "mar");
    /** Units and currencies written after a number: "16 GB", "40 USD". Alone, "GB" may be Great Britain. */
    private static final Set<String> UNITS = Set.of("kb", "mb", "gb", "tb", "pb", "kib", "mib", "gib", "tib", "mm",
            "cm", "m", "km", "mi", "ft", "in", "g", "kg", "mg", "t", "lb", "lbs", "oz", "ml", "l", "s", "ms", "h",
            "hz", "khz", "mhz", "ghz", "w", "kw", "mw", "gw", "kwh", "mwh", "v", "mah", "usd", "eur", "gbp", "jpy",
            "chf", "cny", "inr", "percent", "pct", "degrees", "k", "bn");
    private static final Set<String> ORDINALS = Set.of("st", "nd", "rd", "th", "x");
    private static final Pattern DIGITS_THEN_LETTERS = Pattern.compile("\\d[\\d.,]*([a-z]+)");

    /**
     * Digits with an ordinal or a unit of two letters or more in one word: 2nd, 3rd, 10x, 16gb, 5km. Not one letter:
     * "3M" and "5G" name things.
     */
    private static boolean digitsWithUnit(String word) {
        Matcher m = DIGITS_THEN_LETTERS.matcher(word);
        return m.matches() && (ORDINALS.contains(m.group(1))
                || m.group(1).length() > 1 && UNITS.contains(m.group(1)));
    }

    /**
     * A predicate as written by someone else (a language model, an older extractor: {@code founded_by},
     * {@code Manufactures}, {@code work_at}) in this vocabulary, with whether its ends must be swapped to read it
     * actively. Unknown predicates are kept, lower case with underscores.
     */
    public static Canonical canonical(String written) {
        // Letters of any script: "gründete" was "gr_ndete", "创立" nothing at all (related_to), and a schema's
        // "arbeitet_für" was stored as "arbeitet_f_r", which no query by the schema's name matched.
        // Marks too ("स्थापित" was "स_थ_प_त", Thai "ก่อตั้ง" "ก_อต_ง"), as entity keys keep them.
        String p = written == null ? "" : written.strip().toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{M}\\p{N}]+", "_")
                .replaceAll("^_|_$", "");
        if (p.isEmpty()) {
            return new Canonical(RELATED_TO, false);
        }
        if (PREDICATES.containsKey(p) || p.equals(RELATED_TO)) {
            return new Canonical(p, false);
        }
        boolean passive = p.endsWith("_by");
        String base = passive ? p.substring(0, p.length() - 3) : p;
        String[] parts = base.split("_", 2);
        String head = stem(parts[0]);
        String found = VERBS.get(parts.length > 1 ? head + "_" + parts[1] : head);
        found = found != null ? found : VERBS.get(head);
        found = found != null ? found : ROLES.get(base.replace('_', ' '));
        found = found != null ? found : QUESTION_WORDS.get(parts[0]);
        if (found == null) {
            return new Canonical(p, false);
        }
        return new Canonical(found, passive);
    }

    /** A predicate in this vocabulary, and whether the relation as written runs the other way. */
    public record Canonical(String predicate, boolean inverted) {
    }

    /** Crude verb stem for {@link #canonical}: "founded" → found, "manufactures" → manufacture, "makes" → make. */
    private static String stem(String w) {
        if (VERBS.containsKey(w)) {
            return w;
        }
        for (String suffix : new String[] {"ed", "es", "s", "ing"}) {
            if (w.endsWith(suffix)) {
                String base = w.substring(0, w.length() - suffix.length());
                if (VERBS.containsKey(base)) {
                    return base;
                }
                if (VERBS.containsKey(base + "e")) {
                    return base + "e";
                }
            }
        }
        return w;
    }

    /**
     * The closed predicates a question asks about, from its words: "Who founded the company that makes the
     * Kestrel-9?" asks about {@code founded} and {@code makes}; "Where is the maker of X headquartered?" about
     * {@code makes} and {@code located_in}.
     */
    public static Set<String> asked(String question) {
        return asking(question).predicates();
    }

    /**
     * What a question asks: the closed predicates, and how many of its words or phrases ask one ("came" asks about
     * {@code makes} or {@code born_in}, one ask; "Who founded the yard that built X?" two). A question with two asks
     * or more asks about a chain of relations.
     */
    public record Asking(Set<String> predicates, int asks) {
    }

    /** The predicates a question asks about, and how many asks it makes ({@link Asking}). */
    public static Asking asking(String question) {
        Set<String> out = new LinkedHashSet<>();
        int asks = 0;
        boolean placeAsked = false;
        String q = question.toLowerCase(Locale.ROOT);
        String[] words = q.split("[^\\p{L}\\p{N}'-]+");
        for (int i = 0; i < words.length; i++) {
            String w = words[i].replaceAll("'s$", "");
            int before = out.size();
            if ((w.equals("which") || w.equals("what")) && i + 1 < words.length && PLACE_NOUNS.contains(words[i + 1])
                    && i > 0 && words[i - 1].equals("in")) {
                out.add(LOCATED_IN); // "In which port is the yard…?"
                placeAsked = true;
            }
            String two = i + 1 < words.length ? w + " " + words[i + 1] : "";
            if (ROLES.containsKey(two)) {
                out.add(ROLES.get(two));
            }
            if (w.equals("set") && i + 1 < words.length && words[i + 1].equals("up")) {
                out.add(FOUNDED);
            } else if (AMBIGUOUS.containsKey(w)) {
                out.addAll(AMBIGUOUS.get(w));
            } else if (QUESTION_WORDS.containsKey(w) && !w.equals("set")) {
                out.add(QUESTION_WORDS.get(w));
            } else if (ROLES.containsKey(w)) {
                out.add(ROLES.get(w));
            } else if (VERBS.containsKey(stem(w))) {
                out.add(VERBS.get(stem(w)));
            } else if (IRREGULAR.containsKey(w) && VERBS.containsKey(IRREGULAR.get(w))) {
                out.add(VERBS.get(IRREGULAR.get(w)));
            }
            if (out.size() > before) {
                asks++;
            }
        }
        // "In what port was X born?" asks one relation: the place noun names the kind of answer born_in already
        // leads to. Only when no other asked relation ends at a place is it an ask of its own ("In which port is the
        // yard that built X?").
        if (placeAsked && out.stream().anyMatch(p -> !p.equals(LOCATED_IN) && PREDICATES.containsKey(p)
                && PREDICATES.get(p).get(1).equals(PLACE))) {
            asks--;
            out.remove(LOCATED_IN);
        }
        return new Asking(out, asks);
    }

    /** Whether {@code predicate} is one of the closed predicates (not a lemma kept as it was, nor related_to). */
    public static boolean closed(String predicate) {
        return PREDICATES.containsKey(predicate);
    }
}
