package io.polyrag.core.model;

import io.polyrag.core.InvalidInputException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * What a client says about a document beyond its content: categories to filter by, a subcategory, and a reference
 * to the document in the client's own system.
 *
 * @param categories lower-case category names (1-64 of a-z, 0-9, '.', '_', '-', ' '), at most 32
 * @param subcategory free text, at most 200 characters
 * @param externalRef the client's id for it, at most 1024 characters
 */
public record DocumentMeta(List<String> categories, String subcategory, String externalRef) {
    public static final DocumentMeta NONE = new DocumentMeta(List.of(), "", "");
    private static final Pattern CATEGORY = Pattern.compile("[a-z0-9][a-z0-9._ -]{0,63}");

    public DocumentMeta {
        categories = categories == null ? List.of() : List.copyOf(categories);
        subcategory = subcategory == null ? "" : subcategory;
        externalRef = externalRef == null ? "" : externalRef;
    }

    /** Checks what a client sent: categories normalised to lower case and de-duplicated; limits enforced. */
    public static DocumentMeta of(List<String> categories, String subcategory, String externalRef) {
        List<String> cats = new ArrayList<>(new LinkedHashSet<>(categories == null ? List.<String>of()
                : categories.stream().flatMap(c -> Arrays.stream(c.split(","))).map(String::strip)
                        .filter(c -> !c.isEmpty()).map(c -> c.toLowerCase(Locale.ROOT)).toList()));
        if (cats.size() > 32) {
            throw new InvalidInputException("categories: at most 32, got " + cats.size());
        }
        for (String c : cats) {
            if (!CATEGORY.matcher(c).matches()) {
                throw new InvalidInputException("category '" + Ids.abbreviate(c, 80) + "' is invalid: use 1-64 "
                        + "characters of a-z, 0-9, '.', '_', '-' or space, starting with a letter or digit");
            }
        }
        check(subcategory, 200, "subcategory");
        check(externalRef, 1024, "external_ref");
        return new DocumentMeta(cats, subcategory == null ? "" : subcategory.strip(),
                externalRef == null ? "" : externalRef.strip());
    }

    /** A category filter, checked like a category. */
    public static String category(String c) {
        if (c == null || c.isBlank()) {
            return null;
        }
        String n = c.strip().toLowerCase(Locale.ROOT);
        if (!CATEGORY.matcher(n).matches()) {
            throw new InvalidInputException("category '" + Ids.abbreviate(c, 80) + "' is invalid: use 1-64 "
                    + "characters of a-z, 0-9, '.', '_', '-' or space");
        }
        return n;
    }

    private static void check(String s, int max, String field) {
        if (s != null && (s.length() > max || s.chars().anyMatch(Character::isISOControl))) {
            throw new InvalidInputException(field + " must be at most " + max + " characters with no control "
                    + "characters");
        }
    }
}
