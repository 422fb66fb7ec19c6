package io.polyrag.core.http;

import io.polyrag.core.PolyragException;
import io.polyrag.core.Retryable;
import java.time.Duration;

/**
 * An outbound HTTP call (a language model, a reranker, a web page) failed. The message names the target, the HTTP
 * status (0 when no response came) and the other side's own error message. {@link Transient} marks the failures
 * worth retrying.
 */
public class OutboundException extends PolyragException {
    private static final long serialVersionUID = 1L;

    private final String target;
    private final int status;

    public OutboundException(String target, int status, String message, Throwable cause) {
        super(target + (status > 0 ? " answered HTTP " + status : " could not be reached") + ": " + message, cause);
        this.target = target;
        this.status = status;
    }

    /**
     * What a tenant may be shown: who was called and how it failed, without the address (an operator's internal
     * host) or the provider's own words (which may quote a masked key); the log keeps the whole message.
     */
    public String shown() {
        return target + (status > 0 ? " answered HTTP " + status : " could not be reached");
    }

    /** {@code e}'s message as a tenant may see it: an outbound call's failure as {@link #shown()}, else as it is. */
    public static String shown(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof OutboundException o) {
                return o.shown();
            }
        }
        return e.getMessage();
    }

    /** What was called: a provider's name, or a host. */
    public String target() {
        return target;
    }

    public int status() {
        return status;
    }

    /** A 408, a 429, a 5xx, a timeout or a dropped connection: the same call may succeed later. */
    public static class Transient extends OutboundException implements Retryable {
        private static final long serialVersionUID = 1L;
        private final transient Duration retryAfter;

        public Transient(String target, int status, String message, Throwable cause) {
            this(target, status, message, cause, null);
        }

        public Transient(String target, int status, String message, Throwable cause, Duration retryAfter) {
            super(target, status, message, cause);
            this.retryAfter = retryAfter;
        }

        /** How long the other side asked us to wait ({@code Retry-After}), or null. */
        public Duration retryAfter() {
            return retryAfter;
        }
    }
}
