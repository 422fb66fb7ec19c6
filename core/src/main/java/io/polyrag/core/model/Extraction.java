package io.polyrag.core.model;

import java.util.List;

/**
 * What an extractor found in one text: the entities named in it and the facts relating them.
 *
 * @param entities entities mentioned (names as written, with types where known)
 * @param facts relations between them
 * @param tokens model tokens spent on this text (0 for extractors that use no language model)
 */
public record Extraction(List<Entity> entities, List<Fact> facts, long tokens) {
    public static final Extraction EMPTY = new Extraction(List.of(), List.of(), 0);

    public Extraction {
        entities = List.copyOf(entities);
        facts = List.copyOf(facts);
    }
}
