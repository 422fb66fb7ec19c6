package io.polyrag.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.app.Json;
import io.polyrag.app.Polyrag;
import io.polyrag.core.config.Config;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** Jobs listed and canceled, and followed live over {@code /v1/events}. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JobEventsTest {
    @TempDir
    static Path tmp;

    private Polyrag polyrag;
    private RestServer server;
    // Each open stream blocks a thread reading its lines: give them virtual ones.
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5))
            .executor(java.util.concurrent.Executors.newCachedThreadPool()).build();

    @BeforeAll
    void start() {
        polyrag = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("data").toString(),
                "http.sse.heartbeat.seconds", "1")));
        server = new RestServer(polyrag, "127.0.0.1", 0, 8L * 1024 * 1024);
    }

    @AfterAll
    void stop() {
        server.close();
        polyrag.close();
    }

    /** A stream's lines, as they arrive. */
    private BlockingQueue<String> subscribe(String lastEventId) {
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        HttpRequest.Builder b = HttpRequest.newBuilder(uri("/v1/events"));
        if (lastEventId != null) {
            b.header("Last-Event-ID", lastEventId);
        }
        http.sendAsync(b.build(), HttpResponse.BodyHandlers.ofLines())
                .thenAcceptAsync(r -> r.body().forEach(lines::add), Thread::startVirtualThread)
                .exceptionally(e -> {
                    lines.add("failed: " + e);
                    return null;
                });
        return lines;
    }

    private static List<String> until(BlockingQueue<String> lines, String last) throws InterruptedException {
        List<String> seen = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            String l = lines.poll(1, TimeUnit.SECONDS);
            if (l != null) {
                seen.add(l);
                if (l.startsWith("failed: ")) {
                    throw new AssertionError(l);
                }
                if (l.contains(last)) {
                    return seen;
                }
            }
        }
        throw new AssertionError("no '" + last + "' in " + seen);
    }

    @Test
    void a_job_is_followed_from_created_to_finished_and_a_stream_resumes_after_its_last_event_id()
            throws InterruptedException {
        BlockingQueue<String> live = subscribe(null);
        until(live, "polyrag job events");
        String job = upload("tides.md", "# Tides\n\nThe moon pulls the oceans twice a day.");
        List<String> seen = until(live, "\"status\":\"succeeded\"");
        List<String> events = seen.stream().filter(l -> l.startsWith("event: ")).toList();
        assertThat(events.getFirst()).isEqualTo("event: created");
        assertThat(events).contains("event: progress").endsWith("event: finished");
        assertThat(String.join("\n", seen)).contains(job).contains("\"percentage\":100");
        String createdId = seen.get(seen.indexOf("event: created") - 1).substring("id: ".length());

        BlockingQueue<String> resumed = subscribe(createdId);
        List<String> again = until(resumed, "\"status\":\"succeeded\"");
        assertThat(again).noneMatch(l -> l.equals("id: " + createdId)).contains("event: finished");
        assertThat(again.stream().filter(l -> l.startsWith("id: ")).mapToLong(l -> Long.parseLong(l.substring(4))))
                .allMatch(id -> id > Long.parseLong(createdId));

        assertThat(until(subscribe(null), ": heartbeat")).isNotEmpty();
        JsonNode list = json(get("/v1/jobs?limit=5"));
        assertThat(list.get("jobs").get(0).get("id").asString()).isEqualTo(job);
        assertThat(post("/v1/jobs/" + job + "/cancel").statusCode()).as("finished: nothing to cancel")
                .isEqualTo(409);
        assertThat(post("/v1/jobs/nope/cancel").statusCode()).isEqualTo(404);
        assertThat(send(HttpRequest.newBuilder(uri("/v1/events")).header("Last-Event-ID", "x")).statusCode())
                .isEqualTo(400);
    }

    @Test
    void a_thousand_idle_subscribers_are_held_in_bounded_memory_and_each_gets_the_next_event() throws Exception {
        Runtime rt = Runtime.getRuntime();
        System.gc();
        long before = rt.totalMemory() - rt.freeMemory();
        // Plain sockets: one request line each, as a browser's EventSource sends it.
        List<java.net.Socket> sockets = new ArrayList<>();
        List<java.io.BufferedReader> readers = new ArrayList<>();
        try {
            for (int i = 0; i < 1000; i++) {
                java.net.Socket socket = new java.net.Socket("127.0.0.1", server.port());
                socket.setSoTimeout(60_000);
                socket.getOutputStream().write(("GET /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: "
                        + "text/event-stream\r\n\r\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                sockets.add(socket);
                readers.add(new java.io.BufferedReader(new java.io.InputStreamReader(socket.getInputStream(),
                        java.nio.charset.StandardCharsets.UTF_8)));
            }
            readAll(readers, "polyrag job events");
            System.gc();
            long held = rt.totalMemory() - rt.freeMemory() - before;
            assertThat(held).as("heap held by 1,000 open streams (both ends)").isLessThan(256L * 1024 * 1024);
            String job = upload("bees.md", "# Bees\n\nBees make honey.");
            readAll(readers, job);
        } finally {
            for (java.net.Socket socket : sockets) {
                socket.close();
            }
        }
    }

    /** Reads every stream, in parallel, until each has shown {@code text}. */
    private static void readAll(List<java.io.BufferedReader> readers, String text) throws Exception {
        try (var pool = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            List<java.util.concurrent.Future<?>> done = new ArrayList<>();
            for (java.io.BufferedReader r : readers) {
                done.add(pool.submit(() -> {
                    for (String l = r.readLine(); l != null; l = r.readLine()) {
                        if (l.contains(text)) {
                            return null;
                        }
                    }
                    throw new AssertionError("the stream ended before '" + text + "'");
                }));
            }
            for (java.util.concurrent.Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        }
    }

    private String upload(String name, String content) {
        TestHttp.Multipart m = TestHttp.multipart("files", name, content, Map.of());
        HttpResponse<String> r = send(HttpRequest.newBuilder(uri("/v1/ingest/files"))
                .header("Content-Type", m.contentType()).POST(m.publisher()));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
        return json(r).get("job_id").asString();
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }

    private HttpResponse<String> get(String path) {
        return send(HttpRequest.newBuilder(uri(path)).GET());
    }

    private HttpResponse<String> post(String path) {
        return send(HttpRequest.newBuilder(uri(path)).POST(HttpRequest.BodyPublishers.noBody()));
    }

    private HttpResponse<String> send(HttpRequest.Builder b) {
        return TestHttp.send(http, b);
    }

    private static JsonNode json(HttpResponse<String> r) {
        return Json.MAPPER.readTree(r.body());
    }
}
