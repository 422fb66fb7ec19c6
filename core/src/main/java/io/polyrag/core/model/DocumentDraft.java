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
 */
public record DocumentDraft(String id, String knowledgeBase, String uri, String title, String mediaType,
        String contentHash, long sizeBytes, List<Chunk> chunks) {
    public DocumentDraft {
        chunks = List.copyOf(chunks);
    }
}
