package io.polyrag.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;

/**
 * What {@code serve} answers on its port while the data directory's stores open: {@code /health} 200 with status
 * {@code starting} (the process is up: a container's health check and a load balancer's liveness probe pass),
 * {@code /ready} 503, the web UI's address a page that reloads itself, and every other route a 503 problem with
 * {@code Retry-After} and the reason — not a refused connection, not a hang. The REST server takes the port over once
 * the stores are open (a fraction of a second in which connections are refused, at the hand-over).
 */
final class StartingServer implements AutoCloseable {
    /** Seconds a client is told to wait before asking again. */
    static final int RETRY_AFTER = 1;

    private final HttpServer http;

    private StartingServer(HttpServer http) {
        this.http = http;
    }

    /** Binds {@code host:port} (0: a free port) and answers as above until closed. */
    static StartingServer bind(String host, int port, String version) throws IOException {
        HttpServer http = HttpServer.create(new InetSocketAddress(host, port), 64);
        http.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        http.createContext("/", ex -> answer(ex, version));
        http.start();
        return new StartingServer(http);
    }

    int port() {
        return http.getAddress().getPort();
    }

    private static void answer(HttpExchange ex, String version) throws IOException {
        try (ex) {
            // The body is never read (an upload sent while starting is not held in memory): the connection closes.
            String path = ex.getRequestURI().getPath();
            int status;
            String type;
            String body;
            if (path.equals("/health")) {
                status = 200;
                type = "application/json";
                body = "{\"status\":\"starting\",\"version\":\"" + version + "\",\"detail\":\"the stores are opening; "
                        + "/ready answers 200 once searches can be served\"}";
            } else if (path.equals("/ready")) {
                status = 503;
                type = "application/json";
                body = "{\"status\":\"starting\",\"problems\":[\"the data directory's stores are still opening\"]}";
            } else if (path.equals("/") || path.equals("/index.html")) {
                status = 503;
                type = "text/html; charset=utf-8";
                body = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta http-equiv=\"refresh\" "
                        + "content=\"" + RETRY_AFTER + "\"><title>polyrag is starting</title></head><body><p>polyrag "
                        + "is starting: its stores are opening. This page reloads by itself.</p></body></html>";
            } else {
                status = 503;
                type = "application/problem+json";
                body = "{\"type\":\"about:blank\",\"title\":\"Service Unavailable\",\"status\":503,\"detail\":\"polyrag "
                        + "is starting: the data directory's stores are still opening; retry in " + RETRY_AFTER
                        + " s (GET /ready answers 200 once searches can be served)\"}";
            }
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", type);
            ex.getResponseHeaders().set("Cache-Control", "no-store");
            ex.getResponseHeaders().set("Connection", "close");
            if (status == 503) {
                ex.getResponseHeaders().set("Retry-After", Integer.toString(RETRY_AFTER));
            }
            boolean head = ex.getRequestMethod().equalsIgnoreCase("HEAD");
            ex.sendResponseHeaders(status, head ? -1 : bytes.length);
            if (!head) {
                try (OutputStream out = ex.getResponseBody()) {
                    out.write(bytes);
                }
            }
        }
    }

    /** Stops answering and frees the port at once. */
    @Override
    public void close() {
        http.stop(0);
    }
}
