package io.polyrag.ingest;

import io.polyrag.core.PolyragException;

/**
 * An extraction that failed part way through a batch, after calls that were paid for: their tokens are counted to
 * the ingest's budget and the tenant's usage though nothing of the batch is kept (counted as nothing, a batch with one
 * text the provider refuses cost the operator every other call of it and the tenant none).
 */
final class ExtractionFailed extends PolyragException {
    private static final long serialVersionUID = 1L;
    private final long tokensSpent;

    ExtractionFailed(RuntimeException cause, long tokensSpent) {
        super(String.valueOf(cause.getMessage()), cause);
        this.tokensSpent = tokensSpent;
    }

    long tokensSpent() {
        return tokensSpent;
    }
}
