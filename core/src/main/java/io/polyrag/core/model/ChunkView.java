package io.polyrag.core.model;

/**
 * A visible chunk joined with its document: what retrieval returns to users.
 *
 * @param chunk the chunk
 * @param knowledgeBase its document's knowledge base
 * @param uri its document's uri
 * @param title its document's title
 * @param documentFigures how many figures the chunk's document version has (0 for most)
 */
public record ChunkView(Chunk chunk, String knowledgeBase, String uri, String title, int documentFigures) {
    public ChunkView(Chunk chunk, String knowledgeBase, String uri, String title) {
        this(chunk, knowledgeBase, uri, title, 0);
    }
}
