package io.polyrag.model.opennlp;

import io.polyrag.core.model.Entity;
import io.polyrag.core.model.Vocabulary;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Names in a tagged sentence, and what their own words say of their type.
 *
 * <p>A name is a maximal run of capitalised proper nouns ({@code PROPN}, or words mixing letters and digits:
 * "Kestrel-9", "ALDH1"), which may hold a lower-case connector between two of them ("University of Paris"), tokens
 * glued to it ("S-22") and a model number after it ("Bedruk 300"). Not names: numerals and number words ("Seven",
 * "280"), era marks ("BC", "AD"), months and weekdays, a lone generic word ("River", "Institute"), anything that looks
 * like code ({@code String::from}, {@code snake_case}, {@code a.b.c}), and a run of one letter.
 */
final class Names {
    private static final Set<String> CONNECTORS = Set.of("of", "de", "du", "des", "la", "le", "von", "van", "der",
            "den", "di", "da", "del", "y", "&", "on", "upon");
    static final Set<String> ORGANISATION_WORDS = Set.of("inc", "corp", "corporation", "company", "co", "ltd", "llc",
            "gmbh", "plc", "ag", "sa", "university", "institute", "college", "school", "laboratory", "laboratories",
            "lab", "labs", "society", "academy", "association", "agency", "bank", "group", "foundation", "council",
            "ministry", "department", "museum", "gallery", "library", "hospital", "church", "party", "committee",
            "commission", "union", "organization", "organisation", "club", "team", "press", "times", "observatory",
            "centre", "center", "instruments", "systems", "technologies", "technology", "industries", "holdings",
            "partners", "capital", "media", "studios", "studio", "pharma", "pharmaceuticals", "robotics", "dynamics",
            "energy", "electronics", "software", "networks", "logistics", "motors", "airlines", "airways", "yards",
            "yard", "shipyard", "shipyards", "works", "mills", "brewery", "publishing", "publishers", "foods",
            "shipworks", "dockyard", "dockyards", "boatyard", "ironworks", "foundry", "distillery", "factory",
            "textiles", "optics", "marine", "audio", "trust", "fund", "orchestra", "theatre", "theater", "line",
            "lines", "railway", "railways", "navy", "army", "guild", "board", "court", "parliament", "senate",
            "office", "bureau", "service", "services", "federation", "league", "alliance");
    static final Set<String> PLACE_WORDS = Set.of("city", "river", "lake", "mount", "mountain", "mountains", "port",
            "island", "islands", "isle", "bay", "harbour", "harbor", "valley", "county", "province", "region",
            "street", "road", "square", "sea", "ocean", "strait", "cape", "coast", "peninsula", "desert", "forest",
            "state", "kingdom", "republic", "district", "canal", "gulf", "falls", "heights", "springs", "town",
            "citadel", "castle", "fort", "fortress", "palace", "cathedral", "abbey", "temple", "bridge", "tower",
            "lighthouse", "park", "airport", "station");
    static final Set<String> EVENT_WORDS = Set.of("war", "battle", "festival", "fair", "games", "olympics",
            "conference", "expedition", "voyage", "treaty", "revolution", "summit", "exhibition", "championship",
            "cup", "siege", "crisis", "election", "congress");
    static final Set<String> PERSON_TITLES = Set.of("mr", "mrs", "ms", "miss", "dr", "prof", "professor", "sir",
            "lady", "lord", "madame", "monsieur", "captain", "capt", "inspector", "doctor", "king", "queen", "prince",
            "princess", "duke", "duchess", "count", "countess", "saint", "general", "admiral", "colonel", "major",
            "lieutenant", "judge", "senator", "president", "bishop", "father", "sister", "brother", "uncle", "aunt");
    static final Set<String> GENERIC = Set.of("river", "lake", "mount", "street", "road", "island", "region", "city",
            "north", "south", "east", "west", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
            "sunday", "january", "february", "march", "april", "may", "june", "july", "august", "september",
            "october", "november", "december", "university", "institute", "company", "group", "bank", "museum",
            "hospital", "school", "college", "council", "department", "ministry", "centre", "center", "yard",
            "yards", "gallery", "port", "sea", "state", "king", "queen", "captain", "god", "lord", "internet", "web",
            "english", "french", "german", "spanish", "italian", "latin", "greek", "today", "tomorrow", "yesterday",
            "ok", "faq", "pdf", "html", "api", "url", "id", "note", "notes", "table", "figure", "chapter", "section",
            "appendix", "introduction", "summary", "conclusion", "abstract", "methods", "results");
    /** A model number or code after a name: 300, 7S, X2, S (then glued: S-22). Not a year-like 4-digit number. */
    static final Pattern MODEL_NUMBER = Pattern.compile("\\d{1,3}[A-Za-z]{0,3}|[A-Z]{1,3}\\d+[A-Za-z\\d]*|[A-Z]{1,2}");
    /** A capitalised word mixing letters and digits: "Velkro-80", "ALDH1", "X2", "Kestrel-9". */
    private static final Pattern CODE = Pattern.compile(
            "\\p{Lu}[\\p{L}\\d]*(-?\\d[\\p{L}\\d]*)+|\\p{Lu}[\\p{L}]*-\\p{Lu}[\\p{L}\\d]*");
    private static final Pattern PROGRAM_TOKEN = Pattern.compile(".*(::|->|=>|\\(|\\)|\\{|}|<|>|=|_|\\\\|/|\\.\\p{L}).*");
    /** Initials ("U.S.", "J.R.R.") look like a dotted path but are a name's. */
    private static final Pattern INITIALS = Pattern.compile("(\\p{Lu}\\.)+\\p{Lu}?\\.?");

