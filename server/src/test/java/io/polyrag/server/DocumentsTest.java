package io.polyrag.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.polyrag.app.Polyrag;
import io.polyrag.core.config.Config;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** {@code /v1/documents}: a described upload, its original, listing with filters and a total, filtered search. */
class DocumentsTest {
    @TempDir
    Path tmp;

    private final HttpClient http = HttpClient.newHttpClient();
    private RestServer server;

    @Test
    void an_uploaded_document_keeps_its_description_and_original_and_filters_search() {
        try (Polyrag polyrag = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("d").toString())))) {
            server = new RestServer(polyrag, "127.0.0.1", 0, 4 * 1024 * 1024);
            try {
                String report = "# Quarterly report\n\nSales of lanterns rose by nine percent in the third quarter.";
                JsonNode accepted = json(upload("q3.md", report, Map.of("title", "Q3 lantern report — café", "categories",
                        "Finance, reports", "subcategory", "quarterly", "external_ref", "crm:7", "kb", "office")));
                String id = accepted.get("document_id").asString();
                await().atMost(Duration.ofSeconds(60)).until(() -> json(get("/v1/jobs/" + accepted.get("job_id")
                        .asString())).get("status").asString(), s -> s.equals("succeeded"));
                upload("memo.md", "# Memo\n\nThe lantern workshop closes early on Friday.", Map.of("categories",
                        "notes", "kb", "office"));
                await().atMost(Duration.ofSeconds(60)).until(() -> json(get("/v1/documents?kb=office")).get("total")
                        .asLong() == 2);
                JsonNode detail = json(get("/v1/documents/" + id));
                JsonNode doc = detail.get("document");
                assertThat(doc.get("status").asString()).isEqualTo("indexed");
                for (String store : java.util.List.of("vector", "fulltext")) {
                    JsonNode state = detail.get("stores").get(store);
                    assertThat(state.get("held").asLong()).as(store + ", read from the store").isEqualTo(doc
                            .get("chunks").asLong()).isPositive();
                    assertThat(state.get("expected").asLong()).isEqualTo(doc.get("chunks").asLong());
                    assertThat(state.get("state").asString()).isEqualTo("complete");
                }
                assertThat(json(get("/v1/documents?kb=office&status=indexing")).get("total").asLong()).isZero();
                assertThat(json(get("/v1/documents?kb=office&status=indexed,updating")).get("total").asLong())
                        .isEqualTo(2);
                assertThat(json(get("/v1/documents?status=all")).get("total").asLong()).isEqualTo(2);
                HttpResponse<String> badStatus = get("/v1/documents?status=done");
                assertThat(badStatus.statusCode()).isEqualTo(400);
                assertThat(badStatus.body()).contains("indexing, indexed or updating");
                assertThat(doc.get("title").asString()).as("a UTF-8 form field").isEqualTo("Q3 lantern report — café");
                // The title given is the one indexed: a word only it holds finds the document.
                assertThat(get("/v1/search?q=caf%C3%A9&kb=office&modalities=fulltext").body()).contains(id);
                assertThat(doc.get("categories").toString()).isEqualTo("[\"finance\",\"reports\"]");
                assertThat(doc.get("subcategory").asString()).isEqualTo("quarterly");
                assertThat(doc.get("external_ref").asString()).isEqualTo("crm:7");
                assertThat(doc.get("knowledge_base").asString()).isEqualTo("office");
                assertThat(doc.get("original").asBoolean()).as("an upload keeps its original").isTrue();
                String typed = polyrag.ingest().text(new io.polyrag.app.api.TextIngest("Typed notes about lanterns.",
                        "Typed", null, null, null)).indexed().getFirst().documentId();
                assertThat(json(get("/v1/documents/" + typed)).get("document").get("original").asBoolean())
                        .as("text keeps none: the UI offers no download for it").isFalse();
                HttpResponse<String> none = get("/v1/documents/" + typed + "/content");
                assertThat(none.statusCode()).isEqualTo(404);
                assertThat(none.body()).contains("no stored original").contains("'original' is false");
                HttpResponse<String> content = get("/v1/documents/" + id + "/content");
                assertThat(content.body()).isEqualTo(report);
                assertThat(content.headers().firstValue("Accept-Ranges")).contains("bytes");
                // One byte range: a resumed download, a viewer reading pages; beyond the end is a 416.
                String path = "/v1/documents/" + id + "/content";
                HttpResponse<String> part = send(HttpRequest.newBuilder(URI.create(base() + path))
                        .header("Range", "bytes=2-9"));
                assertThat(part.statusCode()).isEqualTo(206);
                assertThat(part.body()).isEqualTo(report.substring(2, 10));
                assertThat(part.headers().firstValue("Content-Range")).contains("bytes 2-9/" + report.getBytes(
                        java.nio.charset.StandardCharsets.UTF_8).length);
                assertThat(send(HttpRequest.newBuilder(URI.create(base() + path)).header("Range", "bytes=-7")).body())
                        .isEqualTo(report.substring(report.length() - 7));
                HttpResponse<String> beyond = send(HttpRequest.newBuilder(URI.create(base() + path))
                        .header("Range", "bytes=999999-"));
                assertThat(beyond.statusCode()).isEqualTo(416);
                assertThat(beyond.headers().firstValue("Content-Range")).contains("bytes */" + report.getBytes(
                        java.nio.charset.StandardCharsets.UTF_8).length);
                assertThat(content.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/markdown");
                assertThat(content.headers().firstValue("Content-Disposition").orElseThrow()).contains("q3.md");
                JsonNode finance = json(get("/v1/documents?category=finance&limit=1"));
                assertThat(finance.get("total").asLong()).isEqualTo(1);
                assertThat(finance.get("documents").get(0).get("id").asString()).isEqualTo(id);
                JsonNode all = json(get("/v1/search?q=lantern"));
                assertThat(all.get("hits").findValuesAsString("document_id")).hasSizeGreaterThan(1);
                JsonNode notes = json(get("/v1/search?q=lantern&category=notes"));
                assertThat(notes.get("hits")).isNotEmpty().allSatisfy(h -> assertThat(h.get("document_id").asString())
                        .isNotEqualTo(id));
                JsonNode one = json(post("/v1/search", "{\"query\": \"lantern\", \"document_ids\": [\"" + id + "\"]}"));
                assertThat(one.get("hits")).isNotEmpty().allSatisfy(h -> assertThat(h.get("document_id").asString())
                        .isEqualTo(id));
                assertThat(send(HttpRequest.newBuilder(URI.create(base() + "/v1/documents/" + id)).DELETE())
                        .statusCode()).isEqualTo(204);
                assertThat(get("/v1/documents/" + id + "/content").statusCode()).isEqualTo(404);
                assertThat(get("/v1/search?q=lantern&category=Bad%00").statusCode()).isEqualTo(400);
            } finally {
                server.close();
            }
        }
    }

    /**
     * HEAD on an original closes the stream its blob opened: left to the collector, each HEAD held a file descriptor
     * (an object store's connection), and a thousand exhausted the process's files.
     */
    @Test
    void head_on_an_original_holds_no_file_open() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.isDirectory(java.nio.file.Path.of(
                "/proc/self/fd")), "counts the process's open files through /proc (Linux)");
        try (Polyrag polyrag = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("h").toString(),
                "vector.enabled", "false")))) {
            server = new RestServer(polyrag, "127.0.0.1", 0, 1 << 20);
            try {
                JsonNode accepted = json(upload("lease.md", "# Lease\n\nThe lease runs five years.", Map.of()));
                await().atMost(Duration.ofSeconds(60)).until(() -> json(get("/v1/jobs/" + accepted.get("job_id")
                        .asString())).get("status").asString(), s -> s.equals("succeeded"));
                String content = base() + "/v1/documents/" + accepted.get("document_id").asString() + "/content";
                HttpRequest.Builder head = HttpRequest.newBuilder(URI.create(content)).method("HEAD",
                        HttpRequest.BodyPublishers.noBody());
                assertThat(send(head).statusCode()).isEqualTo(200);
                long before = openFiles();
                for (int i = 0; i < 300; i++) {
                    send(HttpRequest.newBuilder(URI.create(content)).method("HEAD",
                            HttpRequest.BodyPublishers.noBody()));
                }
                assertThat(openFiles() - before).as("files left open by 300 HEADs").isLessThan(50);
            } finally {
                server.close();
            }
        }
    }

    private static long openFiles() throws java.io.IOException {
        try (var fds = java.nio.file.Files.list(java.nio.file.Path.of("/proc/self/fd"))) {
            return fds.count();
        }
    }

    /** A form field sent as a file part (requests' files={"kb": ...}) is refused, not read as no field at all. */
    @Test
    void a_field_sent_as_a_file_part_is_refused() {
        try (Polyrag polyrag = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("fp").toString(),
                "vector.enabled", "false")))) {
            server = new RestServer(polyrag, "127.0.0.1", 0, 1 << 20);
            try {
                String boundary = "----polyrag" + System.nanoTime();
                String body = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"kb\"; filename=\"kb\"\r\n"
                        + "Content-Type: application/octet-stream\r\n\r\ncontracts\r\n--" + boundary + "\r\n"
                        + "Content-Disposition: form-data; name=\"file\"; filename=\"lease.md\"\r\nContent-Type: "
                        + "text/markdown\r\n\r\n# Lease\n\nThe lease runs five years.\r\n--" + boundary + "--\r\n";
                HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(base() + "/v1/documents"))
                        .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                        .POST(HttpRequest.BodyPublishers.ofString(body)));
                assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
                assertThat(r.body()).contains("form field 'kb' was sent as a file part");
            } finally {
                server.close();
            }
        }
    }

    private String base() {
        return "http://127.0.0.1:" + server.port();
    }

    private HttpResponse<String> upload(String name, String content, Map<String, String> fields) {
        TestHttp.Multipart m = TestHttp.multipart("file", name, content, fields);
        HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(base() + "/v1/documents"))
                .header("Content-Type", m.contentType()).POST(m.publisher()));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
        return r;
    }

    private HttpResponse<String> get(String path) {
        return send(HttpRequest.newBuilder(URI.create(base() + path)));
    }

    private HttpResponse<String> post(String path, String json) {
        return send(HttpRequest.newBuilder(URI.create(base() + path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    private HttpResponse<String> send(HttpRequest.Builder b) {
        return TestHttp.send(http, b);
    }

    private static JsonNode json(HttpResponse<String> r) {
        return TestHttp.json(r);
    }
}
