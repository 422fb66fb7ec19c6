package io.polyrag.core;

/** A named resource (job, document, knowledge base) does not exist, or is not visible to the caller. */
public class NotFoundException extends PolyragException {
    private static final long serialVersionUID = 1L;

    public NotFoundException(String message) {
        super(message);
    }
}
