package io.polyrag.core.port;

import io.polyrag.core.PolyragException;
import io.polyrag.core.model.Extraction;
import java.time.Duration;
import java.util.ArrayList;
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
     * How long extraction may take: each text at most {@code perText}, the whole call until {@code deadlineNanos}
     * ({@link System#nanoTime()}). A text that runs over, or is not reached in time, gets
     * {@link Extraction#TIME_STOPPED}: nothing of it, so a graph never holds half a text.
     */
    record TimeLimits(Duration perText, long deadlineNanos) {
        public static TimeLimits none() {
            return new TimeLimits(Duration.ofDays(1), Long.MAX_VALUE);
        }

        /** Whether the call's deadline has passed. */
        public boolean expired() {
            return deadlineNanos != Long.MAX_VALUE && System.nanoTime() - deadlineNanos > 0;
        }
    }

    /**
     * An extraction that failed part way through, after calls that were paid for: their tokens are counted to the
     * ingest's budget and the tenant's usage though nothing of the call is kept (counted as nothing, a batch with one
     * text the provider refuses cost the operator every other call of it and the tenant none).
     */
    final class Failed extends PolyragException {
        private static final long serialVersionUID = 1L;
        private final long tokensSpent;

        public Failed(RuntimeException cause, long tokensSpent) {
            super(String.valueOf(cause.getMessage()), cause);
            this.tokensSpent = tokensSpent;
        }

        public long tokensSpent() {
            return tokensSpent;
        }

        /** {@code e} as a failure carrying {@code spent} more tokens than it says (itself when none were spent). */
        public static RuntimeException after(RuntimeException e, long spent) {
            if (e instanceof Failed f) {
                return spent == 0 ? f : new Failed((RuntimeException) f.getCause(), spent + f.tokensSpent());
            }
            return spent > 0 ? new Failed(e, spent) : e;
        }
    }

    /**
     * Like {@link #extract(List, long)}, within {@code limits}. The default honours only the call's deadline, between
     * texts, for extractors whose texts are short or whose own calls time out (a language model's); a failure part
     * way through carries what the texts before it spent ({@link Failed}).
     */
    default List<Extraction> extract(List<String> texts, long tokenBudget, TimeLimits limits) {
        if (limits.deadlineNanos() == Long.MAX_VALUE) {
            return extract(texts, tokenBudget);
        }
        List<Extraction> out = new ArrayList<>(texts.size());
        long spent = 0;
        for (String t : texts) {
            if (limits.expired()) {
                out.add(Extraction.TIME_STOPPED);
                continue;
            }
            Extraction e;
            try {
                e = extract(List.of(t), Math.max(0, tokenBudget - spent)).getFirst();
            } catch (RuntimeException x) {
                throw Failed.after(x, spent);
            }
            spent += e.tokens();
            out.add(e);
        }
        return out;
    }

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
