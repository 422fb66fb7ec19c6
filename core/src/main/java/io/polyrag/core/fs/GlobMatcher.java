package io.polyrag.core.fs;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A glob matched in time linear in the path and the pattern: the JDK's glob matcher is a backtracking regular
 * expression, and a glob a tenant registers for a sync source ({@code *a*a*a*a*a*a*a*a*a*a*b}) against a long name of
 * {@code a}s tried more paths than any worker could finish — a job that could not be canceled, nor its source
 * deleted. The same syntax as the JDK's on a Unix file system: {@code *} (any run within one folder), {@code **} (any
 * run across folders), {@code ?} (one character but {@code /}), {@code [a-z]} and {@code [!a-z]} (never {@code /}),
 * {@code {a,b}} (one of the alternatives, not nested) and {@code \} (the next character as itself). Each
 * alternative of a group is matched by a state-set simulation over the pattern's tokens.
 */
final class GlobMatcher {
    /** Alternatives one glob may expand into ({@code {a,b}{c,d}} is four); more is refused when it is checked. */
    static final int MAX_ALTERNATIVES = 256;

    private static final int LITERAL = 0;
    private static final int ONE = 1;
    private static final int STAR = 2;
    private static final int STARS = 3;
    private static final int CLASS = 4;

    /** One token: its kind, its character (a literal) or its set (a class: ranges as pairs, and negation). */
    private record Token(int kind, char c, String ranges, boolean negated) {
        boolean takes(char x) {
            return switch (kind) {
                case LITERAL -> x == c;
                case ONE -> x != '/';
                case CLASS -> x != '/' && inRanges(x) != negated;
                default -> false;
            };
        }

        private boolean inRanges(char x) {
            for (int i = 0; i < ranges.length(); i += 2) {
                if (x >= ranges.charAt(i) && x <= ranges.charAt(i + 1)) {
                    return true;
                }
            }
            return false;
        }
    }

    private final List<List<Token>> alternatives;

    private GlobMatcher(List<List<Token>> alternatives) {
        this.alternatives = alternatives;
    }

    /** The glob compiled; an {@link IllegalArgumentException} when it expands into too many alternatives. */
    static GlobMatcher of(String glob) {
        List<List<Token>> out = new ArrayList<>();
        for (String alternative : expand(glob)) {
            out.add(tokens(alternative));
        }
        return new GlobMatcher(out);
    }

    boolean matches(String path) {
        for (List<Token> tokens : alternatives) {
            if (matches(tokens, path)) {
                return true;
            }
        }
        return false;
    }

    private static boolean matches(List<Token> tokens, String path) {
        int m = tokens.size();
        boolean[] at = new boolean[m + 1];
        boolean[] next = new boolean[m + 1];
        at[0] = true;
        close(tokens, at);
        for (int p = 0; p < path.length(); p++) {
            char x = path.charAt(p);
            Arrays.fill(next, false);
            boolean any = false;
            for (int i = 0; i < m; i++) {
                if (!at[i]) {
                    continue;
                }
                Token t = tokens.get(i);
                if (t.kind() == STARS || t.kind() == STAR && x != '/') {
                    next[i] = true;
                    any = true;
                } else if (t.takes(x)) {
                    next[i + 1] = true;
                    any = true;
                }
            }
            if (!any) {
                return false;
            }
            close(tokens, next);
            boolean[] swap = at;
            at = next;
            next = swap;
        }
        return at[m];
    }

    /** Adds the states a star reaches by matching nothing. */
    private static void close(List<Token> tokens, boolean[] states) {
        for (int i = 0; i < tokens.size(); i++) {
            if (states[i] && tokens.get(i).kind() >= STAR && tokens.get(i).kind() <= STARS) {
                states[i + 1] = true;
            }
        }
    }

    private static List<Token> tokens(String glob) {
        List<Token> out = new ArrayList<>();
        for (int i = 0; i < glob.length(); i++) {
            char c = glob.charAt(i);
            if (c == '\\' && i + 1 < glob.length()) {
                out.add(new Token(LITERAL, glob.charAt(++i), "", false));
            } else if (c == '*') {
                boolean cross = i + 1 < glob.length() && glob.charAt(i + 1) == '*';
                while (i + 1 < glob.length() && glob.charAt(i + 1) == '*') {
                    i++;
                }
                if (out.isEmpty() || out.getLast().kind() != STARS) { // a run of stars is one
                    out.add(new Token(cross ? STARS : STAR, '*', "", false));
                }
            } else if (c == '?') {
                out.add(new Token(ONE, '?', "", false));
            } else if (c == '[' && glob.indexOf(']', i + 2) > 0) {
                int end = glob.indexOf(']', i + 2);
                String body = glob.substring(i + 1, end);
                boolean negated = body.startsWith("!");
                if (negated) {
                    body = body.substring(1);
                }
                StringBuilder ranges = new StringBuilder();
                for (int k = 0; k < body.length(); k++) {
                    char lo = body.charAt(k);
                    if (k + 2 < body.length() && body.charAt(k + 1) == '-') {
                        ranges.append(lo).append(body.charAt(k + 2));
                        k += 2;
                    } else {
                        ranges.append(lo).append(lo);
                    }
                }
                out.add(new Token(CLASS, '[', ranges.toString(), negated));
                i = end;
            } else {
                out.add(new Token(LITERAL, c, "", false));
            }
        }
        return out;
    }

    /** The glob's {@code {a,b}} groups expanded into plain globs (groups do not nest, as in the JDK's syntax). */
    static List<String> expand(String glob) {
        int open = -1;
        for (int i = 0; i < glob.length(); i++) {
            char c = glob.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '[') {
                int end = glob.indexOf(']', i + 2);
                i = end > 0 ? end : i;
            } else if (c == '{') {
                open = i;
                break;
            }
        }
        int close = open < 0 ? -1 : glob.indexOf('}', open);
        if (close < 0) {
            return List.of(glob);
        }
        List<String> choices = new ArrayList<>();
        StringBuilder one = new StringBuilder();
        for (int i = open + 1; i < close; i++) {
            char c = glob.charAt(i);
            if (c == '\\' && i + 1 < close) {
                one.append(c).append(glob.charAt(++i));
            } else if (c == ',') {
                choices.add(one.toString());
                one.setLength(0);
            } else {
                one.append(c);
            }
        }
        choices.add(one.toString());
        List<String> rest = expand(glob.substring(close + 1));
        List<String> out = new ArrayList<>();
        for (String choice : choices) {
            for (String r : rest) {
                out.add(glob.substring(0, open) + choice + r);
                if (out.size() > MAX_ALTERNATIVES) {
                    throw new IllegalArgumentException("expands into more than " + MAX_ALTERNATIVES
                            + " alternatives");
                }
            }
        }
        return out;
    }
}
