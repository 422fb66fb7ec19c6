package io.polyrag.core;

/**
 * The request conflicts with what exists or runs: a knowledge base of that name exists already (for good), or a
 * tuning, an evaluation, a back-fill or a writer's stop is under way ({@link #passes()}: the same request succeeds
 * once it has ended).
 */
public class ConflictException extends PolyragException {
    private static final long serialVersionUID = 1L;
    private final boolean passes;

    public ConflictException(String message) {
        this(message, false);
    }

    /** @param passes whether the conflict ends by itself (something under way), so trying again later succeeds */
    public ConflictException(String message, boolean passes) {
        super(message);
        this.passes = passes;
    }

    /** Whether the conflict ends by itself: the command line exits 3 (try again later) rather than 2. */
    public boolean passes() {
        return passes;
    }
}
