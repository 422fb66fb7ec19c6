package io.polyrag.core.model;

import java.util.Map;

/**
 * A fact extracted from one chunk: subject, predicate, object, where it was found, and its properties.
 *
 * @param subject the subject entity's display name
 * @param subjectType the subject's type, or empty
 * @param predicate the relation's name
 * @param object the object entity's display name
 * @param objectType the object's type, or empty
 * @param chunkId the chunk that states it
 * @param documentId that chunk's document
 * @param version that document's version
 * @param properties further properties (confidence, extractor, …)
 */
public record Relation(String subject, String subjectType, String predicate, String object, String objectType,
        String chunkId, String documentId, long version, Map<String, String> properties) {
    public Relation {
        properties = Map.copyOf(properties);
    }
}
