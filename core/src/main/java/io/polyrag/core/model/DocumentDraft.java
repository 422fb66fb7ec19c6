package io.polyrag.core.model;

import java.util.List;

/**
 * A new version of a document about to be written to the stores.
 *
 * @param id the document id
 * @param knowledgeBase its knowledge base
 * @param uri its uri
 * @param title its title
 * @param mediaType what it was parsed as
 * @param contentHash SHA-256 of its bytes, hex
 * @param sizeBytes size of its bytes
 * @param chunks the new version's chunks, each already carrying the version number
 * @param graphChunks how many of them carry entities or relations, so are written to the graph and RDF stores
 *     (what {@code polyrag check} expects those stores to hold of this version)
 */
public record DocumentDraft(String id, String knowledgeBase, String uri, String title, String mediaType,
        String contentHash, long sizeBytes, List<Chunk> chunks, int graphChunks) {
    public DocumentDraft {
        chunks = List.copyOf(chunks);
    }

    /** A draft none of whose chunks goes to the graph or RDF stores. */
    public DocumentDraft(String id, String knowledgeBase, String uri, String title, String mediaType,
            String contentHash, long sizeBytes, List<Chunk> chunks) {
        this(id, knowledgeBase, uri, title, mediaType, contentHash, sizeBytes, chunks, 0);
    }
}
