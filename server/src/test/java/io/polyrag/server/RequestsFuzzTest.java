package io.polyrag.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.polyrag.app.Polyrag;
import io.polyrag.core.config.Config;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Every request body and query decoder, and the multipart reader, under Jazzer, through a real server: whatever a
 * client sends, the answer is never a 5xx, and an error is a problem+json. An input for {@link #request} is
 * {@code METHOD PATH?QUERY}, a newline and the body (sent as JSON); for {@link #multipart} a route number, a newline
 * and the raw multipart body (boundary {@code XyZ}). Regression inputs in {@code RequestsFuzzTestInputs/};
 * {@code bench/fuzz} fuzzes each for minutes.
 */
class RequestsFuzzTest {
    private static final List<String> METHODS = List.of("GET", "POST", "PUT", "DELETE", "PATCH");
    private static final List<String> MULTIPART_ROUTES = List.of("/v1/ingest/files", "/v1/ingest/upload",
            "/v1/knowledge-bases/kb/judgments", "/v1/ingest/files?kb=docs&figures=skip");

    private static Path data;
    private static Polyrag polyrag;
    private static RestServer server;
    private static HttpClient http;

    @BeforeAll
    static void start() throws Exception {
        data = Files.createTempDirectory("polyrag-fuzz");
        polyrag = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", data.toString(), "vector.enabled", "false")));
        server = new RestServer(polyrag, "127.0.0.1", 0, 1L << 20);
        http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
        polyrag.close();
        http.close();
        try (var files = Files.walk(data)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    /**
     * The test's own requests to its server are the only connections allowed; any other a request makes the server
     * open (a web source fetching an address it was handed) is a finding of Jazzer's SSRF detector.
     */
    private static void onlyTheServer() {
        com.code_intelligence.jazzer.api.BugDetectors.allowNetworkConnections((host, port) -> port == server.port()
                && (host.equals("127.0.0.1") || host.equals("localhost")));
    }

    @FuzzTest(maxDuration = "5m")
    void request(byte[] input) throws Exception {
        onlyTheServer();
        int nl = indexOf(input, (byte) '\n');
        String head = new String(input, 0, nl < 0 ? input.length : nl, StandardCharsets.UTF_8).strip();
        byte[] body = nl < 0 ? new byte[0] : Arrays.copyOfRange(input, nl + 1, input.length);
        int space = head.indexOf(' ');
        String method = space > 0 && METHODS.contains(head.substring(0, space)) ? head.substring(0, space) : "POST";
        String path = space > 0 ? head.substring(space + 1) : head;
        URI uri = uri(path);
        if (uri == null) {
            return;
        }
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json");
        b.method(method, body.length == 0 && method.equals("GET") ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofByteArray(body));
        check(method + " " + uri.getRawPath(), send(b.build()));
    }

    @FuzzTest(maxDuration = "5m")
    void multipart(byte[] input) throws Exception {
        onlyTheServer();
        int nl = indexOf(input, (byte) '\n');
        int route = nl <= 0 ? 0 : Math.floorMod(new String(input, 0, nl, StandardCharsets.UTF_8).strip().hashCode(),
                MULTIPART_ROUTES.size());
        byte[] body = nl < 0 ? input : Arrays.copyOfRange(input, nl + 1, input.length);
        HttpRequest r = HttpRequest.newBuilder(URI.create(base() + MULTIPART_ROUTES.get(route)))
                .timeout(Duration.ofSeconds(60)).header("Content-Type", "multipart/form-data; boundary=XyZ")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        check("POST " + MULTIPART_ROUTES.get(route), send(r));
    }

    /**
     * Sends once more on a new connection when the first attempt finds its pooled connection closed (the server may
     * close an idle keep-alive connection at any time, and the JDK's client does not retry a POST); a server that
     * drops the fresh connection too is a finding.
     */
    private static HttpResponse<String> send(HttpRequest r) throws Exception {
        try {
            return http.send(r, HttpResponse.BodyHandlers.ofString());
        } catch (java.io.IOException e) {
            try (HttpClient fresh = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build()) {
                return fresh.send(r, HttpResponse.BodyHandlers.ofString());
            }
        }
    }

    private static void check(String what, HttpResponse<String> r) {
        assertThat(r.statusCode()).as(what + " answered " + r.body()).isLessThan(500);
        if (r.statusCode() >= 400) {
            assertThat(r.headers().firstValue("Content-Type").orElse("")).as(what + " error body " + r.body())
                    .contains("problem+json");
        }
    }

    /** The path as a URI on the test server, or null when no client could send it (not a path, or not /v1). */
    private static URI uri(String path) {
        if (!path.startsWith("/v1/") || path.chars().anyMatch(c -> c <= ' ' || c >= 127)) {
            return null;
        }
        try {
            return URI.create(base() + path);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static String base() {
        return "http://127.0.0.1:" + server.port();
    }

    private static int indexOf(byte[] a, byte b) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] == b) {
                return i;
            }
        }
        return -1;
    }
}
