package io.polyrag.core.fs;

import io.polyrag.core.InvalidInputException;
import java.nio.file.FileSystems;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;

/**
 * Include and exclude globs, as {@code polyrag ingest} and every sync source read them: one with a {@code /} matches
 * the path below the root (a folder's, a bucket prefix's), one without matches the file name, and one starting with
 * {@code **}{@code /} matches at the top level too ({@code **}{@code /*.md} takes {@code notes.md}, as users expect;
 * the JDK's glob alone would want a folder in between).
 */
public final class Globs {
    private final List<PathMatcher> include;
    private final List<PathMatcher> exclude;
    /** The folders an exclude glob of the form {@code P/**} takes whole: a walk need not list them. */
    private final List<PathMatcher> excludedFolders;

    private Globs(List<PathMatcher> include, List<PathMatcher> exclude, List<PathMatcher> excludedFolders) {
        this.include = include;
        this.exclude = exclude;
        this.excludedFolders = excludedFolders;
    }

    /** The globs of a source's stored settings (already {@link #checked}). */
    public static Globs of(Object include, Object exclude) {
        return new Globs(matchers(include), matchers(exclude), folders(exclude));
    }

    /**
     * Whether every path below a folder (relative to the root) is excluded, by a glob {@code P/**} whose {@code P}
     * matches the folder: a walk skips it without listing it (a {@code node_modules} tree, an unreadable
     * {@code lost+found} that made every scan partial).
     */
    public boolean excludesAllBelow(Path folder) {
        return excludedFolders.stream().anyMatch(m -> m.matches(folder));
    }

    private static List<PathMatcher> folders(Object globs) {
        List<PathMatcher> out = new ArrayList<>();
        if (globs instanceof List<?> l) {
            for (Object g : l) {
                String glob = g.toString();
                if (glob.length() > 3 && glob.endsWith("/**")) {
                    String prefix = glob.substring(0, glob.length() - 3);
                    GlobMatcher m = GlobMatcher.of(prefix);
                    GlobMatcher top = prefix.startsWith("**/") ? GlobMatcher.of(prefix.substring(3)) : m;
                    out.add(rel -> m.matches(rel.toString()) || top.matches(rel.toString()));
                }
            }
        }
        return out;
    }

    /** Whether there is an include glob (none: every file the caller would take anyway). */
    public boolean includes() {
        return !include.isEmpty();
    }

    /** Whether a path below the root is taken: an include glob matches (or there is none) and no exclude glob. */
    public boolean selects(Path below) {
        return (include.isEmpty() || include.stream().anyMatch(m -> m.matches(below)))
                && exclude.stream().noneMatch(m -> m.matches(below));
    }

    /** The same for a path written with {@code /} (an object key below a prefix); one that is no path is not. */
    public boolean selects(String below) {
        try {
            return selects(Path.of(below));
        } catch (InvalidPathException e) {
            return false;
        }
    }

    /** Whether a name along a relative path starts with a dot: a hidden file or folder, at any depth. */
    public static boolean hidden(Path relative) {
        for (Path name : relative) {
            if (name.toString().startsWith(".")) {
                return true;
            }
        }
        return false;
    }

    /** A registration's {@code config.FIELD} checked: a list of at most 100 valid globs of 1-256 characters. */
    public static List<String> checked(Object value, String field) {
        List<String> out = new ArrayList<>();
        if (value == null) {
            return out;
        }
        if (!(value instanceof List<?> l)) {
            throw new InvalidInputException("'config." + field + "' must be a list of globs, e.g. [\"**/*.md\"]");
        }
        for (Object o : l) {
            if (!(o instanceof String g) || g.isBlank() || g.length() > 256) {
                throw new InvalidInputException("'config." + field + "' must hold globs of 1-256 characters");
            }
            try {
                FileSystems.getDefault().getPathMatcher("glob:" + g); // the JDK's syntax check
                GlobMatcher.of(g);
            } catch (IllegalArgumentException e) {
                throw new InvalidInputException("'config." + field + "' holds an invalid glob '" + g + "': "
                        + e.getMessage());
            }
            out.add(g);
        }
        if (out.size() > 100) {
            throw new InvalidInputException("'config." + field + "' holds more than 100 globs");
        }
        return out;
    }

    private static List<PathMatcher> matchers(Object globs) {
        List<PathMatcher> out = new ArrayList<>();
        if (globs instanceof List<?> l) {
            for (Object g : l) {
                String glob = g.toString();
                GlobMatcher m = GlobMatcher.of(glob);
                if (!glob.contains("/")) {
                    out.add(rel -> rel.getFileName() != null && m.matches(rel.getFileName().toString()));
                } else if (glob.startsWith("**/")) {
                    GlobMatcher top = GlobMatcher.of(glob.substring(3));
                    out.add(rel -> m.matches(rel.toString()) || top.matches(rel.toString()));
                } else {
                    out.add(rel -> m.matches(rel.toString()));
                }
            }
        }
        return out;
    }
}
