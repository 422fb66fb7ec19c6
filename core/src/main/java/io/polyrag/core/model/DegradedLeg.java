package io.polyrag.core.model;

/**
 * A retriever that contributed nothing: it failed, ran out of time, or was not searched because its store holds only
 * part of the collection; the search itself still succeeded.
 *
 * @param modality which retriever
 * @param reason why, in words
 */
public record DegradedLeg(Modality modality, String reason) {
}
