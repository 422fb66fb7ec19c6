package io.polyrag.core.model;

/**
 * A retriever that returned nothing because it failed or ran out of time; the search itself still succeeded.
 *
 * @param modality which retriever
 * @param reason why, in words
 */
public record DegradedLeg(Modality modality, String reason) {
}
