package io.polyrag.core.port;

/** Counts tokens the way the model that will read the text does, so chunks fit its window. */
@FunctionalInterface
public interface TokenCounter {

    /** Tokens in {@code text}, without special tokens; 0 for empty text. */
    int count(String text);
}
