package io.polyrag.mcp;

import io.polyrag.app.Tracing;
import io.polyrag.core.ConfigException;
import io.polyrag.core.config.Settings;
import io.polyrag.core.fs.Confinement;
import io.polyrag.core.http.BearerKeys;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The REST API as the tools see it: each call is exactly one HTTP request, on a client made for it and closed after
 * (no pooling, no retry), so one tool invocation is one request and a failure is reported, never silently repeated.
 */
final class Backend {
    private static final Duration CONNECT = Duration.ofSeconds(5);
    private final URI base;
    private final String apiKey;
    private final Duration timeout;
    private final Tracing tracing;

    Backend(URI base, String apiKey, Duration timeout) {
        this(base, apiKey, timeout, Tracing.off());
    }

    /**
     * @param base the REST API's base URL ({@code http://host:port})
     * @param apiKey sent as a bearer token, or null
     * @param timeout how long one request may take
     * @param tracing each request a client span of the tool call's, its context sent as {@code traceparent}
     */
    Backend(URI base, String apiKey, Duration timeout, Tracing tracing) {
        String s = base.toString();
        this.base = URI.create(s.endsWith("/") ? s.substring(0, s.length() - 1) : s);
        this.apiKey = checkedKey(apiKey);
        this.timeout = timeout;
        this.tracing = tracing;
    }

    /**
     * The key stripped, without a byte-order mark (a key file saved by PowerShell); refused by position, never
     * quoted, when a character a header cannot carry is left inside: the HTTP client's own error quoted the whole
     * header, and the adapter answered it to the MCP client, key and all.
     */
    static String checkedKey(String apiKey) {
        try {
            return BearerKeys.checked(apiKey, Settings.MCP_API_KEY.env());
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
    }

    /** What the REST API answered. */
    record Reply(int status, String contentType, String body) {
        boolean ok() {
            return status >= 200 && status < 300;
        }
    }

    /** The request could not be made or got no answer: the message says which, and what to check. */
    static final class Unreachable extends Exception {
        private static final long serialVersionUID = 1L;

        Unreachable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    URI base() {
        return base;
    }

    Reply get(String path) throws Unreachable {
        return send(request(path).GET());
    }

    Reply delete(String path) throws Unreachable {
        return send(request(path).DELETE());
    }

    Reply postJson(String path, String json) throws Unreachable {
        return send(request(path).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json == null ? "" : json, StandardCharsets.UTF_8)));
    }

    /** A multipart form: the files as parts named {@code fileField}, streamed from disk, and the text fields. */
    Reply postFiles(String path, String fileField, List<Path> files, Map<String, String> fields) throws Unreachable {
        return postFiles(path, fileField, files, fields, Confinement.NONE);
    }

    /** Like {@link #postFiles(String, String, List, Map)}, each file opened through {@code confinement} as it is sent. */
    Reply postFiles(String path, String fileField, List<Path> files, Map<String, String> fields,
            Confinement confinement) throws Unreachable {
        return postFiles(path, fileField, files, files.stream().map(f -> f.getFileName().toString()).toList(), fields,
                confinement);
    }

