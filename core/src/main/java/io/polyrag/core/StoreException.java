package io.polyrag.core;

/** A store failed to read or write; adapters wrap their backend's exception in this and keep it as the cause. */
public class StoreException extends PolyragException {
    private static final long serialVersionUID = 1L;

    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }

    public StoreException(String message) {
        super(message);
    }
}
