package io.polyrag.model.opennlp;

import java.util.regex.Pattern;

/**
 * The part of a chunk's text that is prose, as the extractor reads it: code (fenced blocks and inline spans), heading
 * lines, URLs and e-mail addresses are blanked out (none of them names anything a graph should hold:
 * {@code String::from} from a Rust block, a heading's words), a table's cells become lines of their own (numbers
 * dropped), markdown links keep their text, and runs of more than {@value #MAX_WORD} characters without a space become a space. Every step is one linear
 * pass, so what follows (OpenNLP's sentence detector and tokenizer, which look at a whole space-free run for each
 * candidate boundary in it) takes time linear in the text's length: a megabyte without spaces took ten minutes before.
 */
final class Prose {
    /** Longest run of characters without a space that can be part of a name; longer ones are not read at all. */
    static final int MAX_WORD = 64;
    private static final Pattern FENCE = Pattern.compile("(?ms)^[ \\t]*(```|~~~).*?(^[ \\t]*\\1[^\\n]*$|\\z)");
    private static final Pattern INLINE_CODE = Pattern.compile("`[^`\\n]{0,200}`");
    private static final Pattern LINK = Pattern.compile("\\[([^\\]\\n]{1,200})]\\([^)\\s]{0,500}\\)");
    private static final Pattern URL = Pattern.compile("(?i)\\b(?:https?://|ftp://|www\\.)\\S{0,500}");
    private static final Pattern EMAIL = Pattern.compile("\\S{1,64}@\\S{1,255}\\.\\p{L}{2,}");
    /** Markdown emphasis around words (the *Morning Tern*, __bold__): the words stay, the marks go. */
    private static final Pattern EMPHASIS = Pattern.compile("(?<=^|[\\s(\"'])[*_]{1,3}(?=\\S)|(?<=\\S)[*_]{1,3}"
            + "(?=$|[\\s).,;:!?\"'])");

    private Prose() {
    }

    /** The prose of {@code text}, with every non-prose part blanked (line breaks kept, so lines still open). */
    static String of(String text) {
        // Each pattern runs only over a text holding what it must start with: most chunks hold no code, link, URL,
        // address or emphasis, and the six passes over them were a tenth of extraction's time.
        String s = text.contains("```") || text.contains("~~~") ? FENCE.matcher(text).replaceAll("\n") : text;
        s = lines(s);
        s = s.contains("](") ? LINK.matcher(s).replaceAll("$1") : s;
        s = s.indexOf('`') >= 0 ? INLINE_CODE.matcher(s).replaceAll(" ") : s;
        s = s.contains("://") || holdsWww(s) ? URL.matcher(s).replaceAll(" ") : s;
        s = s.indexOf('@') >= 0 ? EMAIL.matcher(s).replaceAll(" ") : s;
        s = s.indexOf('*') >= 0 || s.indexOf('_') >= 0 ? EMPHASIS.matcher(s).replaceAll("") : s;
        return dropLongRuns(s);
    }

    /** Whether {@code s} holds "www." in any case. */
    private static boolean holdsWww(String s) {
        for (int i = s.indexOf('.'); i >= 0; i = s.indexOf('.', i + 1)) {
            if (i >= 3 && s.regionMatches(true, i - 3, "www", 0, 3)) {
                return true;
            }
        }
        return false;
    }

    /** Heading lines and table rows blanked, one pass over the lines. */
    private static String lines(String text) {
        StringBuilder out = new StringBuilder(text.length());
        int start = 0;
        while (start <= text.length()) {
            int end = text.indexOf('\n', start);
            end = end < 0 ? text.length() : end;
            String line = text.substring(start, end);
            String t = line.stripLeading();
            boolean heading = t.startsWith("#") || t.startsWith("===") || t.startsWith("---");
            boolean table = t.startsWith("|") || t.startsWith("+--") || t.chars().filter(c -> c == '|').count() >= 2;
            if (table) {
                cells(line, out);
            } else if (!heading) {
                out.append(line);
            }
            if (end < text.length()) {
                out.append('\n');
            }
            start = end + 1;
        }
        return out.toString();
    }

    /**
     * A table row's cells, each on a line of its own (so a cell opens like a sentence and no relation runs from one
     * cell to the next); a separator row, and cells holding no letter (numbers, "75%"), are left out.
     */
    private static void cells(String row, StringBuilder out) {
        for (String cell : row.split("\\|")) {
            String c = cell.strip();
            if (c.chars().anyMatch(Character::isLetter)) {
                out.append('\n').append(c).append('\n');
            }
        }
    }

    /** Runs of more than {@link #MAX_WORD} characters without a space become a space. */
    static String dropLongRuns(String text) {
        StringBuilder out = new StringBuilder(text.length());
        int i = 0;
        while (i < text.length()) {
            int j = i;
            while (j < text.length() && !Character.isWhitespace(text.charAt(j))) {
                j++;
            }
            if (j - i <= MAX_WORD) {
                out.append(text, i, j);
            } else {
                out.append(' ');
            }
            int k = j;
            while (k < text.length() && Character.isWhitespace(text.charAt(k))) {
                k++;
            }
            out.append(text, j, k);
            i = k;
        }
        return out.toString();
    }
}
