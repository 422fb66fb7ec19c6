package io.polyrag.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.app.Polyrag;
import io.polyrag.core.config.Config;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An event-stream client that never reads (a 1 KiB receive buffer, 400 events of backlog) holds up nobody: other
 * requests are answered and a reading subscriber gets every event. Its handler blocks in its own virtual thread when
 * the socket fills, and what it can hold is bounded by the event ring.
 */
class SlowSubscriberTest {
    @TempDir
    Path tmp;

    @Test
    void a_subscriber_that_never_reads_holds_up_nobody() throws Exception {
        // No workers: every upload stays queued, so each is one cheap 'created' event.
        try (Polyrag polyrag = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("d").toString(),
                "ingest.workers", "0", "vector.enabled", "false", "ingest.job.max.pending", "1000")))) {
            RestServer server = new RestServer(polyrag, "127.0.0.1", 0, 1024 * 1024);
            HttpClient http = HttpClient.newHttpClient();
            try (Socket stalled = new Socket()) {
                stalled.setReceiveBufferSize(1024);
                stalled.connect(new java.net.InetSocketAddress("127.0.0.1", server.port()));
                stalled.getOutputStream().write("GET /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(
                        StandardCharsets.US_ASCII));
                String last = null;
                for (int i = 0; i < 400; i++) {
                    TestHttp.Multipart m = TestHttp.multipart("files", "n" + i + ".md", "# Note " + i + "\n\ntext " + i,
                            Map.of());
                    HttpResponse<String> r = TestHttp.send(http, HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                            + server.port() + "/v1/ingest/files")).header("Content-Type", m.contentType())
                            .POST(m.publisher()));
                    assertThat(r.statusCode()).isEqualTo(202);
                    last = TestHttp.json(r).get("job_id").asString();
                }
                long start = System.nanoTime();
                HttpResponse<String> health = TestHttp.send(http, HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                        + server.port() + "/health")));
                assertThat(health.statusCode()).isEqualTo(200);
                assertThat((System.nanoTime() - start) / 1_000_000).as("ms to answer /health").isLessThan(5_000);
                // A subscriber that reads gets the whole backlog, the newest job included.
                try (Socket reader = new Socket("127.0.0.1", server.port())) {
                    reader.setSoTimeout(30_000);
                    reader.getOutputStream().write("GET /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nLast-Event-ID: 0\r\n\r\n"
                            .getBytes(StandardCharsets.US_ASCII));
                    var in = new java.io.BufferedReader(new java.io.InputStreamReader(reader.getInputStream(),
                            StandardCharsets.UTF_8));
                    boolean seen = false;
                    for (String l = in.readLine(); l != null && !seen; l = in.readLine()) {
                        seen = l.contains(last);
                    }
                    assertThat(seen).as("the reading subscriber got the last job's event").isTrue();
                }
            } finally {
                server.close();
            }
        }
    }
}
