package io.polyrag.ingest;

import io.polyrag.core.port.TokenCounter;

/**
 * A model-free token estimate for when no embedding model is loaded: word-piece tokenizers split English into about
 * 1.3 tokens per word, and every punctuation mark is a token of its own.
 */
public final class WordTokenCounter implements TokenCounter {
    @Override
    public int count(String text) {
        int words = 0;
        int punctuation = 0;
        boolean inWord = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isLetterOrDigit(c)) {
                if (!inWord) {
                    words++;
                    inWord = true;
                }
            } else {
                inWord = false;
                if (!Character.isWhitespace(c)) {
                    punctuation++;
                }
            }
        }
        return (int) Math.ceil(words * 1.3) + punctuation;
    }
}
