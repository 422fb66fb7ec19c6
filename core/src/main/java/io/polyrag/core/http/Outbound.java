package io.polyrag.core.http;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.ConnectException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLPeerUnverifiedException;

/**
 * The one way polyrag calls out over HTTP — language models, rerankers, web sources: connect and request timeouts,
 * and bounded exponential backoff with jitter that retries only transient failures — 408, 429 (honouring
 * {@code Retry-After}), 5xx, timeouts and dropped connections — never another 4xx. A streamed call is retried only
 * until its first line reaches the caller: after that, a retry would repeat what the caller has already received. Redirects are
 * not followed here: a caller that follows them checks each hop first. Thread-safe.
 */
public final class Outbound {
    /** How a retry waits; tests replace it to record the delays instead of sleeping. */
    public interface Sleeper {
        void sleep(Duration d) throws InterruptedException;
    }

    /** A response read whole, up to the caller's byte limit. */
    public record Response(int status, HttpHeaders headers, byte[] body, boolean truncated) {
        public String header(String name) {
            return headers.firstValue(name).orElse(null);
        }
    }

    /**
     * Sees every request this process sends out, one attempt at a time: tracing makes each a client span of the
     * trace current on the calling thread and sends its context along as headers ({@code traceparent}).
     */
    public interface Observer {
        /** An attempt about to be sent; never null ({@link Call#NONE} when not watched). */
        Call start(String method, URI uri, String target);

        /** One attempt. */
        interface Call {
            Call NONE = new Call() {
            };

            /** Headers to send with the attempt. */
            default void headers(BiConsumer<String, String> header) {
            }

            /** The response's status arrived. */
            default void end(int status) {
            }

            /** No response: the attempt failed with {@code e}. */
            default void fail(Throwable e) {
            }
        }
    }

    private static final Observer UNOBSERVED = (method, uri, target) -> Observer.Call.NONE;
    private static volatile Observer observer = UNOBSERVED;

    /** Watches every outbound request of the process from now on; null stops watching. */
    public static void observe(Observer o) {
        observer = o == null ? UNOBSERVED : o;
    }

    /** Stops watching, if {@code o} is what watches. */
    public static void unobserve(Observer o) {
        if (observer == o) {
            observer = UNOBSERVED;
        }
    }

    private static final Duration BASE_DELAY = Duration.ofMillis(500);
    private static final Duration MAX_DELAY = Duration.ofSeconds(30);

    private final String target;
    private final HttpClient client;
    private final Duration requestTimeout;
    private final int maxRetries;
    private final Sleeper sleeper;

