package io.polyrag.core.model;

import java.util.ArrayList;
import java.util.List;

/**
 * An answer with its sources.
 *
 * @param query the question as received
 * @param answer the answer text; claims cite sources as {@code [n]}
 * @param mode {@code extractive} (sentences quoted from the sources, no language model) or {@code generated}
 * @param note how the answer was made, in words for the reader
 * @param sources the numbered sources, numbered by first appearance; one number per document
 * @param tookMs wall time
 * @param degraded retrievers that failed or timed out
 * @param grounding per answer sentence, the sources that support it; null unless asked for
 * @param route how the intent router handled the question; null when it was not asked
 * @param warnings what the search behind it warned of (a reranker that failed and left the fused order, an ingest
 *     still running, a large category filtered late), as a search's own {@code warnings}
 */
public record Answer(String query, String answer, String mode, String note, List<AnswerSource> sources,
        long tookMs, List<DegradedLeg> degraded, List<GroundedSentence> grounding, AnswerRoute route,
        List<String> warnings) {
    public Answer {
        sources = List.copyOf(sources);
        degraded = List.copyOf(degraded);
        grounding = grounding == null ? null : List.copyOf(grounding);
        warnings = warnings == null ? List.of() : List.copyOf(warnings);
    }

    /** An answer without warnings. */
    // style: the record's components but its last, as every answer made before warnings were carried
    public Answer(String query, String answer, String mode, String note, List<AnswerSource> sources, long tookMs,
            List<DegradedLeg> degraded, List<GroundedSentence> grounding, AnswerRoute route) {
        this(query, answer, mode, note, sources, tookMs, degraded, grounding, route, List.of());
    }

    /** The same answer with {@code more} warnings after its own. */
    public Answer warned(List<String> more) {
        if (more.isEmpty()) {
            return this;
        }
        List<String> all = new ArrayList<>(warnings);
        all.addAll(more);
        return new Answer(query, answer, mode, note, sources, tookMs, degraded, grounding, route, all);
    }

    /** The note's sentence for a generated answer the model stopped at its allowance of tokens. */
    public static final String CUT = "It stops where the model reached its allowance";

    /** Whether the model stopped this answer at its allowance, its text unfinished (OpenAI's finish "length"). */
    public boolean cut() {
        return "generated".equals(mode) && note != null && note.contains(CUT);
    }

    /** The note's sentence for a generated answer the provider itself stopped (a content filter, a refusal). */
    public static final String FILTERED = "The provider stopped it";

    /** Whether the provider stopped this answer itself (OpenAI's finish "content_filter", Anthropic's "refusal"). */
    public boolean filtered() {
        return "generated".equals(mode) && note != null && note.contains(FILTERED);
    }

    /** An answer the router did not touch. */
    public Answer(String query, String answer, String mode, String note, List<AnswerSource> sources, long tookMs,
            List<DegradedLeg> degraded, List<GroundedSentence> grounding) {
        this(query, answer, mode, note, sources, tookMs, degraded, grounding, null, List.of());
    }
}
