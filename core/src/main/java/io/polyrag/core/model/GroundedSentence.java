package io.polyrag.core.model;

import java.util.List;

/**
 * One sentence of an answer and the sources that support it.
 *
 * @param sentence the sentence as written
 * @param supportedBy numbers of the sources whose text covers the sentence, best first
 * @param cited numbers the sentence cites
 * @param supported whether any source supports it; an unsupported sentence should not be trusted
 */
public record GroundedSentence(String sentence, List<Integer> supportedBy, List<Integer> cited, boolean supported) {
    public GroundedSentence {
        supportedBy = List.copyOf(supportedBy);
        cited = List.copyOf(cited);
    }
}
