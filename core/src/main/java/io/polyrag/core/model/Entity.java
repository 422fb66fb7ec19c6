package io.polyrag.core.model;

import java.text.Normalizer;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A named thing in the knowledge graph, shared by every document that mentions it.
 *
 * @param id the entity's key: its canonical name normalised by {@link #key(String)}; equal keys are one entity
 * @param name the display name (the longest form seen in the first document that introduced it)
 * @param type the entity's type, or empty when the extractor does not know it
 * @param aliases other names it was called by (normalised keys), so a query naming an alias still finds it
 */
public record Entity(String id, String name, String type, List<String> aliases) {
    /** A stored name in a tenant's namespace: {@code tenant/name} (see {@link Tenant#namespace()}). */
    private static final Pattern NAMESPACED = Pattern.compile("([a-z0-9][a-z0-9_-]{0,39})/(.*)", Pattern.DOTALL);
    /** Not part of a word: marks are (a Devanagari vowel sign as a space made "राम" and "रोम" one key). */
    private static final Pattern NON_WORD = Pattern.compile("[^\\p{L}\\p{M}\\p{N}]+");
    private static final Pattern POSSESSIVE = Pattern.compile("['\u2019]s\\b");
    /**
     * Titles dropped from the front of a name: "Mr. Holmes" and "Holmes" are one name. Not "St."/"Saint", which
     * begin places more often than they title a person: "St. Louis" was "louis", one entity with Louis Armstrong.
     */
    private static final Set<String> HONORIFICS = Set.of("mr", "mrs", "ms", "miss", "dr", "prof", "professor", "sir",
            "madam", "lady", "lord", "the", "a", "an", "doctor", "captain", "capt", "admiral", "colonel",
            "lieutenant", "inspector");

    public Entity {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        type = type == null ? "" : type;
        aliases = List.copyOf(aliases);
    }

    /** An entity named {@code name}, keyed by its normalised form. */
    public static Entity of(String name, String type) {
        return new Entity(storedKey(name), name.strip(), type, List.of());
    }

    /**
     * The normalised form of a name: Unicode NFKC, lower case, possessive {@code 's} and leading titles or articles
     * dropped, every run of non-letters and non-digits one space. "Mr. Sherlock Holmes's" becomes
     * {@code sherlock holmes}. Empty when nothing is left.
     */
    /**
     * The key of a stored name, which may be in a tenant's namespace ({@code acme/Marie Curie} →
     * {@code acme/marie curie}); a name in no namespace is keyed by {@link #key(String)}. Stored names never hold a
     * {@code /} of their own ({@link ChunkGraph#inNamespace}), so the first one marks the namespace.
     */
    public static String storedKey(String name) {
        Matcher m = NAMESPACED.matcher(name == null ? "" : name);
        if (!m.matches()) {
            return key(name);
        }
        String rest = key(m.group(2));
        return rest.isEmpty() ? "" : m.group(1) + "/" + rest;
    }

    /**
     * A regular expression matching the whole of a stored key, or of one alias, whose own part (after its namespace,
     * when it has one) contains {@code needle}, itself a {@link #key}: a search for "acme" finds the tenant acme's
     * "Acme Robotics", not every entity of that tenant for its ids' {@code acme/}. A key holds letters, digits and
     * single spaces only, nothing a regular expression reads as syntax (checked).
     */
    public static String ownPartContaining(String needle) {
        if (!KEY_TEXT.matcher(needle).matches()) {
            throw new IllegalArgumentException("not an entity key: " + needle);
        }
        return "([^/\n]*/)?[^/\n]*" + needle + "[^/\n]*";
    }

    private static final Pattern KEY_TEXT = Pattern.compile("[\\p{L}\\p{M}\\p{N} ]+");

    public static String key(String name) {
        String s = Normalizer.normalize(name == null ? "" : name, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
        // Turkish İ lower-cases to i and a combining dot: "İstanbul" is "istanbul", as its other spellings.
        s = POSSESSIVE.matcher(s.replace("i\u0307", "i")).replaceAll("");
        // "C++", "C#" and "C" were one key, "c": the marks are read as said.
        s = SHARP.matcher(PLUS_PLUS.matcher(s).replaceAll(" plus plus")).replaceAll(" sharp");
        s = NON_WORD.matcher(s).replaceAll(" ").strip();
        while (true) {
            int space = s.indexOf(' ');
            if (space < 0 || !HONORIFICS.contains(s.substring(0, space))) {
                return s;
            }
            // Not when what follows cannot begin a name: "Doctor Who" was "who" (the WHO), "The Lord of the Rings"
            // "of the rings", which no search for it could seed.
            String rest = s.substring(space + 1);
            int next = rest.indexOf(' ');
            if (CANNOT_BEGIN.contains(next < 0 ? rest : rest.substring(0, next))) {
                return s;
            }
            s = rest;
        }
    }

    private static final Pattern PLUS_PLUS = Pattern.compile("(?<=\\p{L})\\+\\+(?![\\p{L}\\p{N}])");
    private static final Pattern SHARP = Pattern.compile("(?<![\\p{L}\\p{N}]\\p{L})(?<=\\p{L})#(?![\\p{L}\\p{N}])");
    private static final Set<String> CANNOT_BEGIN = Set.of("of", "who", "what", "and", "or", "in", "on", "at", "to",
            "for", "with", "from", "by", "is", "was", "de", "du", "des", "la", "le", "les", "von", "van", "der");
}