    /**
     * @param target what is called, for messages (a provider's name, or "web")
     * @param maxRetries retries after the first attempt, for transient failures only
     */
    public Outbound(String target, Duration connectTimeout, Duration requestTimeout, int maxRetries, Sleeper sleeper) {
        this.target = target;
        this.client = HttpClient.newBuilder().connectTimeout(connectTimeout).version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER).build();
        this.requestTimeout = requestTimeout;
        this.maxRetries = maxRetries;
        this.sleeper = sleeper;
    }

    public String target() {
        return target;
    }

    /** The most of an answer read (a model's, a rerank API's): a larger one is not what was asked for. */
    static final int MAX_BODY = 16 << 20;
    /** The most of an error body read for its message. */
    static final int MAX_ERROR_BODY = 64 << 10;
    /** The longest line of a stream (one event's data). */
    static final int MAX_LINE = 1 << 20;

    /**
     * A stream's lines, without their ends (LF, CR LF or CR, as readLine reads them, never waiting past a CR for the
     * next character); an error past {@link #MAX_LINE} characters in one line.
     */
    private static final class Lines {
        private final BufferedReader reader;
        private boolean skipLf;

        Lines(BufferedReader reader) {
            this.reader = reader;
        }

        String next() throws IOException {
            StringBuilder sb = new StringBuilder();
            for (int c = reader.read(); c >= 0; c = reader.read()) {
                if (skipLf) {
                    skipLf = false;
                    if (c == '\n') {
                        continue;
                    }
                }
                if (c == '\n' || c == '\r') {
                    skipLf = c == '\r';
                    return sb.toString();
                }
                if (sb.length() >= MAX_LINE) {
                    throw new IOException("a line longer than " + (MAX_LINE >> 20) + " MiB: not a stream of events");
                }
                sb.append((char) c);
            }
            return sb.isEmpty() ? null : sb.toString();
        }
    }

    /** POSTs JSON and returns the response body of a 2xx, retrying transient failures. */
    public String postJson(URI uri, Map<String, String> headers, String body, Function<String, String> errorMessage) {
        return withRetries(() -> {
            HttpResponse<InputStream> r = send(json(uri, headers, body), HttpResponse.BodyHandlers.ofInputStream());
            byte[] bytes;
            try (InputStream in = r.body(); Watchdog dog = new Watchdog(in)) {
                bytes = dog.read(() -> in.readNBytes(MAX_BODY + 1), uri, r.statusCode());
            } catch (IOException e) {
                throw new OutboundException.Transient(target, r.statusCode(), "the body of " + uri + " broke off: "
                        + e.getMessage(), e);
            }
            if (r.statusCode() / 100 != 2) {
                String err = new String(bytes, 0, Math.min(bytes.length, MAX_ERROR_BODY), StandardCharsets.UTF_8);
                throw failure(r.statusCode(), errorMessage.apply(err), retryAfter(r.headers()), err);
            }
            if (bytes.length > MAX_BODY) {
                // Not a model's answer (a wrong address, a faulty gateway): refused before it fills the heap.
                throw new OutboundException(target, r.statusCode(), "the answer is larger than " + (MAX_BODY >> 20)
                        + " MiB: is the address an API of this kind?", null);
            }
            return new String(bytes, StandardCharsets.UTF_8);
        });
    }

    /**
     * POSTs JSON and feeds each line of a 2xx response to {@code onLine} as it arrives (server-sent events).
     * Retries only while nothing has been received.
     */
    public void postStream(URI uri, Map<String, String> headers, String body, Function<String, String> errorMessage,
            Consumer<String> onLine) {
        withRetries(() -> {
            HttpResponse<InputStream> r = send(json(uri, headers, body), HttpResponse.BodyHandlers.ofInputStream());
            if (r.statusCode() / 100 != 2) {
                String err;
                try (InputStream in = r.body(); Watchdog dog = new Watchdog(in)) {
                    err = new String(dog.read(() -> in.readNBytes(MAX_ERROR_BODY), uri, r.statusCode()),
                            StandardCharsets.UTF_8);
                } catch (IOException e) {
                    err = "(the error body could not be read: " + e.getMessage() + ")";
                }
                throw failure(r.statusCode(), errorMessage.apply(err), retryAfter(r.headers()), err);
            }
            // Each line must come within the request timeout of the one before (a stream may run longer in all).
            boolean[] read = {false};
            Watchdog dog = new Watchdog(r.body());
            try (dog; BufferedReader reader = new BufferedReader(new InputStreamReader(r.body(),
                    StandardCharsets.UTF_8))) {
                String line;
                Lines lines = new Lines(reader);
                while ((line = dog.read(lines::next, uri, r.statusCode())) != null) {
                    dog.rearm();
                    read[0] = true;
                    onLine.accept(line);
                }
            } catch (IOException e) {
                if (!read[0]) {
                    // Silent or broken before its first line: nothing reached the caller, so it is tried again.
                    throw new OutboundException.Transient(target, r.statusCode(), "the stream broke off before its "
                            + "first line: " + e.getMessage(), e);
                }
                // Text may have gone to the caller: fail without retrying.
                throw new OutboundException(target, r.statusCode(), "the stream broke off: " + e.getMessage(), e);
            }
            return null;
        });
    }

    /**
     * GETs a resource, reading at most {@code maxBytes} of its body. Every status but a transient one is returned
     * (a 304, a 404, a redirect: the caller decides); transient ones are retried, then thrown.
     */
    public Response get(URI uri, Map<String, String> headers, long maxBytes) {
        return withRetries(() -> {
            HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(requestTimeout).GET();
            headers(b, headers);
            HttpResponse<InputStream> r = send(b, HttpResponse.BodyHandlers.ofInputStream());
            byte[] body;
            boolean truncated;
            try (InputStream in = r.body(); Watchdog dog = new Watchdog(in)) {
                body = dog.read(() -> in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBytes)), uri,
                        r.statusCode());
                truncated = dog.read(in::read, uri, r.statusCode()) >= 0;
            } catch (HttpTimeoutException e) {
                throw new OutboundException.Transient(target, r.statusCode(), "the body of " + uri + " timed out", e);
            } catch (IOException e) {
                throw new OutboundException.Transient(target, r.statusCode(), "the body of " + uri + " broke off: "
                        + e.getMessage(), e);
            }
            if (transientStatus(r.statusCode())) {
                throw failure(r.statusCode(), uri.toString(), retryAfter(r.headers()), "");
            }
            return new Response(r.statusCode(), r.headers(), body, truncated);
        });
    }

    private HttpRequest.Builder json(URI uri, Map<String, String> headers, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(requestTimeout)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
        headers(b, headers);
        return b;
    }

    /**
     * Sets each header; one the HTTP client refuses (a line break in a key taken from a file) fails naming the header,
     * never its value: the client's own message quoted the whole value, an API key included.
     */
    private void headers(HttpRequest.Builder b, Map<String, String> headers) {
        headers.forEach((name, value) -> {
            try {
                b.header(name, value);
            } catch (IllegalArgumentException e) {
                throw new OutboundException(target, 0, "the request header " + name + " holds a character HTTP does "
                        + "not allow (a line break?): check the setting it is taken from", null);
            }
        });
    }

    /** host:port as the request reaches it (the scheme's port where the URL names none, not -1). */
    private static String hostPort(URI uri) {
        return uri.getHost() + ":" + (uri.getPort() >= 0 ? uri.getPort() : "https".equals(uri.getScheme()) ? 443 : 80);
    }

    private <T> HttpResponse<T> send(HttpRequest.Builder request, HttpResponse.BodyHandler<T> handler) {
        HttpRequest built = request.build();
        URI uri = built.uri();
        Observer.Call call = observer.start(built.method(), uri, target);
        if (call != Observer.Call.NONE) {
            call.headers(request::header);
            built = request.build();
        }
        try {
            HttpResponse<T> r = client.send(built, handler);
            call.end(r.statusCode());
            return r;
        } catch (HttpConnectTimeoutException e) {
            call.fail(e);
            throw new OutboundException.Transient(target, 0, "could not connect to " + hostPort(uri) + " in time", e);
        } catch (HttpTimeoutException e) {
            call.fail(e);
            throw new OutboundException.Transient(target, 0, "timed out after " + requestTimeout.toSeconds() + " s", e);
        } catch (ConnectException e) {
            call.fail(e);
            // An unknown host comes as a connect failure too: said as such, a typo in the URL's host sent its user
            // to check whether the server was running.
            boolean unresolved = false;
            for (Throwable t = e; t != null && !unresolved; t = t.getCause()) {
                unresolved = t instanceof UnresolvedAddressException || t instanceof UnknownHostException;
            }
            throw new OutboundException.Transient(target, 0, unresolved ? "host " + uri.getHost() + " does not "
                    + "resolve (check the URL's host)" : "connection refused at " + hostPort(uri), e);
        } catch (IOException e) {
            call.fail(e);
            if (e instanceof SSLException && certificate(e)) {
                // A certificate not trusted: the same at every try, so not retried (a handshake cut off is).
                throw new OutboundException(target, 0, "TLS with " + hostPort(uri) + " failed (" + e.getMessage()
                        + "): check the URL, or trust the server's certificate (the JVM's trust store)", e);
            }
            throw new OutboundException.Transient(target, 0, "connection failed (" + e.getClass().getSimpleName()
                    + ": " + e.getMessage() + ")", e);
        } catch (InterruptedException e) {
            call.fail(e);
            Thread.currentThread().interrupt();
            throw new OutboundException(target, 0, "interrupted", e);
        } catch (RuntimeException e) {
            call.fail(e);
            throw e;
        }
    }

    /** Re-armed on every line of a stream: a cancelled timer leaves the queue at once, not when it would have run. */
    private static final ScheduledExecutorService TIMER = timer();

    private static ScheduledExecutorService timer() {
        ScheduledThreadPoolExecutor t = new ScheduledThreadPoolExecutor(1, Thread.ofPlatform().daemon()
                .name("polyrag-outbound-timer").factory());
        t.setRemoveOnCancelPolicy(true);
        return t;
    }

    /**
     * Closes a response body that is not read in time, so the read fails instead of waiting on a server that sent
     * its headers and stalled: the JDK's request timeout stops counting once the headers are in (a body that never
     * came held a web sync's worker, or a model call, for ever).
     */
    private final class Watchdog implements AutoCloseable {
        interface Read<T> {
            T run() throws IOException;
        }

        private final InputStream in;
        private volatile boolean fired;
        private ScheduledFuture<?> alarm;

        Watchdog(InputStream in) {
            this.in = in;
            rearm();
        }

        /** Gives the next read the whole timeout again. */
        synchronized void rearm() {
            if (alarm != null) {
                alarm.cancel(false);
            }
            alarm = TIMER.schedule(this::fire, requestTimeout.toNanos(), TimeUnit.NANOSECONDS);
        }

        private void fire() {
            fired = true;
            try {
                in.close();
            } catch (IOException ignored) {
                // Closing is all it does: the read then fails.
            }
        }

        <T> T read(Read<T> read, URI uri, int status) throws IOException {
            try {
                return read.run();
            } catch (IOException e) {
                if (fired) {
                    throw new HttpTimeoutException("the body of " + uri + " (HTTP " + status + ") did not arrive "
                            + "within " + requestTimeout.toSeconds() + " s");
                }
                throw e;
            }
        }

        @Override
        public synchronized void close() {
            alarm.cancel(false);
        }
    }

    /** Whether a TLS failure is the server's certificate (untrusted, expired, for another name): not passing. */
    private static boolean certificate(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof CertificateException || t instanceof CertPathValidatorException
                    || t instanceof SSLPeerUnverifiedException || String.valueOf(t.getMessage()).contains("PKIX")) {
                return true;
            }
        }
        return false;
    }

    /** 408, 429 and 5xx: worth trying again later. */
    public static boolean transientStatus(int status) {
        return status == 408 || status == 429 || status >= 500;
    }

    /**
     * A failure answered with {@code status}. A 429 for an account out of credit (OpenAI's insufficient_quota) is not
     * transient: retried at every call, each waited out its back-off to fail the same.
     */
    private OutboundException failure(int status, String message, Duration retryAfter, String body) {
        boolean noCredit = status == 429 && body.contains("insufficient_quota");
        String said = retryAfter != null && retryAfter.compareTo(MAX_DELAY) > 0 ? message + " (it asks to retry after "
                + retryAfter.toSeconds() + " s)" : message;
        return transientStatus(status) && !noCredit ? new OutboundException.Transient(target, status, said, null,
                retryAfter) : new OutboundException(target, status, said, null);
    }

    /** Retry-After in seconds or as an HTTP date (proxies and CDNs send the date on a 503). */
    static Duration retryAfter(HttpHeaders headers) {
        return headers.firstValue("retry-after").map(v -> {
            try {
                return Duration.ofSeconds(Long.parseLong(v.strip()));
            } catch (NumberFormatException e) {
                try {
                    Duration d = Duration.between(Instant.now(), ZonedDateTime.parse(v.strip(),
                            DateTimeFormatter.RFC_1123_DATE_TIME).toInstant());
                    return d.isNegative() ? Duration.ZERO : d;
                } catch (DateTimeParseException notDate) {
                    return null;
                }
            }
        }).orElse(null);
    }

    private interface Call<T> {
        T run();
    }

    private <T> T withRetries(Call<T> call) {
        for (int attempt = 0;; attempt++) {
            try {
                return call.run();
            } catch (OutboundException.Transient e) {
                if (attempt >= maxRetries) {
                    throw e;
                }
                if (e.retryAfter() != null && e.retryAfter().compareTo(MAX_DELAY) > 0) {
                    throw e; // asked to wait longer than a call waits: a try sooner would meet the same refusal
                }
                pause(e.retryAfter() != null ? e.retryAfter() : backoff(attempt));
            }
        }
    }

    /** Exponential from 0.5 s, capped, with full jitter between half and all of it. */
    public static Duration backoff(int attempt) {
        long cap = Math.min(MAX_DELAY.toMillis(), BASE_DELAY.toMillis() << Math.min(attempt, 10));
        return Duration.ofMillis(cap / 2 + ThreadLocalRandom.current().nextLong(cap / 2 + 1));
    }

    private void pause(Duration d) {
        try {
            sleeper.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new OutboundException(target, 0, "interrupted while waiting to retry", e);
        }
    }
}
