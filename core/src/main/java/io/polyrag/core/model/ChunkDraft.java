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
 */
public record ChunkDraft(ChunkKind kind, String text, List<String> headingPath, int startOffset, int endOffset,
        int tokenCount) {
    public ChunkDraft {
        headingPath = List.copyOf(headingPath);
    }
}
