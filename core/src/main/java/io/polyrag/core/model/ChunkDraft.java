package io.polyrag.core.model;

import java.util.List;

/**
 * A chunk as the chunker cuts it, before it has an identity.
 *
 * @param kind prose, table or code
 * @param text the chunk's text (a table part repeats its header row)
 * @param headingPath the headings enclosing the chunk, outermost first
 * @param startOffset offset of the first character covered in the parsed text
 * @param endOffset offset just past the last character covered in the parsed text
 * @param tokenCount tokens in {@code text} as the configured token counter counts them
 * @param location where in the source the chunk is ({@code page 3}, {@code pages 3–4}, {@code sheet Budget},
 *     {@code slide 2}), empty when the format has no pages
 */
public record ChunkDraft(ChunkKind kind, String text, List<String> headingPath, int startOffset, int endOffset,
        int tokenCount, String location) {
    public ChunkDraft {
        headingPath = List.copyOf(headingPath);
        location = location == null ? "" : location;
    }

    /** A chunk draft with no location. */
    public ChunkDraft(ChunkKind kind, String text, List<String> headingPath, int startOffset, int endOffset,
            int tokenCount) {
        this(kind, text, headingPath, startOffset, endOffset, tokenCount, "");
    }
}
