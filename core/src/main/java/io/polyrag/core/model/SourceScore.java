package io.polyrag.core.model;

/**
 * Where one retriever ranked a hit.
 *
 * @param rank 1-based rank in that retriever's list
 * @param score that retriever's own score
 */
public record SourceScore(int rank, double score) {
}
