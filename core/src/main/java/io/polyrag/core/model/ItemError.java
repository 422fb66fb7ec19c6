package io.polyrag.core.model;

/**
 * One input that could not be processed while the rest went on.
 *
 * @param source the file name or uri
 * @param reason why, in words a user can act on
 */
public record ItemError(String source, String reason) {
}
