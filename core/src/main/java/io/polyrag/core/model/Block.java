package io.polyrag.core.model;

import java.util.List;
import java.util.Objects;

/**
 * A structural unit of a parsed document: a paragraph, a table or a code block, with the headings above it.
 *
 * @param kind what the block holds
 * @param text the block's text; for a table, one row a line with cells separated by {@code " | "}, header row first
 * @param headingPath the headings enclosing the block, outermost first; empty at top level
 * @param start offset of the block's first character in {@link ParsedDocument#text()}
 * @param end offset just past the block's last character in {@link ParsedDocument#text()}
 * @param language a code block's language when known, else empty
 * @param location where in the source the block is, for citations: {@code page 3}, {@code sheet Budget},
 *     {@code slide 2}; empty when the format has no pages
 */
public record Block(ChunkKind kind, String text, List<String> headingPath, int start, int end, String language,
        String location) {
    /** The longest heading kept in a path, in characters; a longer one is cut with "…". */
    public static final int MAX_HEADING = 200;
    /** The longest code language kept (the longest real names are about twenty characters); a longer one is none. */
    public static final int MAX_LANGUAGE = 32;

    public Block {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(text, "text");
        // A heading is repeated in every chunk below it (its path, its indexed and embedded text): one of a megabyte
        // (a Markdown line of words after '# ') made gigabytes of a 3 MB upload.
        headingPath = List.copyOf(headingPath.stream().map(h -> Ids.clip(h, MAX_HEADING)).toList());
        // A code block's language is repeated in every chunk of it (its fence): one of kilobytes (an info string
        // of "a." repeated) left each chunk a word of budget and made hundreds of thousands of chunks of one file.
        language = language == null || language.length() > MAX_LANGUAGE ? "" : language;
        location = location == null ? "" : location;
        if (start < 0 || end < start) {
            throw new IllegalArgumentException("bad block offsets [" + start + ", " + end + ")");
        }
    }

    /** A block with no location. */
    public Block(ChunkKind kind, String text, List<String> headingPath, int start, int end, String language) {
        this(kind, text, headingPath, start, end, language, "");
    }

    public static Block prose(String text, List<String> headingPath, int start, int end) {
        return new Block(ChunkKind.PROSE, text, headingPath, start, end, "");
    }
}
