package io.polyrag.core.model;

/**
 * A visible document version and the records each kind of store should hold of it.
 *
 * @param version the document version
 * @param knowledgeBase its knowledge base
 * @param chunks records in a chunk index (vector, full text): one per chunk
 * @param graphChunks records in the graph and RDF stores (chunks that carry entities or relations); -1 when not
 *     known (a version written before polyrag counted them)
 */
public record VersionRecords(DocumentVersion version, String knowledgeBase, int chunks, int graphChunks) {
    /** {@link #graphChunks()} of a version indexed while no graph or RDF store was enabled: nothing was extracted. */
    public static final int NOT_EXTRACTED = -2;

}
