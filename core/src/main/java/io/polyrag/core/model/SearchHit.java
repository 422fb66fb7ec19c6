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

    /** A hit with no figures. */
    // style: the positional form existing callers use; building these by name is the house step's next cut
    public SearchHit(int rank, double score, String documentId, String chunkId, String uri, String title,
            String text, ChunkKind kind, List<String> headingPath, String knowledgeBase,
            Map<String, SourceScore> sources, long version, int ordinal, String location, List<String> merged,
            Map<String, Double> contributions) {
        this(rank, score, documentId, chunkId, uri, title, text, kind, headingPath, knowledgeBase, sources, version,
                ordinal, location, merged, contributions, List.of());
    }

    /** This hit with other figures. */
    public SearchHit withFigures(List<FigureRef> figures) {
        return new SearchHit(rank, score, documentId, chunkId, uri, title, text, kind, headingPath, knowledgeBase,
                sources, version, ordinal, location, merged, contributions, figures);
    }

    /** This hit at another rank. */
    public SearchHit atRank(int rank) {
        return new SearchHit(rank, score, documentId, chunkId, uri, title, text, kind, headingPath, knowledgeBase,
                sources, version, ordinal, location, merged, contributions, figures);
    }
}
