package io.polyrag.core;

/** Nothing is wrong with the request, but something it needs is not available now (a store, a model, a lock). */
public class UnavailableException extends PolyragException implements Retryable {
    private static final long serialVersionUID = 1L;

    public UnavailableException(String message) {
        super(message);
    }

    public UnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
