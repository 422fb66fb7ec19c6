package io.polyrag.core.model;

import java.util.Map;

/**
 * A relation as an extractor states it, before it is tied to a chunk and its names are resolved.
 *
 * @param subject the subject's name as written
 * @param subjectType the subject's type, or empty
 * @param predicate the relation's name, e.g. {@code works_at}
 * @param object the object's name as written
 * @param objectType the object's type, or empty
 * @param properties further properties (evidence, confidence, …)
 */
public record Fact(String subject, String subjectType, String predicate, String object, String objectType,
        Map<String, String> properties) {
    public Fact {
        subjectType = subjectType == null ? "" : subjectType;
        objectType = objectType == null ? "" : objectType;
        properties = Map.copyOf(properties);
    }
}
