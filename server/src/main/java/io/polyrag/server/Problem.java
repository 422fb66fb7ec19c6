package io.polyrag.server;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * An RFC 9457 problem-details body.
 *
 * @param type a URI naming the problem type ({@code about:blank}: the status says it all)
 * @param title the status's reason phrase
 * @param status the HTTP status
 * @param detail what went wrong and how to fix it
 * @param traceId the request's trace, when traces are on (to find it in the tracing backend); absent otherwise
 */
public record Problem(String type, String title, int status, String detail,
        @JsonProperty("trace_id")
        @JsonInclude(JsonInclude.Include.NON_NULL)
        String traceId) {
    public Problem(String type, String title, int status, String detail) {
        this(type, title, status, detail, null);
    }

    public static Problem of(int status, String title, String detail) {
        return new Problem("about:blank", title, status, detail);
    }

    /** This problem naming the trace {@code id} (null: none). */
    public Problem traced(String id) {
        return new Problem(type, title, status, detail, id);
    }
}
