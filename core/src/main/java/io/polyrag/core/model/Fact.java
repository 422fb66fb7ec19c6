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
    /**
     * A subject standing for the document's own subject (the entity its title names), for an extractor that reads
     * one chunk and finds a pronoun ("She founded…"); the ingest resolves it per document, or drops the fact.
     */
    public static final String DOCUMENT_SUBJECT = "\u0000document-subject";

    public Fact {
        subjectType = subjectType == null ? "" : subjectType;
        objectType = objectType == null ? "" : objectType;
        properties = Map.copyOf(properties);
    }
}