    /**
     * Like {@link #postFiles(String, String, List, Map, Confinement)}, each file sent under its name in {@code names}
     * (a relative path such as {@code 2023/summary.md}, which the server keeps as the document's name).
     */
    Reply postFiles(String path, String fileField, List<Path> files, List<String> names, Map<String, String> fields,
            Confinement confinement) throws Unreachable {
        String boundary = "polyrag-" + UUID.randomUUID();
        List<HttpRequest.BodyPublisher> parts = new ArrayList<>();
        fields.forEach((k, v) -> parts.add(HttpRequest.BodyPublishers.ofString("--" + boundary + "\r\n"
                + "Content-Disposition: form-data; name=\"" + k + "\"\r\n\r\n" + v + "\r\n", StandardCharsets.UTF_8)));
        for (int i = 0; i < files.size(); i++) {
            Path f = files.get(i);
            String name = names.get(i).replaceAll("[\"\\\\\\r\\n]", "_");
            parts.add(HttpRequest.BodyPublishers.ofString("--" + boundary + "\r\nContent-Disposition: form-data; "
                    + "name=\"" + fileField + "\"; filename=\"" + name + "\"\r\nContent-Type: "
                    + "application/octet-stream\r\n\r\n", StandardCharsets.UTF_8));
            // Opened as it is sent, through the confinement: what was checked is what is read.
            parts.add(HttpRequest.BodyPublishers.ofInputStream(() -> {
                try {
                    return confinement.open(f);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read " + f + ": " + e.getMessage(), e);
                }
            }));
            parts.add(HttpRequest.BodyPublishers.ofString("\r\n", StandardCharsets.UTF_8));
        }
        parts.add(HttpRequest.BodyPublishers.ofString("--" + boundary + "--\r\n", StandardCharsets.UTF_8));
        // The upload's time at a slow link's rate (256 KB/s) added to the timeout: a large folder sent to a remote
        // server was cut off at 120 s, and no job started.
        long bytes = 0;
        for (Path f : files) {
            try {
                bytes += Files.size(f);
            } catch (IOException e) {
                // read (and refused, naming it) when it is sent
            }
        }
        return send(request(path).timeout(timeout.plusMillis(bytes / 256))
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.concat(parts.toArray(HttpRequest.BodyPublisher[]::new))));
    }

    static String encode(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private HttpRequest.Builder request(String path) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(timeout)
                .header("Accept", "application/json").header("User-Agent", "polyrag-mcp");
        if (apiKey != null) {
            b.header("Authorization", "Bearer " + apiKey);
        }
        return b;
    }

    private Reply send(HttpRequest.Builder b) throws Unreachable {
        HttpRequest plain = b.build();
        Tracing.Call call = tracing.call(plain.method(), plain.uri());
        call.headers(b::header);
        HttpRequest request = b.build();
        try (HttpClient client = HttpClient.newBuilder().connectTimeout(CONNECT)
                .followRedirects(HttpClient.Redirect.NEVER).build()) {
            // The whole answer within the timeout, its body included: the JDK's own ends with the headers, and a
            // backend that stalls after them (a dropped network, a dead host) held the tool call for ever.
            CompletableFuture<HttpResponse<String>> answer = client.sendAsync(request,
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            HttpResponse<String> r;
            try {
                r = answer.get(request.timeout().orElse(timeout).toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                answer.cancel(true);
                client.shutdownNow();
                throw new HttpTimeoutException("no whole answer within " + request.timeout().orElse(timeout)
                        .toMillis() + " ms");
            } catch (ExecutionException e) {
                throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
            }
            call.end(r.statusCode());
            return new Reply(r.statusCode(), r.headers().firstValue("Content-Type").orElse(""), r.body());
        } catch (HttpTimeoutException e) {
            call.fail(e);
            throw new Unreachable("the polyrag REST API at " + base + " did not answer " + request.method() + " "
                    + request.uri().getPath() + " within " + request.timeout().orElse(timeout).toSeconds()
                    + " s (POLYRAG_MCP_REQUEST_TIMEOUT_SECONDS); the request was not repeated", e);
        } catch (ConnectException e) {
            call.fail(e);
            throw new Unreachable("cannot reach the polyrag REST API at " + base + " (connection refused): start it "
                    + "with 'polyrag serve', or point --backend-url / POLYRAG_MCP_BACKEND_URL at a running one", e);
        } catch (IOException e) {
            call.fail(e);
            throw new Unreachable("the request to the polyrag REST API at " + base + " failed: " + e, e);
        } catch (InterruptedException e) {
            call.fail(e);
            Thread.currentThread().interrupt();
            throw new Unreachable("interrupted while waiting for the polyrag REST API", e);
        }
    }
}
