package io.polyrag.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** What {@code serve} answers while its stores open: alive, not ready, and a 503 with Retry-After for the rest. */
class StartingServerTest {
    private final HttpClient http = HttpClient.newHttpClient();

    private HttpResponse<String> get(int port, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void health_passes_ready_and_every_route_say_to_retry_and_the_port_is_free_once_closed() throws Exception {
        int port;
        try (StartingServer s = StartingServer.bind("127.0.0.1", 0, "9.9.9")) {
            port = s.port();
            var health = get(port, "/health");
            assertThat(health.statusCode()).isEqualTo(200);
            assertThat(health.body()).contains("\"status\":\"starting\"").contains("9.9.9");
            var ready = get(port, "/ready");
            assertThat(ready.statusCode()).isEqualTo(503);
            assertThat(ready.headers().firstValue("Retry-After")).contains("1");
            var search = get(port, "/v1/search?q=levain");
            assertThat(search.statusCode()).isEqualTo(503);
            assertThat(search.headers().firstValue("Content-Type")).contains("application/problem+json");
            assertThat(search.headers().firstValue("Retry-After")).contains("1");
            assertThat(search.body()).contains("polyrag is starting").contains("\"status\":503");
            var upload = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/ingest/text"))
                    .POST(HttpRequest.BodyPublishers.ofString("{\"text\": \"" + "x".repeat(100_000) + "\"}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(upload.statusCode()).as("a body sent while starting: refused, not read").isEqualTo(503);
            var page = get(port, "/");
            assertThat(page.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/html");
            assertThat(page.body()).contains("http-equiv=\"refresh\"");
        }
        try (java.net.ServerSocket again = new java.net.ServerSocket(port, 50,
                java.net.InetAddress.getLoopbackAddress())) {
            assertThat(again.getLocalPort()).as("the port is free for the REST server").isEqualTo(port);
        }
    }
}
