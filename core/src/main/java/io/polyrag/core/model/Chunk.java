package io.polyrag.core.model;

import java.util.List;
import java.util.Objects;

/**
 * A chunk of one version of one document, as the catalog keeps it.
 *
 * @param id stable for (document, version, ordinal): {@link #idOf(String, long, int)}
 * @param documentId the owning document
 * @param version the document version this chunk belongs to
 * @param ordinal position in the document, from 0
 * @param kind prose, table or code
 * @param text the chunk's text
 * @param headingPath headings enclosing the chunk, outermost first
 * @param startOffset offset of the first character covered in the parsed text
 * @param endOffset offset just past the last character covered
 * @param tokenCount tokens in {@code text}
 * @param embeddingModel the model that produced this chunk's vector, or empty when no vector was made
 * @param location where in the source the chunk is ({@code page 3}, {@code sheet Budget}, …), or empty
 * @param figure for a chunk of kind {@link ChunkKind#FIGURE}, the figure; null for every other chunk
 */
public record Chunk(String id, String documentId, long version, int ordinal, ChunkKind kind, String text,
        List<String> headingPath, int startOffset, int endOffset, int tokenCount, String embeddingModel,
        String location, Figure figure) {
    public Chunk {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(documentId, "documentId");
        Objects.requireNonNull(text, "text");
        headingPath = List.copyOf(headingPath);
        embeddingModel = embeddingModel == null ? "" : embeddingModel;
        location = location == null ? "" : location;
        if ((kind == ChunkKind.FIGURE) != (figure != null)) {
            throw new IllegalArgumentException("a chunk carries a figure if and only if its kind is figure");
        }
    }

    /**
     * A chunk of document {@code documentId}'s version {@code version} at {@code ordinal}, built by name: its id is
     * {@link #idOf}'s, its kind prose, no headings, offsets, tokens, model, location or figure until set.
     */
    public static Builder builder(String documentId, long version, int ordinal) {
        return new Builder(documentId, version, ordinal);
    }

    /** Builds a {@link Chunk}; see {@link Chunk#builder}. */
    public static final class Builder {
        private final String documentId;
        private final long version;
        private final int ordinal;
        private String id;
        private ChunkKind kind = ChunkKind.PROSE;
        private String text = "";
        private List<String> headingPath = List.of();
        private int startOffset;
        private int endOffset;
        private int tokenCount;
        private String embeddingModel = "";
        private String location = "";
        private Figure figure;

        private Builder(String documentId, long version, int ordinal) {
            this.documentId = documentId;
            this.version = version;
            this.ordinal = ordinal;
        }

        /** An id other than {@link #idOf}'s (as a store recorded it). */
        public Builder id(String id) {
            this.id = id;
            return this;
        }

        public Builder kind(ChunkKind kind) {
            this.kind = kind;
            return this;
        }

        public Builder text(String text) {
            this.text = text;
            return this;
        }

        public Builder headingPath(List<String> headingPath) {
            this.headingPath = headingPath;
            return this;
        }

        /** The characters of the parsed text it covers, {@code start} inclusive, {@code end} exclusive. */
        public Builder offsets(int start, int end) {
            this.startOffset = start;
            this.endOffset = end;
            return this;
        }

        public Builder tokenCount(int tokenCount) {
            this.tokenCount = tokenCount;
            return this;
        }

        public Builder embeddingModel(String embeddingModel) {
            this.embeddingModel = embeddingModel;
            return this;
        }

        public Builder location(String location) {
            this.location = location;
            return this;
        }

        /** The figure of a chunk of kind figure (sets the kind too). */
        public Builder figure(Figure figure) {
            this.figure = figure;
            if (figure != null) {
                this.kind = ChunkKind.FIGURE;
            }
            return this;
        }

        public Chunk build() {
            return new Chunk(id != null ? id : idOf(documentId, version, ordinal), documentId, version, ordinal, kind,
                    text, headingPath, startOffset, endOffset, tokenCount, embeddingModel, location, figure);
        }
    }

    public static String idOf(String documentId, long version, int ordinal) {
        return documentId + "-v" + version + "-" + ordinal;
    }

    /**
     * The document a chunk id ({@link #idOf}, or a figure's, {@link Figure}) belongs to, read from the id; null when
     * the id is not one of those forms. A search hit's merged near-duplicates are listed by chunk id only.
     */
    public static String documentIdOf(String chunkId) {
        int v = chunkId == null ? -1 : chunkId.lastIndexOf("-v");
        if (v <= 0) {
            return null;
        }
        String id = chunkId.substring(0, v);
        return id.startsWith("figure-") ? id.substring("figure-".length()) : id;
    }

    /**
     * The text that indexes represent this chunk by: title and heading path give a chunk the context its own words
     * lack (a paragraph under "Installation" rarely says "installation").
     */
    public String indexText(String title) {
        return indexText(title, headingPath, text);
    }

    /** The index text of a chunk not yet built: see {@link #indexText(String)}. */
    public static String indexText(String title, List<String> headingPath, String text) {
        StringBuilder sb = new StringBuilder();
        if (title != null && !title.isBlank()) {
            sb.append(title.strip()).append('\n');
        }
        for (String h : headingPath) {
            if (!h.equals(title)) {
                sb.append(h).append('\n');
            }
        }
        return sb.append(text).toString();
    }
}
