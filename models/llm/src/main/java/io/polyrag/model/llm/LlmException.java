package io.polyrag.model.llm;

import io.polyrag.core.PolyragException;
import io.polyrag.core.Retryable;

/**
 * A chat-model call failed. The message names the provider, the HTTP status (0 when no response came) and the
 * provider's own error message. {@link Transient} marks the failures worth retrying.
 */
public class LlmException extends PolyragException {
    private static final long serialVersionUID = 1L;

    private final String provider;
    private final int status;

    public LlmException(String provider, int status, String message, Throwable cause) {
        super(provider + (status > 0 ? " answered HTTP " + status : " could not be reached") + ": " + message, cause);
        this.provider = provider;
        this.status = status;
    }

    public String provider() {
        return provider;
    }

    public int status() {
        return status;
    }

    /** A 429, a 5xx, a timeout or a dropped connection: the same call may succeed later. */
    public static class Transient extends LlmException implements Retryable {
        private static final long serialVersionUID = 1L;

        public Transient(String provider, int status, String message, Throwable cause) {
            super(provider, status, message, cause);
        }
    }
}
