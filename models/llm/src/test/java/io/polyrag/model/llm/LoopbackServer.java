package io.polyrag.model.llm;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

/**
 * A loopback HTTP server that replays scripted responses in order and records every request, so a client's wire
 * traffic can be asserted both ways.
 */
final class LoopbackServer implements AutoCloseable {
    /** One scripted response: a status, headers, and a body sent at once or as separate flushed pieces. */
    record Reply(int status, Map<String, String> headers, List<String> pieces, boolean hang) {
        static Reply json(int status, String body) {
            return new Reply(status, Map.of("Content-Type", "application/json"), List.of(body), false);
        }

        static Reply sse(String... events) {
            return new Reply(200, Map.of("Content-Type", "text/event-stream"), List.of(events), false);
        }

        static Reply hanging() {
            return new Reply(200, Map.of(), List.of(), true);
        }

        Reply with(String header, String value) {
            Map<String, String> h = new java.util.HashMap<>(headers);
            h.put(header, value);
            return new Reply(status, h, pieces, hang);
        }
    }

    /** What a client sent. */
    record Received(String method, String path, Map<String, List<String>> headers, String body) {
        String header(String name) {
            return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name)).findFirst()
                    .map(e -> e.getValue().getFirst()).orElse(null);
        }
    }

    private final HttpServer server;
    private final Deque<Reply> script = new ArrayDeque<>();
    final List<Received> received = new CopyOnWriteArrayList<>();
    private final CountDownLatch release = new CountDownLatch(1);

    LoopbackServer(Reply... replies) throws IOException {
        script.addAll(List.of(replies));
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.setExecutor(java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
        server.start();
    }

    URI base() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    private void handle(HttpExchange ex) throws IOException {
        String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        received.add(new Received(ex.getRequestMethod(), ex.getRequestURI().getPath(), Map.copyOf(
                ex.getRequestHeaders()), body));
        Reply r;
        synchronized (script) {
            r = script.isEmpty() ? Reply.json(500, "{\"error\": {\"message\": \"script exhausted\"}}") : script.poll();
        }
        if (r.hang()) {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ex.close();
            return;
        }
        r.headers().forEach((k, v) -> ex.getResponseHeaders().add(k, v));
        ex.sendResponseHeaders(r.status(), 0);
        try (OutputStream out = ex.getResponseBody()) {
            for (String piece : r.pieces()) {
                out.write(piece.getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
        }
    }

    @Override
    public void close() {
        release.countDown();
        server.stop(0);
    }
}
