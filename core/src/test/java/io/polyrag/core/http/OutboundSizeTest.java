package io.polyrag.core.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An answer far larger than any model's (a wrong address, a faulty gateway) is refused once past a limit, not read
 * whole into the heap; a stream's line likewise. Lines end at LF, CR LF or CR, as before.
 */
class OutboundSizeTest {
    private HttpServer server;
    private URI uri;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/big", x -> {
            x.getRequestBody().readAllBytes();
            x.sendResponseHeaders(200, 0);
            byte[] chunk = new byte[1 << 20];
            java.util.Arrays.fill(chunk, (byte) 'a');
            try (OutputStream out = x.getResponseBody()) {
                for (int i = 0; i < 40; i++) {
                    out.write(chunk);
                }
            } catch (IOException e) {
                // the client gave up reading: as intended
            }
        });
        server.createContext("/lines", x -> {
            x.getRequestBody().readAllBytes();
            byte[] b = "data: one\r\ndata: two\rdata: three\n".getBytes();
            x.sendResponseHeaders(200, b.length);
            x.getResponseBody().write(b);
            x.close();
        });
        server.start();
        uri = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void an_oversized_answer_or_line_is_refused_and_lines_end_as_before() {
        Outbound out = new Outbound("test", Duration.ofSeconds(2), Duration.ofSeconds(30), 0, d -> { });
        assertThatThrownBy(() -> out.postJson(uri.resolve("/big"), Map.of(), "{}", e -> e))
                .isInstanceOf(OutboundException.class).hasMessageContaining("larger than 16 MiB");
        assertThatThrownBy(() -> out.postStream(uri.resolve("/big"), Map.of(), "{}", e -> e, line -> { }))
                .isInstanceOf(OutboundException.class).hasMessageContaining("longer than 1 MiB");
        List<String> lines = new ArrayList<>();
        out.postStream(uri.resolve("/lines"), Map.of(), "{}", e -> e, lines::add);
        assertThat(lines).containsExactly("data: one", "data: two", "data: three");
    }

    /** A failure to connect names the port the request used (not -1) and a host that does not resolve as such. */
    @Test
    void connection_failures_name_the_port_and_an_unknown_host() throws IOException {
        Outbound out = new Outbound("test", Duration.ofSeconds(2), Duration.ofSeconds(5), 0, d -> { });
        int free;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            free = s.getLocalPort();
        }
        int port = free;
        assertThatThrownBy(() -> out.postJson(URI.create("http://127.0.0.1:" + port + "/"), Map.of(), "{}", e -> e))
                .isInstanceOf(OutboundException.class).hasMessageContaining("connection refused at 127.0.0.1:" + port);
        assertThatThrownBy(() -> out.postJson(URI.create("http://no-such-host.invalid/v1"), Map.of(), "{}", e -> e))
                .isInstanceOf(OutboundException.class).hasMessageContaining("host no-such-host.invalid does not "
                        + "resolve").hasMessageNotContaining(":-1");
    }
}
