package io.polyrag.core.http;

import io.polyrag.core.PolyragException;
import io.polyrag.core.Retryable;
import java.time.Duration;
import java.util.regex.Pattern;

/**
 * An outbound HTTP call (a language model, a reranker, a web page) failed. The message names the target, the HTTP
 * status (0 when no response came) and the other side's own error message. {@link Transient} marks the failures
 * worth retrying.
 */
public class OutboundException extends PolyragException {
    private static final long serialVersionUID = 1L;

    /** A URL, an IPv4 address, or a host with a port. */
    private static final Pattern ADDRESS = Pattern.compile("[a-zA-Z][a-zA-Z0-9+.-]*://\\S+"
            + "|\\b\\d{1,3}(?:\\.\\d{1,3}){3}(?::\\d{1,5})?\\b|\\b[\\w.-]+:\\d{2,5}\\b");

    private final String target;
    private final int status;

    public OutboundException(String target, int status, String message, Throwable cause) {
        super(target + (status > 0 ? " answered HTTP " + status : " could not be reached") + ": " + message, cause);
        this.target = target;
        this.status = status;
    }

    /**
     * What a tenant may be shown: who was called and how it failed, never an address (an operator's internal host,
     * a gateway's upstream); a provider's answer to a request it refused is shown, its addresses taken out.
     */
    public String shown() {
        // A provider's refusal (4xx) says what to fix (a key, a model's name), a reply it could not use what was
        // wrong with it: shown with any address in them taken out. A 5xx is mostly a gateway's, naming hosts
        // behind it; a failure to connect names ours: summed up.
        if (status >= 400 && status < 500 || status == 200) {
            return ADDRESS.matcher(getMessage()).replaceAll("(an address)");
        }
        return target + (status > 0 ? " answered HTTP " + status : getMessage().contains("timed out")
                || getMessage().contains("stalled") ? " timed out" : " could not be reached");
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
