package io.polyrag.core.model;

import java.util.List;

/**
 * One sentence of an answer and the sources that support it.
 *
 * @param sentence the sentence as written
 * @param supportedBy numbers of the sources whose text covers the sentence (its words, each number it states, a
 *     negation it makes), best first
 * @param cited numbers the sentence cites
 * @param supported whether a source supports it, one it cites when it cites any; an unsupported sentence should not
 *     be trusted
 */
public record GroundedSentence(String sentence, List<Integer> supportedBy, List<Integer> cited, boolean supported) {
    public GroundedSentence {
        supportedBy = List.copyOf(supportedBy);
        cited = List.copyOf(cited);
    }
}
