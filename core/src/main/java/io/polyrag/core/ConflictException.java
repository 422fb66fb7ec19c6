package io.polyrag.core;

/** What a request would create exists already (a knowledge base of that name). */
public class ConflictException extends PolyragException {
    private static final long serialVersionUID = 1L;

    public ConflictException(String message) {
        super(message);
    }
}
