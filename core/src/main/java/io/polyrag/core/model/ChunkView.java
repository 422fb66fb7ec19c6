package io.polyrag.core.model;

/**
 * A visible chunk joined with its document: what retrieval returns to users.
 *
 * @param chunk the chunk
 * @param knowledgeBase its document's knowledge base
 * @param uri its document's uri
 * @param title its document's title
 */
public record ChunkView(Chunk chunk, String knowledgeBase, String uri, String title) {
}
