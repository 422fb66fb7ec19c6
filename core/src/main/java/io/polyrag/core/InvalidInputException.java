package io.polyrag.core;

/** The request or file is wrong and retrying it unchanged will fail again; the message tells the caller the fix. */
public class InvalidInputException extends PolyragException {
    private static final long serialVersionUID = 1L;

    public InvalidInputException(String message) {
        super(message);
    }

    public InvalidInputException(String message, Throwable cause) {
        super(message, cause);
    }
}
