package io.polyrag.core.model;

import java.util.List;
import java.util.Map;

/**
 * One fused hit.
 *
 * @param rank 1-based final rank
 * @param score the fused score
 * @param documentId the document
 * @param chunkId the chunk
 * @param uri the document's uri
 * @param title the document's title
 * @param text the chunk's text
 * @param kind prose, table or code
 * @param headingPath headings enclosing the chunk
 * @param knowledgeBase the document's knowledge base
 * @param sources for every retriever that found this chunk (or a duplicate merged into it), its rank and score,
 *     keyed by modality wire name
 * @param version the document version the chunk belongs to
 * @param ordinal the chunk's position in its document
 * @param location where in the source the chunk is ({@code page 3}, {@code sheet Budget}, {@code slide 2}), or
 *     empty
 * @param contributions each modality's share of {@code score} (what fusion added for it; reranking, when on,
 *     replaces the order, not these)
 * @param merged ids of near-duplicate chunks merged into this hit (same text or nearly); their best contribution per
 *     modality counts, once
 * @param figures figures shown with this hit: those anchored to it, then those whose caption matched the query and
 *     that belong with it
 */
public record SearchHit(int rank, double score, String documentId, String chunkId, String uri, String title,
        String text, ChunkKind kind, List<String> headingPath, String knowledgeBase,
        Map<String, SourceScore> sources, long version, int ordinal, String location, List<String> merged,
        Map<String, Double> contributions, List<FigureRef> figures) {
    public SearchHit {
        figures = figures == null ? List.of() : List.copyOf(figures);
        headingPath = List.copyOf(headingPath);
        sources = Map.copyOf(sources);
        location = location == null ? "" : location;
        merged = merged == null ? List.of() : List.copyOf(merged);
        contributions = contributions == null ? Map.of() : Map.copyOf(contributions);
    }

    /** This hit with other figures. */
    public SearchHit withFigures(List<FigureRef> figures) {
        return toBuilder().figures(figures).build();
    }

    /** This hit at another rank. */
    public SearchHit atRank(int rank) {
        return toBuilder().rank(rank).build();
    }

    /** A hit built by name; what is not set is empty (prose, no headings, sources, figures or merges). */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this hit, to change some of it. */
    public Builder toBuilder() {
        return new Builder().rank(rank).score(score).documentId(documentId).chunkId(chunkId).uri(uri).title(title)
                .text(text).kind(kind).headingPath(headingPath).knowledgeBase(knowledgeBase).sources(sources)
                .version(version).ordinal(ordinal).location(location).merged(merged).contributions(contributions)
                        .figures(figures);
    }

    /** Builds a {@link SearchHit} by name. */
    public static final class Builder {
        private int rank;
        private double score;
        private String documentId;
        private String chunkId;
        private String uri = "";
        private String title = "";
        private String text = "";
        private ChunkKind kind = ChunkKind.PROSE;
        private List<String> headingPath = List.of();
        private String knowledgeBase = "";
        private Map<String, SourceScore> sources = Map.of();
        private long version;
        private int ordinal;
        private String location = "";
        private List<String> merged = List.of();
        private Map<String, Double> contributions = Map.of();
        private List<FigureRef> figures = List.of();

        private Builder() {
        }

        public Builder rank(int rank) {
            this.rank = rank;
            return this;
        }

        public Builder score(double score) {
            this.score = score;
            return this;
        }

        public Builder documentId(String documentId) {
            this.documentId = documentId;
            return this;
        }

        public Builder chunkId(String chunkId) {
            this.chunkId = chunkId;
            return this;
        }

        public Builder uri(String uri) {
            this.uri = uri;
            return this;
        }

        public Builder title(String title) {
            this.title = title;
            return this;
        }

        public Builder text(String text) {
            this.text = text;
            return this;
        }

        public Builder kind(ChunkKind kind) {
            this.kind = kind;
            return this;
        }

        public Builder headingPath(List<String> headingPath) {
            this.headingPath = headingPath;
            return this;
        }

        public Builder knowledgeBase(String knowledgeBase) {
            this.knowledgeBase = knowledgeBase;
            return this;
        }

        public Builder sources(Map<String, SourceScore> sources) {
            this.sources = sources;
            return this;
        }

        public Builder version(long version) {
            this.version = version;
            return this;
        }

        public Builder ordinal(int ordinal) {
            this.ordinal = ordinal;
            return this;
        }

        public Builder location(String location) {
            this.location = location;
            return this;
        }

        public Builder merged(List<String> merged) {
            this.merged = merged;
            return this;
        }

        public Builder contributions(Map<String, Double> contributions) {
            this.contributions = contributions;
            return this;
        }

        public Builder figures(List<FigureRef> figures) {
            this.figures = figures;
            return this;
        }

        public SearchHit build() {
            return new SearchHit(rank, score, documentId, chunkId, uri, title, text, kind, headingPath,
                    knowledgeBase, sources, version, ordinal, location, merged, contributions, figures);
        }
    }
}
