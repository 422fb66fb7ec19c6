package io.polyrag.core.model;

import java.time.Instant;

/**
 * A document as the catalog knows it.
 *
 * @param id derived from (knowledge base, uri): {@code DocumentIds.of}
 * @param knowledgeBase the knowledge base it belongs to
 * @param uri where it came from; its identity within the knowledge base
 * @param title its title
 * @param mediaType what it was parsed as
 * @param contentHash SHA-256 of its bytes, hex
 * @param sizeBytes size of its bytes
 * @param visibleVersion the version retrieval sees, 0 while none is visible
 * @param chunkCount chunks of the visible version
 * @param updatedAt when the visible version became visible
 * @param meta its description: categories, subcategory, external reference
 * @param pending whether a version is being written (the first one, or one that will replace the visible one)
 */
public record DocumentInfo(String id, String knowledgeBase, String uri, String title, String mediaType,
        String contentHash, long sizeBytes, long visibleVersion, int chunkCount, Instant updatedAt,
        DocumentMeta meta, boolean pending) {
    public DocumentInfo {
        meta = meta == null ? DocumentMeta.NONE : meta;
    }

    /** Where it stands: being indexed, indexed, or being updated. */
    public DocumentStatus status() {
        return visibleVersion == 0 ? DocumentStatus.INDEXING
                : pending ? DocumentStatus.UPDATING : DocumentStatus.INDEXED;
    }

    /** The same document as seen under another knowledge-base name (a tenant's view drops its namespace). */
    public DocumentInfo inKnowledgeBase(String name) {
        return new DocumentInfo(id, name, uri, title, mediaType, contentHash, sizeBytes, visibleVersion, chunkCount,
                updatedAt, meta, pending);
    }
}
