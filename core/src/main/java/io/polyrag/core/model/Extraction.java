package io.polyrag.core.model;

import java.util.List;

/**
 * What an extractor found in one text: the entities named in it and the facts relating them.
 *
 * @param entities entities mentioned (names as written, with types where known)
 * @param facts relations between them
 * @param tokens model tokens spent on this text (0 for extractors that use no language model)
 * @param budgetStopped true when the text was not read because the token budget had run out
 * @param timeStopped true when the text was not read to its end because its time ran out (nothing of it is kept)
 */
public record Extraction(List<Entity> entities, List<Fact> facts, long tokens, boolean budgetStopped,
        boolean timeStopped) {
    public static final Extraction EMPTY = new Extraction(List.of(), List.of(), 0, false);
    /** A text left unread because the token budget ran out. */
    public static final Extraction BUDGET_STOPPED = new Extraction(List.of(), List.of(), 0, true);
    /** A text not read to its end in the time it was given. */
    public static final Extraction TIME_STOPPED = new Extraction(List.of(), List.of(), 0, false, true);

    public Extraction {
        entities = List.copyOf(entities);
        facts = List.copyOf(facts);
    }

    public Extraction(List<Entity> entities, List<Fact> facts, long tokens) {
        this(entities, facts, tokens, false);
    }

    public Extraction(List<Entity> entities, List<Fact> facts, long tokens, boolean budgetStopped) {
        this(entities, facts, tokens, budgetStopped, false);
    }
}
