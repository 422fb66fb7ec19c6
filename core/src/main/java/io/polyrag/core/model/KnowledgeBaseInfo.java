package io.polyrag.core.model;

import java.time.Instant;

/**
 * A knowledge base as the catalog keeps it.
 *
 * @param name its stored name ({@code tenant/name}, or {@code name} for the local tenant)
 * @param description what its owner wrote about it
 * @param createdAt when it was created (explicitly, or by its first document)
 * @param documents visible documents in it
 * @param chunks their chunks
 */
public record KnowledgeBaseInfo(String name, String description, Instant createdAt, long documents, long chunks) {
}
