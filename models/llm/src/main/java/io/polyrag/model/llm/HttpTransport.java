package io.polyrag.model.llm;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;

/**
 * The one way polyrag calls a model over HTTP: connect and request timeouts, and bounded exponential backoff with
 * jitter that retries only transient failures — 408, 429 (honouring {@code Retry-After}), 5xx, timeouts and dropped
 * connections — never another 4xx. A streamed call is retried only until its first byte arrives: after that, a
 * retry would repeat text the caller has already received. Thread-safe.
 */
final class HttpTransport {
    /** How a retry waits; tests replace it to record the delays instead of sleeping. */
    interface Sleeper {
        void sleep(Duration d) throws InterruptedException;
    }

    private static final Duration BASE_DELAY = Duration.ofMillis(500);
    private static final Duration MAX_DELAY = Duration.ofSeconds(30);

    private final String provider;
    private final HttpClient client;
    private final Duration requestTimeout;
    private final int maxRetries;
    private final Sleeper sleeper;

    HttpTransport(String provider, Duration connectTimeout, Duration requestTimeout, int maxRetries, Sleeper sleeper) {
        this.provider = provider;
        this.client = HttpClient.newBuilder().connectTimeout(connectTimeout).version(HttpClient.Version.HTTP_1_1)
                .build();
        this.requestTimeout = requestTimeout;
        this.maxRetries = maxRetries;
        this.sleeper = sleeper;
    }

    /** POSTs JSON and returns the response body of a 2xx, retrying transient failures. */
    String postJson(URI uri, Map<String, String> headers, String body, Function<String, String> errorMessage) {
        return withRetries(() -> {
            HttpResponse<String> r = send(uri, headers, body, HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() / 100 != 2) {
                throw failure(r.statusCode(), errorMessage.apply(r.body()), retryAfter(r));
            }
            return r.body();
        });
    }

    /**
     * POSTs JSON and feeds each line of a 2xx response to {@code onLine} as it arrives (server-sent events).
     * Retries only while nothing has been received.
     */
    void postStream(URI uri, Map<String, String> headers, String body, Function<String, String> errorMessage,
            java.util.function.Consumer<String> onLine) {
        withRetries(() -> {
            HttpResponse<java.io.InputStream> r = send(uri, headers, body, HttpResponse.BodyHandlers.ofInputStream());
            if (r.statusCode() / 100 != 2) {
                String err;
                try (var in = r.body()) {
                    err = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                } catch (IOException e) {
                    err = "(the error body could not be read: " + e.getMessage() + ")";
                }
                throw failure(r.statusCode(), errorMessage.apply(err), retryAfter(r));
            }
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = reader.readLine()) != null) {
                    onLine.accept(line);
                }
            } catch (IOException e) {
                // Text already went to the caller: fail without retrying.
                throw new LlmException(provider, r.statusCode(), "the stream broke off: " + e.getMessage(), e);
            }
            return null;
        });
    }

    private <T> HttpResponse<T> send(URI uri, Map<String, String> headers, String body,
            HttpResponse.BodyHandler<T> handler) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(requestTimeout)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(b::header);
        try {
            return client.send(b.build(), handler);
        } catch (HttpTimeoutException e) {
            throw new LlmException.Transient(provider, 0, "timed out after " + requestTimeout.toSeconds() + " s", e);
        } catch (ConnectException e) {
            throw new LlmException.Transient(provider, 0, "connection refused at " + uri.getHost() + ":"
                    + uri.getPort(), e);
        } catch (IOException e) {
            throw new LlmException.Transient(provider, 0, "connection failed (" + e.getClass().getSimpleName() + ": "
                    + e.getMessage() + ")", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LlmException(provider, 0, "interrupted", e);
        }
    }

    private LlmException failure(int status, String message, Duration retryAfter) {
        boolean transientStatus = status == 408 || status == 429 || status >= 500;
        return transientStatus ? new RetryAfter(provider, status, message, retryAfter)
                : new LlmException(provider, status, message, null);
    }

    /** A transient failure that may say how long to wait. */
    private static final class RetryAfter extends LlmException.Transient {
        private static final long serialVersionUID = 1L;
        private final transient Duration wait;

        RetryAfter(String provider, int status, String message, Duration wait) {
            super(provider, status, message, null);
            this.wait = wait;
        }
    }

    private static Duration retryAfter(HttpResponse<?> r) {
        return r.headers().firstValue("retry-after").map(v -> {
            try {
                return Duration.ofSeconds(Long.parseLong(v.strip()));
            } catch (NumberFormatException e) {
                return null;
            }
        }).orElse(null);
    }

    interface Call<T> {
        T run();
    }

    private <T> T withRetries(Call<T> call) {
        for (int attempt = 0;; attempt++) {
            try {
                return call.run();
            } catch (LlmException.Transient e) {
                if (attempt >= maxRetries) {
                    throw e;
                }
                pause(e instanceof RetryAfter ra && ra.wait != null ? min(ra.wait, MAX_DELAY) : backoff(attempt));
            }
        }
    }

    /** Exponential from 0.5 s, capped, with full jitter between half and all of it. */
    static Duration backoff(int attempt) {
        long cap = Math.min(MAX_DELAY.toMillis(), BASE_DELAY.toMillis() << Math.min(attempt, 10));
        return Duration.ofMillis(cap / 2 + ThreadLocalRandom.current().nextLong(cap / 2 + 1));
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private void pause(Duration d) {
        try {
            sleeper.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LlmException(provider, 0, "interrupted while waiting to retry", e);
        }
    }
}
