package io.polyrag.core;

/**
 * A tenant reached a limit its operator set: a rate that resets ({@link #retryAfterSeconds()} &gt; 0: HTTP 429 with
 * {@code Retry-After}) or an amount it holds (0: HTTP 413, until it deletes some or the limit is raised).
 */
public class QuotaExceededException extends PolyragException {
    private static final long serialVersionUID = 1L;
    private final String quota;
    private final long retryAfterSeconds;

    /**
     * @param quota the quota's name as the API spells it ({@code searches_per_minute}, {@code documents}, …)
     * @param retryAfterSeconds when it resets, in seconds from now; 0 when it does not reset by itself
     */
    public QuotaExceededException(String quota, long retryAfterSeconds, String message) {
        super(message);
        this.quota = quota;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    public String quota() {
        return quota;
    }

    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
