package io.polyrag.core.port;

import io.polyrag.core.model.Extraction;
import java.util.List;

/** Finds entities and the relations between them in text. Safe for concurrent use. */
public interface EntityExtractor extends AutoCloseable {

    /** What extracts, e.g. {@code offline:opennlp-ud-pos} or {@code llm:dynamic:openai-compatible:gpt-4o-mini}. */
    String id();

    /**
     * One extraction per text, in order. An extractor backed by a language model spends at most about
     * {@code tokenBudget} tokens: once it is spent, the remaining texts get {@link Extraction#BUDGET_STOPPED}.
     */
    List<Extraction> extract(List<String> texts, long tokenBudget);

    /**
     * An estimate of what extracting {@code texts} would cost, without calling any model.
     *
     * @param calls model calls
     * @param inputTokens tokens sent
     * @param outputTokens tokens expected back
     */
    record Estimate(long calls, long inputTokens, long outputTokens) {
        public static final Estimate FREE = new Estimate(0, 0, 0);
    }

    /**
     * Whether extracting spends paid language-model tokens, so an ingest should estimate the cost before it starts
     * (an estimate parses and chunks every input: not worth it for a free extractor).
     */
    default boolean spendsTokens() {
        return false;
    }

    /** What {@link #extract} would cost on {@code texts}; free for extractors that use no language model. */
    default Estimate estimate(List<String> texts) {
        return Estimate.FREE;
    }

    @Override
    default void close() {
    }
}
