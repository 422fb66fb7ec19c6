package io.polyrag.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.app.Polyrag;
import io.polyrag.core.config.Config;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stop lets a request in flight finish: an ingest whose body is still arriving when the server is told to stop is
 * read whole and answered, and the stop then completes (a job event stream open meanwhile does not hold it).
 */
class GracefulStopTest {
    @TempDir
    Path tmp;

    @Test
    void a_request_still_arriving_when_the_server_stops_is_answered_whole() throws Exception {
        try (Polyrag polyrag = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("d").toString())))) {
            RestServer server = new RestServer(polyrag, "127.0.0.1", 0, 1024 * 1024);
            byte[] body = "{\"text\": \"The lantern workshop closes early on Friday.\", \"title\": \"Memo\"}"
                    .getBytes(StandardCharsets.UTF_8);
            try (Socket events = new Socket("127.0.0.1", server.port());
                    Socket s = new Socket("127.0.0.1", server.port())) {
                events.getOutputStream().write(("GET /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                OutputStream out = s.getOutputStream();
                out.write(("POST /v1/ingest/text HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                        + "Content-Length: " + body.length + "\r\nConnection: close\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                out.write(body, 0, 10);
                out.flush();
                Thread.sleep(300);
                CompletableFuture<Void> stop = CompletableFuture.runAsync(server::close);
                Thread.sleep(500);
                assertThat(stop).as("waits for the request in flight").isNotDone();
                out.write(body, 10, body.length - 10);
                out.flush();
                InputStream in = s.getInputStream();
                String reply = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                assertThat(reply).startsWith("HTTP/1.1 20").contains("document_id");
                stop.get(15, TimeUnit.SECONDS);
            }
        }
    }
}
