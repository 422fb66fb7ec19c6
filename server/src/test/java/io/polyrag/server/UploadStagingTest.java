package io.polyrag.server;

import io.polyrag.app.Json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.polyrag.app.Polyrag;
import io.polyrag.core.config.Config;
import io.polyrag.testing.DocumentFixtures;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** POST /v1/ingest/upload stages and checks, POST /v1/ingest/staged ingests; GET /v1/formats; over a real socket. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class UploadStagingTest {
    @TempDir
    static Path tmp;

    private Polyrag polyrag;
    private RestServer server;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    void start() {
        polyrag = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("data").toString(),
                "ingest.max.file.mb", "1")));
        server = new RestServer(polyrag, "127.0.0.1", 0, 8L * 1024 * 1024);
    }

    @AfterAll
    void stop() {
        server.close();
        polyrag.close();
    }

    private HttpResponse<String> send(HttpRequest.Builder b) throws Exception {
        return http.send(b.timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }

    private JsonNode upload(Map<String, byte[]> files) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes("--XyZ\r\nContent-Disposition: form-data; name=\"kb\"\r\n\r\nfiles\r\n".getBytes(
                StandardCharsets.UTF_8));
        files.forEach((name, bytes) -> {
            out.writeBytes(("--XyZ\r\nContent-Disposition: form-data; name=\"files\"; filename=\"" + name
                    + "\"\r\nContent-Type: application/octet-stream\r\n\r\n").getBytes(StandardCharsets.UTF_8));
            out.writeBytes(bytes);
            out.writeBytes("\r\n".getBytes(StandardCharsets.UTF_8));
        });
        out.writeBytes("--XyZ--\r\n".getBytes(StandardCharsets.UTF_8));
        HttpResponse<String> r = send(HttpRequest.newBuilder(uri("/v1/ingest/upload"))
                .header("Content-Type", "multipart/form-data; boundary=XyZ")
                .POST(HttpRequest.BodyPublishers.ofByteArray(out.toByteArray())));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return Json.MAPPER.readTree(r.body());
    }

    private static Map<String, String> skipped(JsonNode report) {
        Map<String, String> out = new LinkedHashMap<>();
        report.get("skipped").forEach(s -> out.put(s.get("source").asString(), s.get("reason").asString()));
        return out;
    }

    private HttpResponse<String> ingest(String json) throws Exception {
        return send(HttpRequest.newBuilder(uri("/v1/ingest/staged")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    @Test
    void good_files_are_staged_bad_ones_skipped_with_specific_reasons_then_ingested_on_request() throws Exception {
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put("tides.pdf", DocumentFixtures.pdf(List.of("Cover", "Tidal turbines in the Pentland Firth.")));
        files.put("notes.md", "# Notes\n\nThe Pentland Firth has the fastest tides in Britain.".getBytes(
                StandardCharsets.UTF_8));
        files.put("copy.md", "# Notes\n\nThe Pentland Firth has the fastest tides in Britain.".getBytes(
                StandardCharsets.UTF_8));
        files.put("secret.docx", DocumentFixtures.encryptedDocx("pw"));
        files.put("invoice.pdf", DocumentFixtures.elf());
        files.put("broken.pdf", java.util.Arrays.copyOf(DocumentFixtures.pdf(List.of("x", "y")), 300));
        files.put("empty.txt", new byte[0]);
        files.put("big.txt", "a".repeat(1_200_000).getBytes(StandardCharsets.UTF_8));
        files.put("../../etc/passwd.md", "# Sneaky\n\nA hostile name.".getBytes(StandardCharsets.UTF_8));
        JsonNode report = upload(files);
        List<String> accepted = new ArrayList<>();
        report.get("accepted").forEach(a -> accepted.add(a.get("name").asString()));
        assertThat(accepted).containsExactly("tides.pdf", "notes.md", "passwd.md");
        assertThat(report.get("accepted").get(0).get("media_type").asString()).isEqualTo("application/pdf");
        Map<String, String> skipped = skipped(report);
        assertThat(skipped).containsOnlyKeys("copy.md", "secret.docx", "invoice.pdf", "broken.pdf", "empty.txt",
                "big.txt");
        assertThat(skipped.get("copy.md")).contains("duplicate of notes.md");
        assertThat(skipped.get("secret.docx")).contains("encrypted");
        assertThat(skipped.get("invoice.pdf")).contains("unsupported type");
        assertThat(skipped.get("broken.pdf")).contains("corrupt");
        assertThat(skipped.get("empty.txt")).contains("empty");
        assertThat(skipped.get("big.txt")).contains("too large");

        List<String> ids = new ArrayList<>();
        report.get("accepted").forEach(a -> ids.add("\"" + a.get("id").asString() + "\""));
        HttpResponse<String> started = ingest("{\"ids\": [" + String.join(",", ids) + "]}");
        assertThat(started.statusCode()).as(started.body()).isEqualTo(202);
        String job = Json.MAPPER.readTree(started.body()).get("job_id").asString();
        await().atMost(Duration.ofSeconds(60)).until(() -> Json.MAPPER.readTree(send(HttpRequest.newBuilder(
                uri("/v1/jobs/" + job))).body()).get("status").asString().equals("succeeded"));
        JsonNode hits = Json.MAPPER.readTree(send(HttpRequest.newBuilder(uri("/v1/search?q=turbines+Pentland"
                + "&modalities=fulltext&top_k=1"))).body());
        assertThat(hits.get("hits").get(0).get("title").asString()).isEqualTo("tides");
        assertThat(hits.get("hits").get(0).get("location").asString()).isEqualTo("page 2");

        assertThat(ingest("{\"ids\": [" + ids.getFirst() + "]}").statusCode()).as("consumed").isEqualTo(404);
        JsonNode again = upload(Map.of("notes.md", files.get("notes.md"), "renamed.md", files.get("notes.md")));
        assertThat(again.get("accepted").size()).isZero();
        assertThat(skipped(again).get("notes.md")).contains("unchanged");
        assertThat(skipped(again).get("renamed.md")).contains("duplicate of upload:notes.md");
    }

    @Test
    void bad_ingest_requests_are_4xx() throws Exception {
        assertThat(ingest("{\"ids\": []}").statusCode()).isEqualTo(400);
        assertThat(ingest("{\"ids\": [\"00000000-0000-0000-0000-000000000000\"]}").statusCode()).isEqualTo(404);
        assertThat(ingest("{\"ids\": [\"../../etc\"]}").body()).contains("no staged file");
        assertThat(ingest("{\"ids\": \"x\"}").statusCode()).isEqualTo(400);
        assertThat(send(HttpRequest.newBuilder(uri("/v1/ingest/upload")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{}"))).statusCode()).isEqualTo(415);
    }

    @Test
    void formats_say_what_is_accepted() throws Exception {
        JsonNode f = Json.MAPPER.readTree(send(HttpRequest.newBuilder(uri("/v1/formats"))).body());
        assertThat(f.get("max_file_mb").asInt()).isEqualTo(1);
        assertThat(f.get("media_types").toString()).contains("application/pdf").contains("text/markdown")
                .contains("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
        assertThat(f.get("extensions").toString()).contains("\"docx\"").contains("\"py\"");
        assertThat(f.get("ocr").isBoolean()).isTrue();
    }
}
