package io.polyrag.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.polyrag.app.Polyrag;
import io.polyrag.core.config.Config;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An application that embeds polyrag may stop its REST front door and start another on the same instance: the first
 * one's event streams end promptly, and the instance's jobs and events go on for the second.
 */
class ServerRestartTest {
    @TempDir
    Path tmp;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void closing_the_front_door_ends_its_event_streams_and_leaves_the_jobs_running_for_the_next() throws Exception {
        try (Polyrag polyrag = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("data").toString(),
                "vector.enabled", "false", "http.sse.heartbeat.seconds", "30")))) {
            RestServer first = new RestServer(polyrag, "127.0.0.1", 0, 1 << 20);
            CompletableFuture<HttpResponse<InputStream>> stream = http.sendAsync(HttpRequest.newBuilder(URI.create(
                    "http://127.0.0.1:" + first.port() + "/v1/events")).build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            InputStream events = stream.get(10, TimeUnit.SECONDS).body();
            assertThat(events.read()).as("the stream opened").isNotNegative();
            long start = System.nanoTime();
            CompletableFuture<Void> drained = CompletableFuture.runAsync(() -> {
                try {
                    events.readAllBytes();
                } catch (java.io.IOException e) {
                    // ended by a reset: ended all the same
                }
            });
            first.close();
            drained.get(10, TimeUnit.SECONDS);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("the stream ended well before its 30 s "
                    + "heartbeat").isLessThan(Duration.ofSeconds(8));

            RestServer second = new RestServer(polyrag, "127.0.0.1", 0, 1 << 20);
            try {
                String base = "http://127.0.0.1:" + second.port();
                String body = "--XyZ\r\nContent-Disposition: form-data; name=\"files\"; filename=\"light.md\"\r\n"
                        + "Content-Type: text/markdown\r\n\r\n# Light\n\nThe harbour light is lit at dusk.\r\n--XyZ--\r\n";
                HttpResponse<String> accepted = http.send(HttpRequest.newBuilder(URI.create(base + "/v1/ingest/files"))
                        .header("Content-Type", "multipart/form-data; boundary=XyZ")
                        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
                String job = io.polyrag.app.Json.MAPPER.readTree(accepted.body()).get("job_id").asString();
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(http.send(HttpRequest
                        .newBuilder(URI.create(base + "/v1/jobs/" + job)).build(), HttpResponse.BodyHandlers
                                .ofString()).body()).contains("\"status\":\"succeeded\""));
            } finally {
                second.close();
            }
        }
    }
}