    private Names() {
    }

    /** A name found in a sentence: tokens [start, end), its text, and its type as its own words say (or empty). */
    record Span(int start, int end, String name, String type) {
    }

    /** The names of a tagged sentence, left to right. */
    static List<Span> find(String[] words, String[] tags, boolean[] glued) {
        return find(words, tags, glued, new boolean[words.length]);
    }

    /** The names of a tagged sentence, left to right; no name runs across a token that opens a line. */
    static List<Span> find(String[] words, String[] tags, boolean[] glued, boolean[] opens) {
        List<Span> out = new ArrayList<>();
        int i = 0;
        while (i < words.length) {
            boolean abbreviation = words[i].length() >= 2 && words[i].chars().allMatch(c -> Character.isUpperCase(c)
                    || Character.isDigit(c)) && words[i].chars().anyMatch(Character::isLetter);
            if (!isName(words[i], tags[i]) && !abbreviation && (opens[i] || !capitalised(words[i], tags[i])
                    || tags[i].equals("ADJ"))) {
                // A capitalised noun inside a sentence is a name whatever the tagger says: English capitalises no
                // common noun there, and the tagger reads unknown names ("of Realgate") as nouns.
                i++;
                continue;
            }
            int start = i;
            // A capitalised adjective or noun just before, inside the sentence, begins the name: "the Restless
            // Lestune", "the Eastern Kerrery" (the tagger reads "Restless" as an adjective).
            // Not a sentence's first word that begins no name ("Yesterday Borealis Instruments announced…").
            while (start > 0 && !opens[start] && capitalised(words[start - 1], tags[start - 1])
                    && !(opens[start - 1] && OPENERS.contains(words[start - 1].toLowerCase(Locale.ROOT)))
                    && (out.isEmpty() || out.getLast().end() < start - 1)) {
                start--;
            }
            int end = i + 1;
            while (end < words.length && !opens[end]) {
                if (isName(words[end], tags[end]) || gluedPart(words, glued, end) || capitalised(words[end],
                        tags[end])) {
                    end++;
                } else if (end + 1 < words.length && CONNECTORS.contains(words[end].toLowerCase(Locale.ROOT))
                        && isName(words[end + 1], tags[end + 1])) {
                    end += 2;
                } else if (end + 2 < words.length && CONNECTORS.contains(words[end].toLowerCase(Locale.ROOT))
                        && words[end + 1].equals("the") && (isName(words[end + 2], tags[end + 2])
                        || capitalised(words[end + 2], tags[end + 2]))) {
                    end += 3; // "Museum of the Sea", "Wonders of the Ancient World"
                } else {
                    break;
                }
            }
            if (end < words.length && !opens[end] && !glued[end] && MODEL_NUMBER.matcher(words[end]).matches()
                    && !tags[end].equals("PRON") && !Vocabulary.eraMark(words[end])) {
                end++;
                while (end < words.length && gluedPart(words, glued, end)) {
                    end++;
                }
            }
            i = end;
            // Era marks and number words at either end, and numbers before it, are not part of a name ("280 BC",
            // "Seven" of "Seven Wonders"); a number after it is its model ("Bedruk 300", "Kroar S-22").
            while (start < end && junk(words[start])) {
                start++;
            }
            while (end > start && junk(words[end - 1]) && !words[end - 1].chars().allMatch(Character::isDigit)) {
                end--;
            }
            if (start >= end || looksLikeCode(words, start, end)) {
                continue;
            }
            String name = join(words, glued, start, end);
            String key = Entity.key(name);
            if (!reference(words, start, end, key) && key.length() >= 2 && key.chars().anyMatch(Character::isLetter)
                    && !(end - start == 1 && GENERIC.contains(key)) && !allNumbers(key)) {
                out.add(new Span(start, end, name, type(words, start, end)));
            }
        }
        return out;
    }

    /**
     * A document's own parts and reporting periods: "Figure 2", "Table 3", "Section 4.1", "Appendix B", "Q3",
     * "FY2023". Equal keys are one entity across documents, so each was a hub joining every report that has one.
     */
    private static boolean reference(String[] words, int start, int end, String key) {
        if (PERIOD.matcher(key).matches()) {
            return true;
        }
        if (end - start < 2 || !STRUCTURE.contains(words[start].toLowerCase(Locale.ROOT).replace(".", ""))) {
            return false;
        }
        for (int i = start + 1; i < end; i++) {
            if (!MODEL_NUMBER.matcher(words[i]).matches() && !words[i].matches("[\\d.]+|[ivxlcIVXLC]+|[-–]")) {
                return false;
            }
        }
        return true;
    }

