package io.polyrag.parsers;

import io.polyrag.core.model.Block;
import io.polyrag.core.model.ChunkKind;
import io.polyrag.core.model.ParsedDocument;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Accumulates a parsed document: the running heading path, the plain text (headings on their own lines, blocks
 * separated by blank lines) and blocks whose offsets point into that text.
 */
final class DocumentBuilder {
    private final StringBuilder text = new StringBuilder();
    private final List<Block> blocks = new ArrayList<>();
    private final String[] headings = new String[7];
    private String firstHeading;
    private String location = "";

    /** Where the next blocks are in the source ({@code page 3}, {@code slide 2}, …). */
    void location(String where) {
        location = where == null ? "" : where;
    }

    /** Forgets every heading (a new slide or sheet starts afresh). */
    void resetHeadings() {
        Arrays.fill(headings, null);
    }

    /** A heading of level 1–6: replaces that level and clears the deeper ones. */
    void heading(int level, String title) {
        String t = title.strip();
        if (t.isEmpty()) {
            return;
        }
        int l = Math.max(1, Math.min(6, level));
        headings[l] = t;
        for (int i = l + 1; i < headings.length; i++) {
            headings[i] = null;
        }
        if (firstHeading == null && l == 1) {
            firstHeading = t;
        }
        separate();
        text.append(t);
    }

    void prose(String s) {
        block(ChunkKind.PROSE, s, "");
    }

    void block(ChunkKind kind, String s, String language) {
        String t = kind == ChunkKind.CODE ? stripBlankEdges(s) : s.strip();
        if (t.isEmpty()) {
            return;
        }
        separate();
        int start = text.length();
        text.append(t);
        blocks.add(new Block(kind, t, path(), start, text.length(), language, location));
    }

    private void separate() {
        if (!text.isEmpty()) {
            text.append("\n\n");
        }
    }

    private List<String> path() {
        List<String> p = new ArrayList<>();
        for (String h : headings) {
            if (h != null) {
                p.add(h);
            }
        }
        return p;
    }

    /**
     * No block yet. Headings alone still make one at {@link #build}; the document parsers refuse such a document
     * before that (a workbook's sheet names, a Word title over scans that OCR reads), the text formats do not.
     */
    boolean isEmpty() {
        return blocks.isEmpty();
    }

    ParsedDocument build(String title, String mediaType) {
        String t = title == null || title.isBlank() ? firstHeading : title.strip();
        // Headings alone ("# Buy a new kettle", a page of one <h1>) are the document's text: with no block under
        // them it was refused as "no text to index".
        List<Block> out = !blocks.isEmpty() || text.isEmpty() ? blocks : List.of(new Block(ChunkKind.PROSE,
                text.toString(), List.of(), 0, text.length(), "", ""));
        return new ParsedDocument(t == null ? "" : t, text.toString(), out, mediaType);
    }

    String firstHeading() {
        return firstHeading;
    }

    private static String stripBlankEdges(String s) {
        String[] lines = s.split("\n", -1);
        int from = 0;
        int to = lines.length;
        while (from < to && lines[from].isBlank()) {
            from++;
        }
        while (to > from && lines[to - 1].isBlank()) {
            to--;
        }
        return String.join("\n", Arrays.asList(lines).subList(from, to)).stripTrailing();
    }
}
