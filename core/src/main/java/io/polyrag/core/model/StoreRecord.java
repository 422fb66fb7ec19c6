package io.polyrag.core.model;

import java.util.Objects;

/**
 * What a chunk index stores for one chunk. Stores keep identities and what they search on; the catalog keeps the
 * chunk's text and metadata and is the source of truth for visibility.
 *
 * @param chunkId the chunk's id
 * @param documentId the owning document
 * @param version the document version
 * @param knowledgeBase the knowledge base the document belongs to (stores filter on it)
 * @param text the text to index (title and headings included: {@link Chunk#indexText(String)})
 * @param vector the embedding, or null for stores that do not need one
 * @param graph the entities and relations extracted from the chunk, for graph and RDF stores
 */
public record StoreRecord(String chunkId, String documentId, long version, String knowledgeBase, String text,
        float[] vector, ChunkGraph graph) {
    public StoreRecord {
        Objects.requireNonNull(chunkId, "chunkId");
        Objects.requireNonNull(documentId, "documentId");
        Objects.requireNonNull(knowledgeBase, "knowledgeBase");
        Objects.requireNonNull(text, "text");
        graph = graph == null ? ChunkGraph.EMPTY : graph;
    }

    /** A record with no graph part. */
    public StoreRecord(String chunkId, String documentId, long version, String knowledgeBase, String text,
            float[] vector) {
        this(chunkId, documentId, version, knowledgeBase, text, vector, ChunkGraph.EMPTY);
    }

    public DocumentVersion documentVersion() {
        return new DocumentVersion(documentId, version);
    }
}
