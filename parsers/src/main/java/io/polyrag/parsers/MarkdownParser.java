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
    private static final Pattern ATX = Pattern.compile("^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$");
    private static final Pattern FENCE = Pattern.compile("^ {0,3}(`{3,}|~{3,})\\s*([\\w+#.-]*).*$");
    private static final Pattern SETEXT = Pattern.compile("^ {0,3}(=+|-+)[ \t]*$");
    private static final Pattern TABLE_RULE = Pattern.compile("^\\s*\\|?\\s*:?-{2,}:?\\s*(\\|\\s*:?-{2,}:?\\s*)*\\|?\\s*$");
    private static final Pattern IMAGE = Pattern.compile("!\\[([^\\]]*)]\\([^)]*\\)");
    private static final Pattern LINK = Pattern.compile("\\[([^\\]]+)]\\([^)]*\\)");

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
            Matcher atx = ATX.matcher(line);
            Matcher fence = FENCE.matcher(line);
            if (fence.matches()) {
                flush(doc, paragraph);
                i = fencedCode(lines, i, fence.group(1), fence.group(2), doc);
            } else if (atx.matches()) {
                flush(doc, paragraph);
                doc.heading(atx.group(1).length(), inline(atx.group(2) == null ? "" : atx.group(2)));
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
        return lines[i].contains("|") && i + 1 < lines.length && TABLE_RULE.matcher(lines[i + 1]).matches()
                && lines[i + 1].contains("-");
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
