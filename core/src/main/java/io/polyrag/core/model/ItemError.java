package io.polyrag.core.model;

/**
 * One input that could not be processed while the rest went on.
 *
 * @param source the file name or uri
 * @param reason why, in words a user can act on
 * @param retry whether the same input may well succeed later (a quota reached, a model or store that failed, a
 *     cancel), as opposed to a refusal of the content itself (a type polyrag does not read, bytes it cannot parse,
 *     no text): a sync tries such an item again at its next scan instead of remembering it as read
 */
public record ItemError(String source, String reason, boolean retry) {
    /** A refusal of the input itself: trying the same bytes again would fail the same way. */
    public ItemError(String source, String reason) {
        this(source, reason, false);
    }
}
