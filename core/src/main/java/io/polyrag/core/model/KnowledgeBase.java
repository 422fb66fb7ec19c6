package io.polyrag.core.model;

import io.polyrag.core.InvalidInputException;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A knowledge base's name, checked once where it enters: 1–64 characters of a-z, 0-9, '.', '_' or '-', starting
 * with a letter or digit. A request that names none means {@link #DEFAULT}.
 *
 * @param name the checked name
 */
public record KnowledgeBase(String name) {
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");

    /** The knowledge base used when a request names none. */
    public static final KnowledgeBase DEFAULT = new KnowledgeBase("default");

    public KnowledgeBase {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new InvalidInputException("knowledge base name '" + Ids.abbreviate(String.valueOf(name), 80)
                    + "' is invalid: use 1-64 characters of a-z, 0-9, '.', '_' or '-', starting with a letter or digit");
        }
    }

    /** The knowledge base named {@code name}; null or blank means {@link #DEFAULT}. */
    public static KnowledgeBase of(String name) {
        return name == null || name.isBlank() ? DEFAULT : new KnowledgeBase(name);
    }

    /** The named knowledge bases, checked, blanks left out; none named means every knowledge base. */
    public static SearchScope scope(Collection<String> names) {
        Set<String> out = new LinkedHashSet<>();
        for (String n : names == null ? Set.<String>of() : names) {
            if (n != null && !n.isBlank()) {
                out.add(new KnowledgeBase(n).name());
            }
        }
        return out.isEmpty() ? SearchScope.ALL : new SearchScope(out);
    }

    /** One knowledge base, or every one when {@code name} is null or blank. */
    public static SearchScope scope(String name) {
        return scope(name == null ? Set.of() : Set.of(name));
    }

    public SearchScope asScope() {
        return new SearchScope(Set.of(name));
    }

    @Override
    public String toString() {
        return name;
    }
}
