package io.polyrag.parsers;

import io.polyrag.core.model.ChunkKind;
import io.polyrag.core.model.ParsedDocument;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Markdown (CommonMark and GitHub tables) to blocks: ATX and setext headings build the heading path, fenced code
 * becomes code blocks with their language, pipe tables become table blocks (one row a line, cells joined by
 * {@code " | "}), everything else paragraphs. Front matter is skipped, except its {@code title:}. Links and images keep
 * their text only.
 */
final class MarkdownParser {
    // Every pattern here runs in time linear in its line, whatever the line: possessive quantifiers, no group
    // repeated under another, and the text of a link or an image stops at a bracket or parenthesis that would open
    // another (a heading of a long run of spaces backtracked cubically, a long run of '[' or "[a](" quadratically, a
    // long table rule overflowed the stack).
    private static final Pattern FENCE = Pattern.compile("^ {0,3}(`{3,}+|~{3,}+)\\s*+([\\w+#.-]*+).*$", Pattern.DOTALL);
    private static final Pattern SETEXT = Pattern.compile("^ {0,3}(=++|-++)[ \t]*+$");
    private static final Pattern RULE_CELL = Pattern.compile(":?-{2,}+:?");
    private static final Pattern IMAGE = Pattern.compile("!\\[([^\\]\\[]*+)]\\([^()]*+\\)");
    private static final Pattern LINK = Pattern.compile("\\[([^\\]\\[]++)]\\([^()]*+\\)");

    private MarkdownParser() {
    }

    static ParsedDocument parse(String source, String fallbackTitle) {
        String[] lines = source.replace("\r\n", "\n").replace('\r', '\n').split("\n", -1);
        DocumentBuilder doc = new DocumentBuilder();
        String title = null;
        int i = 0;
        if (lines.length > 0 && lines[0].strip().equals("---")) {
            int end = findFrontMatterEnd(lines);
            if (end > 0) {
                for (int k = 1; k < end; k++) {
                    if (lines[k].startsWith("title:")) {
                        title = lines[k].substring(6).strip().replaceAll("^[\"']|[\"']$", "");
                    }
                }
                i = end + 1;
            }
        }
        List<String> paragraph = new ArrayList<>();
        while (i < lines.length) {
            String line = lines[i];
            Matcher fence = FENCE.matcher(line);
            // A backtick fence's info string holds no backtick (CommonMark): "```pip install x```" is inline code,
            // not a block that takes the rest of the file.
            boolean fenced = fence.matches() && !(fence.group(1).charAt(0) == '`'
                    && line.indexOf('`', fence.end(1)) >= 0);
            Heading atx = fenced ? null : atx(line);
            if (fenced) {
                flush(doc, paragraph);
                i = fencedCode(lines, i, fence.group(1), fence.group(2), doc);
            } else if (atx != null) {
                flush(doc, paragraph);
                doc.heading(atx.level(), inline(atx.text()));
                i++;
            } else if (line.isBlank()) {
                flush(doc, paragraph);
                i++;
            } else if (isTableStart(lines, i)) {
                flush(doc, paragraph);
                i = table(lines, i, doc);
            } else if (!paragraph.isEmpty() && paragraph.size() == 1 && SETEXT.matcher(line).matches()) {
                doc.heading(line.strip().startsWith("=") ? 1 : 2, inline(paragraph.getFirst()));
                paragraph.clear();
                i++;
            } else {
                paragraph.add(line.strip());
                i++;
            }
        }
        flush(doc, paragraph);
        return doc.build(title != null ? title : doc.firstHeading() != null ? doc.firstHeading() : fallbackTitle,
                "text/markdown");
    }

    private static int findFrontMatterEnd(String[] lines) {
        for (int k = 1; k < Math.min(lines.length, 200); k++) {
            if (lines[k].strip().equals("---") || lines[k].strip().equals("...")) {
                return k;
            }
        }
        return -1;
    }

