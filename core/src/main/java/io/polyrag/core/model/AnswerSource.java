package io.polyrag.core.model;

import java.util.List;

/**
 * A cited document: its number and the passages used, in reading order.
 *
 * @param number the citation number, stable within one answer: {@code [number]}
 * @param documentId the document
 * @param title its title
 * @param uri its uri
 * @param knowledgeBase its knowledge base
 * @param passages the retrieved chunks and their neighbours, in reading order
 * @param figures the figures that came with its hits (a figure shares its document's number, never has one of its
 *     own)
 */
public record AnswerSource(int number, String documentId, String title, String uri, String knowledgeBase,
        List<Passage> passages, List<FigureRef> figures) {
    public AnswerSource {
        passages = List.copyOf(passages);
        figures = figures == null ? List.of() : List.copyOf(figures);
    }

    /** A source with no figures. */
    public AnswerSource(int number, String documentId, String title, String uri, String knowledgeBase,
            List<Passage> passages) {
        this(number, documentId, title, uri, knowledgeBase, passages, List.of());
    }

    /**
     * One chunk of a source.
     *
     * @param chunkId the chunk
     * @param ordinal its position in the document
     * @param kind prose, table or code
     * @param headingPath its headings
     * @param text its text
     * @param hit true if retrieval found it, false if it was added as a neighbour of a hit
     * @param location where in the source it is ({@code page 3}, {@code sheet Budget}), or empty
     */
    public record Passage(String chunkId, int ordinal, ChunkKind kind, List<String> headingPath, String text,
            boolean hit, String location) {
        public Passage {
            headingPath = List.copyOf(headingPath);
            location = location == null ? "" : location;
        }

        public Passage(String chunkId, int ordinal, ChunkKind kind, List<String> headingPath, String text,
                boolean hit) {
            this(chunkId, ordinal, kind, headingPath, text, hit, "");
        }
    }
}