    private static final Set<String> STRUCTURE = Set.of("figure", "fig", "figs", "table", "tab", "section", "sec",
            "chapter", "ch", "appendix", "annex", "page", "pp", "step", "part", "volume", "vol", "equation", "eq",
            "lemma", "theorem", "definition", "corollary", "proposition", "note", "footnote", "version", "item",
            "exhibit", "schedule", "clause", "article", "paragraph", "para", "slide", "listing", "algorithm",
            "example", "exercise", "question", "box", "panel", "plate", "map", "chart", "row", "column", "line");
    /** Quarters, halves and fiscal or calendar years: q3, h1, fy2023, cy24. */
    private static final Pattern PERIOD = Pattern.compile("(q[1-4]|h[12]|fy\\s?\\d{2,4}|cy\\s?\\d{2,4})( \\d{2,4})?");
    /** Sentence-opening words that begin no name: a sentence's first word is joined to a name only if it is not one. */
    private static final Set<String> OPENERS = Set.of("yesterday", "today", "tomorrow", "tonight", "last", "next",
            "every", "each", "former", "current", "several", "both", "other", "another", "such", "recently",
            "meanwhile", "however", "later", "earlier", "then", "now", "here", "there", "this", "that", "these",
            "those", "our", "their", "his", "her", "its", "my", "your", "many", "most", "some", "all", "few", "no");

    /** A word that is never part of a name: a numeral or number word, an era mark, a lone letter. */
    static boolean junk(String word) {
        return Vocabulary.numeric(word);
    }

    private static boolean allNumbers(String key) {
        return Vocabulary.allNumeric(key);
    }

    /** Tokens of a program (a path, an operator, snake_case, a call): a name never holds them. */
    private static boolean looksLikeCode(String[] words, int start, int end) {
        for (int i = start; i < end; i++) {
            if (PROGRAM_TOKEN.matcher(words[i]).matches() && !INITIALS.matcher(words[i]).matches()) {
                return true;
            }
        }
        return false;
    }

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
        // A sentence's full stop the tokenizer left on its last word ("orbit the Sun."), not an abbreviation's
        // ("Acme Inc.", "U.S.").
        String last = words[end - 1];
        if (last.length() > 2 && last.endsWith(".") && !INITIALS.matcher(last).matches()
                && !ABBREVIATIONS.contains(last.substring(0, last.length() - 1).toLowerCase(Locale.ROOT))) {
            b.setLength(b.length() - 1);
        }
        return b.toString();
    }

    private static final Set<String> ABBREVIATIONS = Set.of("inc", "co", "corp", "ltd", "jr", "sr", "st", "bros",
            "no", "dr", "mr", "mrs", "ms", "prof", "mt", "ft");

    /**
     * A capitalised common noun or adjective after a name, inside a sentence: part of the name ("Borealis
     * Instruments", which the tagger reads as a proper noun and a noun).
     */
    private static boolean capitalised(String word, String tag) {
        return (tag.equals("NOUN") || tag.equals("ADJ")) && word.length() > 1 && Character.isUpperCase(
                word.codePointAt(0)) && !Vocabulary.eraMark(word);
    }

    /** A capitalised proper noun, or a capitalised word mixing letters and digits. */
    static boolean isName(String word, String tag) {
        return !word.isEmpty() && Character.isUpperCase(word.codePointAt(0))
                && (tag.equals("PROPN") || CODE.matcher(word).matches())
                && !Vocabulary.eraMark(word);
    }

    /** Whether a word is written like a name in any position: with digits, or in capitals. */
    static boolean looksLikeName(String name) {
        return name.chars().anyMatch(Character::isDigit)
                || name.length() >= 2 && name.chars().filter(Character::isLetter).allMatch(Character::isUpperCase);
    }

    /** The type a name's own words (and a title before it) say, or empty. */
    static String type(String[] words, int start, int end) {
        String before = start > 0 ? words[start - 1].toLowerCase(Locale.ROOT).replace(".", "") : "";
        String first = words[start].toLowerCase(Locale.ROOT).replace(".", "");
        if (PERSON_TITLES.contains(before) || PERSON_TITLES.contains(first) && end - start > 1) {
            return Vocabulary.PERSON;
        }
        String last = words[end - 1].toLowerCase(Locale.ROOT).replace(".", "");
        for (int i = start; i < end; i++) {
            String w = words[i].toLowerCase(Locale.ROOT).replace(".", "");
            if (ORGANISATION_WORDS.contains(w)) {
                return Vocabulary.ORGANIZATION;
            }
            if (EVENT_WORDS.contains(w)) {
                return Vocabulary.EVENT;
            }
        }
        if (PLACE_WORDS.contains(first) || PLACE_WORDS.contains(last)) {
            return Vocabulary.PLACE;
        }
        if (words[end - 1].chars().anyMatch(Character::isDigit)) {
            return Vocabulary.PRODUCT;
        }
        return "";
    }
}
