package io.polyrag.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * {@code POLYRAG_LOG_FORMAT=json}: {@code polyrag serve}, run as users run it (its own JVM, the distribution's
 * logging), writes one JSON object per line on standard error, and a request's lines carry its request id and
 * tenant; the key never appears.
 */
class LogFormatTest {
    @TempDir
    Path tmp;

    @Test
    void json_logs_carry_the_request_id_and_tenant_and_never_the_key() throws Exception {
        Path data = tmp.resolve("data");
        java.io.StringWriter out = new java.io.StringWriter();
        assertThat(Main.run(new String[] {"--data-dir", data.toString(), "keys", "create", "acme"},
                new java.io.PrintWriter(out, true), new java.io.PrintWriter(new java.io.StringWriter(), true)))
                .isZero();
        String[] lines = out.toString().strip().split("\n");
        String key = lines[lines.length - 1].strip();
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), Main.class.getName(), "--data-dir", data.toString(), "serve",
                "--port", Integer.toString(port)));
        ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("POLYRAG_LOG_FORMAT", "json");
        // A variable polyrag does not know (Kubernetes' service links): its warning is a JSON line too.
        pb.environment().put("POLYRAG_SERVICE_HOST", "10.0.0.1");
        pb.environment().put("POLYRAG_VECTOR_ENABLED", "false");
        // Traces on, to a collector that is not there: the lines carry the trace id, and the SDK's own complaint
        // (java.util.logging) comes out as JSON too.
        int nobody;
        try (ServerSocket s = new ServerSocket(0)) {
            nobody = s.getLocalPort();
        }
        pb.environment().put("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:" + nobody);
        pb.environment().put("OTEL_BSP_SCHEDULE_DELAY", "100");
        Process p = pb.start();
        List<String> err = new CopyOnWriteArrayList<>();
        Thread reader = Thread.ofPlatform().daemon().start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getErrorStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    err.add(line);
                }
            } catch (java.io.IOException e) {
                // the process ended
            }
        });
        try {
            HttpClient http = HttpClient.newHttpClient();
            HttpResponse<String> r = null;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (System.nanoTime() < deadline) {
                try {
                    r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                            + "/v1/knowledge-bases")).header("Authorization", "Bearer " + key)
                            .header("X-Request-Id", "trace-7").build(), HttpResponse.BodyHandlers.ofString());
                    if (r.statusCode() != 503) {
                        break; // 503 with Retry-After: the port is bound, the stores still opening
                    }
                    Thread.sleep(200);
                } catch (java.net.ConnectException e) {
                    assertThat(p.isAlive()).as("the server stopped: %s", err).isTrue();
                    Thread.sleep(200);
                }
            }
            assertThat(r).as("the server never answered: %s", err).isNotNull();
            assertThat(r.statusCode()).isEqualTo(200);
            ObjectMapper json = new ObjectMapper();
            JsonNode access = null;
            for (int i = 0; i < 50 && access == null; i++) {
                access = err.stream().filter(l -> l.contains("trace-7")).findFirst().map(json::readTree).orElse(null);
                Thread.sleep(100);
            }
            assertThat(access).as("an access line for the request in %s", err).isNotNull();
            assertThat(access.get("level").asString()).isEqualTo("INFO");
            assertThat(access.get("mdc").get("request_id").asString()).isEqualTo("trace-7");
            assertThat(access.get("mdc").get("tenant").asString()).isEqualTo("acme");
            assertThat(access.get("formattedMessage").asString()).contains("GET /v1/knowledge-bases 200");
            assertThat(access.get("mdc").get("trace_id").asString()).matches("[0-9a-f]{32}");
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
            while (err.stream().noneMatch(l -> l.contains("\"loggerName\":\"io.opentelemetry"))
                    && System.nanoTime() < until) {
                Thread.sleep(200);
            }
            assertThat(err).as("the exporter's failure, logged through java.util.logging")
                    .anyMatch(l -> l.contains("\"loggerName\":\"io.opentelemetry"));
            assertThat(err).as("every line on standard error but the JVM's own notice is one JSON object")
                    .filteredOn(l -> !l.startsWith("WARNING: Using incubator modules"))
                    .isNotEmpty().allSatisfy(l -> assertThat(json.readTree(l).isObject()).isTrue());
            assertThat(String.join("\n", err)).doesNotContain(key);
        } finally {
            p.destroy();
            p.waitFor(20, TimeUnit.SECONDS);
            reader.join(5000);
        }
    }

    /** The line that says why a command stopped is a JSON line too under JSON logs: it was a plain sentence. */
    /** At debug the HTTP clients' wire loggers wrote credentials and every indexed text: held at info. */
    @Test
    void debug_logs_never_turn_on_the_http_clients_wire_logs() {
        // The root at debug, as POLYRAG_LOG_LEVEL=debug sets it when the configuration is first read.
        var root = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        var before = root.getLevel();
        root.setLevel(ch.qos.logback.classic.Level.DEBUG);
        try {
            assertThat(org.slf4j.LoggerFactory.getLogger("io.polyrag.x").isDebugEnabled()).isTrue();
            for (String wire : List.of("org.apache.hc.client5.http.wire", "org.apache.hc.client5.http.headers",
                    "org.apache.http.wire", "software.amazon.awssdk.request")) {
                assertThat(org.slf4j.LoggerFactory.getLogger(wire).isDebugEnabled()).as(wire).isFalse();
            }
        } finally {
            root.setLevel(before);
        }
    }

    @Test
    void a_command_that_fails_says_why_in_json() throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), Main.class.getName(), "--data-dir", tmp.resolve("failing")
                .toString(), "keys", "revoke", "no-such-key"));
        ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("POLYRAG_LOG_FORMAT", "json");
        pb.environment().put("POLYRAG_VECTOR_ENABLED", "false");
        Process p = pb.start();
        List<String> err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).lines()
                .filter(l -> !l.startsWith("WARNING: Using incubator modules")).toList();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isNotZero();
        ObjectMapper json = new ObjectMapper();
        assertThat(err).as("standard error").isNotEmpty().allSatisfy(l -> assertThat(json.readTree(l).isObject())
                .as(l).isTrue());
        // A data directory that does not exist: refused, not created (keys revoke reads what one holds).
        assertThat(err).anyMatch(l -> l.contains("no index in ") && l.contains("it does not exist"));
    }
}
