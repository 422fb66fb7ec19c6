package io.polyrag.core.port;

import io.polyrag.core.model.Extraction;
import java.util.List;

/**
 * Finds entities and the relations between them in text. Safe for concurrent use.
 *
 * <p>An extractor backed by a language model may stop early when a token budget runs out: it then returns
 * {@link Extraction#EMPTY} for the texts it did not read, and says so through {@link #exhausted()}.
 */
public interface EntityExtractor extends AutoCloseable {

    /** What extracts, e.g. {@code offline:opennlp-pos} or {@code llm:dynamic:openai-compatible:gpt-4o-mini}. */
    String id();

    /** One extraction per text, in order. */
    List<Extraction> extract(List<String> texts);

    /** Whether a token budget stopped extraction; later texts get nothing. */
    default boolean exhausted() {
        return false;
    }

    @Override
    default void close() {
    }
}
