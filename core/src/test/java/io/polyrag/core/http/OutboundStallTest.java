package io.polyrag.core.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A server that sends its headers and a little of the body, then stalls: every call fails within the request
 * timeout. The JDK's own request timeout ends at the headers, so before the watchdog each of these waited for as
 * long as the server held the connection (for ever, for a server that never closes it).
 */
class OutboundStallTest {
    private HttpServer server;
    private final CountDownLatch release = new CountDownLatch(1);
    private URI uri;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", x -> {
            x.getRequestBody().readAllBytes();
            x.sendResponseHeaders(200, 1000);
            x.getResponseBody().write("data: {\"a\":1}\n".getBytes(StandardCharsets.UTF_8));
            x.getResponseBody().flush();
            try {
                release.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            x.close();
        });
        server.setExecutor(Executors.newCachedThreadPool());
        server.start();
        uri = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/v1/x");
    }

    @AfterEach
    void stop() {
        release.countDown();
        server.stop(0);
    }

    private Outbound outbound() {
        return new Outbound("stalling", Duration.ofSeconds(2), Duration.ofSeconds(1), 0, d -> { });
    }

    @Test
    void a_body_that_stalls_fails_each_kind_of_call_within_the_timeout() {
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            assertThatThrownBy(() -> outbound().get(uri, Map.of(), 1 << 20))
                    .isInstanceOf(OutboundException.Transient.class).hasMessageContaining("timed out");
            assertThatThrownBy(() -> outbound().postJson(uri, Map.of(), "{}", e -> e))
                    .isInstanceOf(OutboundException.class).hasMessageContaining("did not arrive within 1 s");
            List<String> lines = new ArrayList<>();
            assertThatThrownBy(() -> outbound().postStream(uri, Map.of(), "{}", e -> e, lines::add))
                    .isInstanceOf(OutboundException.class).hasMessageContaining("did not arrive within 1 s");
            assertThat(lines).as("what came before the stall still reached the caller").containsExactly(
                    "data: {\"a\":1}");
        });
    }
}