    private static void flush(DocumentBuilder doc, List<String> paragraph) {
        if (!paragraph.isEmpty()) {
            doc.prose(inline(String.join("\n", paragraph)));
            paragraph.clear();
        }
    }

    /** Consumes a fenced block starting at {@code start}; returns the index after its closing fence. */
    private static int fencedCode(String[] lines, int start, String fence, String language, DocumentBuilder doc) {
        StringBuilder code = new StringBuilder();
        int i = start + 1;
        while (i < lines.length) {
            String stripped = lines[i].strip();
            if (stripped.startsWith(fence.substring(0, 3)) && stripped.chars().allMatch(ch -> ch == fence.charAt(0))
                    && stripped.length() >= fence.length()) {
                i++;
                break;
            }
            code.append(lines[i]).append('\n');
            i++;
        }
        doc.block(ChunkKind.CODE, code.toString(), language);
        return i;
    }

    private static boolean isTableStart(String[] lines, int i) {
        return lines[i].contains("|") && i + 1 < lines.length && isTableRule(lines[i + 1]);
    }

    /** {@code |---|:--:|}: cells of two or more dashes, each maybe between colons, the outer pipes optional. */
    static boolean isTableRule(String line) {
        String t = line.strip();
        if (t.startsWith("|")) {
            t = t.substring(1);
        }
        if (t.endsWith("|")) {
            t = t.substring(0, t.length() - 1);
        }
        for (String cell : t.split("\\|", -1)) {
            if (!RULE_CELL.matcher(cell.strip()).matches()) {
                return false;
            }
        }
        return true;
    }

    /** An ATX heading: its level and its text. */
    record Heading(int level, String text) {
    }

    /**
     * The line as an ATX heading ({@code ## Text ##}: up to three spaces, one to six '#', a space or the end, an
     * optional closing run of '#' after a space), or null when it is none. Read by hand, in one pass.
     */
    static Heading atx(String line) {
        int i = 0;
        while (i < 3 && i < line.length() && line.charAt(i) == ' ') {
            i++;
        }
        int hashes = 0;
        while (i + hashes < line.length() && line.charAt(i + hashes) == '#') {
            hashes++;
        }
        int rest = i + hashes;
        if (hashes < 1 || hashes > 6 || rest < line.length() && !blank(line.charAt(rest))) {
            return null;
        }
        int end = line.length();
        while (end > rest && blank(line.charAt(end - 1))) {
            end--;
        }
        int close = end;
        while (close > rest && line.charAt(close - 1) == '#') {
            close--;
        }
        if (close < end && (close == rest || blank(line.charAt(close - 1)))) {
            end = close;
        }
        int start = rest;
        while (start < end && blank(line.charAt(start))) {
            start++;
        }
        while (end > start && blank(line.charAt(end - 1))) {
            end--;
        }
        return new Heading(hashes, line.substring(start, end));
    }

    private static boolean blank(char c) {
        return c == ' ' || c == '\t';
    }

    private static int table(String[] lines, int start, DocumentBuilder doc) {
        List<String> rows = new ArrayList<>();
        rows.add(row(lines[start]));
        int i = start + 2;
        while (i < lines.length && lines[i].contains("|") && !lines[i].isBlank()) {
            rows.add(row(lines[i]));
            i++;
        }
        doc.block(ChunkKind.TABLE, String.join("\n", rows), "");
        return i;
    }

    private static String row(String line) {
        String t = line.strip();
        if (t.startsWith("|")) {
            t = t.substring(1);
        }
        if (t.endsWith("|") && !t.endsWith("\\|")) {
            t = t.substring(0, t.length() - 1);
        }
        List<String> cells = new ArrayList<>();
        for (String cell : t.split("(?<!\\\\)\\|", -1)) {
            cells.add(inline(cell.strip().replace("\\|", "|")));
        }
        return String.join(" | ", cells);
    }

    private static String inline(String s) {
        return LINK.matcher(IMAGE.matcher(s).replaceAll("$1")).replaceAll("$1");
    }
}
