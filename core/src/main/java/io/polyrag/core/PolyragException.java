package io.polyrag.core;

/**
 * The one unchecked root of every error polyrag raises on purpose.
 *
 * <p>Front doors map the subclasses to status codes: {@link InvalidInputException} is the caller's fault (4xx),
 * {@link NotFoundException} a missing resource, {@link UnavailableException} a dependency that is down (503), and
 * anything else an internal failure whose message is logged but never shown with a stack trace. Adapters translate
 * backend exceptions into these at their boundary and keep the cause.
 */
public class PolyragException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public PolyragException(String message) {
        super(message);
    }

    public PolyragException(String message, Throwable cause) {
        super(message, cause);
    }
}
