package io.polyrag.server;

/**
 * An RFC 9457 problem-details body.
 *
 * @param type a URI naming the problem type ({@code about:blank}: the status says it all)
 * @param title the status's reason phrase
 * @param status the HTTP status
 * @param detail what went wrong and how to fix it
 */
public record Problem(String type, String title, int status, String detail) {
    public static Problem of(int status, String title, String detail) {
        return new Problem("about:blank", title, status, detail);
    }
}
