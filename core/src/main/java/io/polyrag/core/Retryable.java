package io.polyrag.core;

/**
 * Marks an exception whose operation may succeed if tried again unchanged (a timeout, a 429, a 5xx, a reset
 * connection). Code that retries checks for this marker and never retries anything else.
 */
public interface Retryable {
}
