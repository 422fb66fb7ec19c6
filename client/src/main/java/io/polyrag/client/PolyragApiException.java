package io.polyrag.client;

import tools.jackson.databind.JsonNode;

/**
 * A request polyrag refused or could not answer, with the fields of its problem+json answer: {@code status} (0 when
 * no answer came), {@code type}, {@code title}, {@code detail} (what is wrong and the fix, naming the field), and the
 * whole problem as sent ({@link #problem()}, which for an answer that failed holds the sources found).
 */
public final class PolyragApiException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int status;
    private final String type;
    private final String title;
    private final String detail;
    private final transient JsonNode problem;
    private final long retryAfterSeconds;

    PolyragApiException(int status, String type, String title, String detail, JsonNode problem) {
        this(status, type, title, detail, problem, null);
    }

    PolyragApiException(int status, String type, String title, String detail, JsonNode problem, Throwable cause) {
        this(status, type, title, detail, problem, cause, 0);
    }

    private PolyragApiException(int status, String type, String title, String detail, JsonNode problem,
            Throwable cause, long retryAfterSeconds) {
        super((status == 0 ? "" : status + " " + title + ": ") + detail, cause);
        this.status = status;
        this.type = type;
        this.title = title;
        this.detail = detail;
        this.problem = problem;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    static PolyragApiException of(int status, JsonNode problem) {
        return of(status, problem, 0);
    }

    /** @param retryAfterSeconds the answer's {@code Retry-After} in seconds, 0 when it had none */
    static PolyragApiException of(int status, JsonNode problem, long retryAfterSeconds) {
        if (problem == null || !problem.isObject()) {
            return new PolyragApiException(status, "about:blank", "HTTP " + status, "polyrag answered " + status
                    + " without a problem description", problem, null, retryAfterSeconds);
        }
        return new PolyragApiException(problem.path("status").asInt(status), problem.path("type").asString(
                "about:blank"), problem.path("title").asString("HTTP " + status), problem.path("detail").asString(""),
                problem, null, retryAfterSeconds);
    }

    /**
     * The answer's {@code Retry-After} in seconds (a 429 or 503 whose wait was longer than the client waits for by
     * itself, or the last of its retries); 0 when it had none.
     */
    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }

    public int status() {
        return status;
    }

    public String type() {
        return type;
    }

    public String title() {
        return title;
    }

    public String detail() {
        return detail;
    }

    public JsonNode problem() {
        return problem;
    }

    /** Whether trying again later may succeed (no answer, 429, 502, 503, 504). */
    public boolean transientFailure() {
        return status == 0 || status == 429 || status == 502 || status == 503 || status == 504;
    }
}
