package io.polyrag.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.app.Polyrag;
import io.polyrag.core.config.Config;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A synchronous ingest whose client hangs up stops: nothing of the text is written, and the server is free again,
 * instead of embedding and writing it for nobody.
 */
class ClientGoneTest {
    @TempDir
    Path tmp;

    @Test
    void a_text_ingest_whose_client_hangs_up_stops_and_writes_nothing() throws Exception {
        try (Polyrag polyrag = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("data").toString(),
                "graph.enabled", "false", "rdf.enabled", "false", "embedding.cache", "false")))) {
            RestServer server = new RestServer(polyrag, "127.0.0.1", 0, 64L << 20);
            try {
                StringBuilder text = new StringBuilder();
                for (int i = 0; text.length() < 400_000; i++) {
                    text.append("Paragraph ").append(i).append(" tells how the keepers of the Quillon light logged ")
                            .append("the tides, the ships and the weather of every winter night in their books. ");
                    if (i % 8 == 7) {
                        text.append("\\n\\n");
                    }
                }
                String body = "{\"text\": \"" + text + "\", \"uri\": \"note:abandoned\"}";
                byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
                try (Socket socket = new Socket("127.0.0.1", server.port())) {
                    OutputStream out = socket.getOutputStream();
                    out.write(("POST /v1/ingest/text HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                            + "Content-Length: " + bytes.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                    out.write(bytes);
                    out.flush();
                    Thread.sleep(2000); // parsed and embedding by now
                }
                long deadline = System.nanoTime() + 15_000_000_000L; // it took 7.8 s before it could stop
                while (System.nanoTime() < deadline) {
                    assertThat(polyrag.documents().list(null, 0, 10)).as("nothing written for a client that left")
                            .isEmpty();
                    Thread.sleep(500);
                }
            } finally {
                server.close();
            }
        }
    }
}
