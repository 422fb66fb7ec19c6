package io.polyrag.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.polyrag.app.Polyrag;
import io.polyrag.core.config.Config;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code /metrics} in the Prometheus text format, checked by Prometheus's own {@code promtool}. */
class MetricsTest {
    @TempDir
    Path tmp;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void metrics_cover_requests_retrievers_ingest_and_jobs_and_pass_promtool() throws Exception {
        try (Polyrag polyrag = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("data").toString())))) {
            RestServer server = new RestServer(polyrag, "127.0.0.1", 0, 1024 * 1024);
            try {
                String base = "http://127.0.0.1:" + server.port();
                String boundary = "----m" + System.nanoTime();
                String body = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"files\"; filename=\"a.md\""
                        + "\r\nContent-Type: text/markdown\r\n\r\n# Owls\n\nOwls hunt at night.\r\n--" + boundary
                        + "--\r\n";
                HttpResponse<String> job = send(HttpRequest.newBuilder(URI.create(base + "/v1/ingest/files"))
                        .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                        .POST(HttpRequest.BodyPublishers.ofString(body)));
                assertThat(job.statusCode()).isEqualTo(202);
                await().atMost(Duration.ofSeconds(60)).until(() -> send(HttpRequest.newBuilder(URI.create(base
                        + "/metrics"))).body().contains("polyrag_jobs_finished_total{kind=\"ingest-upload\""));
                send(HttpRequest.newBuilder(URI.create(base + "/v1/search?q=owls")));
                send(HttpRequest.newBuilder(URI.create(base + "/v1/search?q=owls&modalities=vector")));
                // An answer: its search and the offline answerer's question both find the vector remembered.
                assertThat(send(HttpRequest.newBuilder(URI.create(base + "/v1/query")).header("Content-Type",
                        "application/json").POST(HttpRequest.BodyPublishers.ofString("{\"query\": \"owls\"}")))
                        .statusCode()).isEqualTo(200);
                send(HttpRequest.newBuilder(URI.create(base + "/v1/jobs/nope")));
                // Readiness asks the model itself: probes are no hits of the query-vector cache.
                send(HttpRequest.newBuilder(URI.create(base + "/ready")));
                send(HttpRequest.newBuilder(URI.create(base + "/ready")));
                // A method override header names no metric series: any value, sent without a key, was one.
                send(HttpRequest.newBuilder(URI.create(base + "/health")).header("X-HTTP-Method-Override", "PROBE1"));
                HttpResponse<String> m = send(HttpRequest.newBuilder(URI.create(base + "/metrics")));
                assertThat(m.statusCode()).isEqualTo(200);
                assertThat(m.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/plain");
                assertThat(m.body())
                        .contains("polyrag_http_requests_seconds_bucket{method=\"GET\",route=\"/v1/search\",status=\"200\"")
                        .contains("route=\"/v1/jobs/{id}\",status=\"404\"")
                        .contains("polyrag_retriever_seconds_count{modality=\"vector\"}")
                        .contains("polyrag_retriever_seconds_count{modality=\"fulltext\"}")
                        .contains("polyrag_ingest_stage_seconds_count{stage=\"parsing\"}")
                        .contains("polyrag_ingest_chunks_total").contains("polyrag_jobs_queued")
                        .contains("polyrag_jobs_oldest_queued_age_seconds").contains("jvm_memory_used_bytes")
                        .as("the query asked again was not embedded again, by the searches or the answerer")
                        .contains("polyrag_query_vector_cache_hits_total 3.0")
                        .contains("polyrag_query_vector_cache_misses_total")
                        .doesNotContain("/v1/jobs/nope").doesNotContain("PROBE1");
                assumeTrue(promtool(), "promtool is not installed (Debian: apt install prometheus; .ci/run does)");
                Process p = new ProcessBuilder("promtool", "check", "metrics").redirectErrorStream(true).start();
                p.getOutputStream().write(m.body().getBytes(StandardCharsets.UTF_8));
                p.getOutputStream().close();
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
                assertThat(p.exitValue()).as("promtool check metrics: " + out).isZero();
            } finally {
                server.close();
            }
        }
    }

    private static boolean promtool() {
        try {
            return new ProcessBuilder("promtool", "--version").redirectErrorStream(true).start().waitFor() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    private HttpResponse<String> send(HttpRequest.Builder b) {
        try {
            return http.send(b.timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException | InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
