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
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Oversized, out-of-range and hostile input: a 4xx problem naming the field and the limit, never a 500. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HostileInputTest {
    @TempDir
    static Path tmp;

    private Polyrag polyrag;
    private RestServer server;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    void start() {
        polyrag = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("data").toString())));
        server = new RestServer(polyrag, "127.0.0.1", 0, 4L * 1024 * 1024);
    }

    @AfterAll
    void stop() {
        server.close();
        polyrag.close();
    }

    private static final String TEN_THOUSAND_KBS = IntStream.range(0, 10_000).mapToObj(i -> "\"kb" + i + "\"")
            .collect(Collectors.joining(","));

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            a 10,000-entry kb list   | POST | /v1/search           | {"query": "x", "kb": [KBS]}            | 400 | at most 256
            negative offset          | GET  | /v1/documents?offset=-1 |                                      | 400 | offset
            huge limit               | GET  | /v1/documents?limit=1000000000 |                               | 400 | limit
            offset beyond int        | GET  | /v1/jobs?offset=99999999999 |                                  | 400 | offset
            huge top_k               | GET  | /v1/search?q=x&top_k=100000 |                                  | 400 | top_k
            control character in kb  | POST | /v1/search           | {"query": "x", "kb": "a\\u0007b"}      | 400 | knowledge base name
            control character title  | POST | /v1/ingest/text      | {"text": "x", "title": "a\\u0000b"}    | 400 | title
            path in a kb name        | POST | /v1/knowledge-bases  | {"name": "../../etc"}                  | 400 | knowledge base name
            unicode kb name          | POST | /v1/knowledge-bases  | {"name": "\\u202Eevil"}                | 400 | knowledge base name
            non-ASCII quoted back    | POST | /v1/knowledge-bases  | {"name": "ünïcode"}                    | 400 | 'ünïcode'
            a kb name of 65 chars    | POST | /v1/knowledge-bases  | {"name": "KB65"}                        | 400 | 1-64
            an entity query of 201   | GET  | /v1/graph/entities?q=Q201 |                                    | 400 | 200
            a huge neighbours limit  | GET  | /v1/graph/entities/x/neighbours?limit=5000 |                   | 400 | limit
            a job id of 10,000 chars | GET  | /v1/jobs/ID10000     |                                        | 414 | too long
            a job id of 2,000 chars  | GET  | /v1/jobs/ID2000      |                                        | 404 | no job
            a non-numeric limit      | GET  | /v1/jobs?limit=ten   |                                        | 400 | integer
            """)
    void is_refused_with_a_problem_that_names_it(String what, String method, String path, String body, int status,
            String says) {
        path = path.replace("Q201", "q".repeat(201)).replace("ID10000", "j".repeat(10_000))
                .replace("ID2000", "j".repeat(2_000));
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path));
        if (body != null) {
            b.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body
                    .replace("KBS", TEN_THOUSAND_KBS).replace("KB65", "k".repeat(65))));
        } else {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        }
        HttpResponse<String> r;
        try {
            r = http.send(b.timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException | InterruptedException e) {
            throw new AssertionError(e);
        }
        assertThat(r.statusCode()).as(what + ": " + r.body()).isEqualTo(status);
        assertThat(r.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/problem+json");
        assertThat(Json.MAPPER.readTree(r.body()).get("detail").asString()).as(what).contains(says);
    }

    /** The charset parameter and the body's bytes: never a 500, never a silently garbled query. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            charset without a value   | application/json; charset       | 415 | UTF-8
            an unknown charset        | application/json; charset=foo   | 415 | UTF-8
            a declared legacy charset | application/json; charset=latin1 | 415 | UTF-8
            Latin-1 bytes as UTF-8    | application/json                 | 400 | not UTF-8
            a JSON look-alike type    | application/jsonx                | 415 | application/json
            """)
    void a_json_body_is_utf8_or_refused(String what, String type, int status, String says) throws Exception {
        byte[] body = "{\"query\": \"caf\u00e9\"}".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
                + "/v1/search")).header("Content-Type", type).POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(what + ": " + r.body()).isEqualTo(status);
        assertThat(r.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/problem+json");
        assertThat(r.body()).contains(says);
        HttpResponse<String> utf8 = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
                + "/v1/search")).header("Content-Type", "application/json; charset=\"UTF-8\"").POST(HttpRequest
                .BodyPublishers.ofString("{\"query\": \"caf\u00e9\"}")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(utf8.statusCode()).isEqualTo(200);
    }

    /** A text ingest, parsed as its body is read, refuses bytes that are not UTF-8 the same way (a BOM included). */
    @Test
    void a_text_ingest_body_that_is_not_utf8_is_refused_saying_so() throws Exception {
        byte[] latin1 = "{\"text\": \"caf\u00e9 notes\"}".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        byte[] utf16 = "{\"text\": \"notes\"}".getBytes(java.nio.charset.StandardCharsets.UTF_16);
        for (byte[] body : java.util.List.of(latin1, utf16)) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
                    + "/v1/ingest/text")).header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers
                    .ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
            assertThat(r.body()).contains("not UTF-8");
        }
    }

    /** A search body is read at most 16 MiB deep, however large the upload limit: 413 naming the route's limit. */
    @Test
    void a_json_body_past_the_json_limit_is_413_without_being_held() throws Exception {
        try (RestServer big = new RestServer(polyrag, "127.0.0.1", 0, 256L * 1024 * 1024)) {
            String huge = "{\"query\": \"x\", \"pad\": \"" + "a".repeat(17 << 20) + "\"}";
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + big.port()
                    + "/v1/search")).header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers
                    .ofString(huge)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(413);
            assertThat(r.body()).contains("16 MiB");
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            1,001 files                   | /v1/ingest/files  | 1001 | 0    |         | at most 1000 files per request
            1,030 parts                   | /v1/ingest/files  | 1030 | 0    |         | at most 1000 files per request
            a 9,000-character file name   | /v1/ingest/files  | 1    | 9000 |         | name each file with at most 255
            figures where it is not taken | /v1/ingest/upload | 1    | 0    | figures | POST /v1/ingest/staged
            an unknown field              | /v1/ingest/files  | 1    | 0    | colour  | it takes files, kb, skip_graph, figures
            """)
    void a_multipart_request_past_a_limit_names_the_limit(String what, String path, int files, int nameLength,
            String extraField, String says) {
        String boundary = "----hostile" + System.nanoTime();
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < files; i++) {
            String name = nameLength > 0 ? "n".repeat(nameLength) + ".txt" : "f" + i + ".txt";
            body.append("--").append(boundary).append("\r\nContent-Disposition: form-data; name=\"files\"; filename=\"")
                    .append(name).append("\"\r\nContent-Type: text/plain\r\n\r\ntext ").append(i).append("\r\n");
        }
        if (extraField != null) {
            body.append("--").append(boundary).append("\r\nContent-Disposition: form-data; name=\"").append(extraField)
                    .append("\"\r\n\r\nzzz\r\n");
        }
        body.append("--").append(boundary).append("--\r\n");
        HttpResponse<String> r;
        try {
            r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                    .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                    .POST(HttpRequest.BodyPublishers.ofString(body.toString())).timeout(Duration.ofSeconds(60))
                    .build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException | InterruptedException e) {
            throw new AssertionError(e);
        }
        assertThat(r.statusCode()).as(what + ": " + r.body()).isEqualTo(400);
        assertThat(r.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/problem+json");
        assertThat(Json.MAPPER.readTree(r.body()).get("detail").asString()).as(what).contains(says);
        if (nameLength > 0 || files > io.polyrag.app.api.Limits.MAX_FORM_PARTS) {
            // Jetty's parser stopped part way and the connection closes after the answer: the answer says so, or this
            // client would send the next case on a connection about to close and read nothing back.
            assertThat(r.headers().firstValue("Connection")).as(what).hasValue("close");
        }
    }

    @org.junit.jupiter.api.Test
    void a_multipart_body_jetty_cannot_read_is_a_400_that_closes_its_connection() throws Exception {
        // The rest of the body stays unread on the connection: the answer says it is closed, so no client reuses it.
        String body = "--XyZ\r\nContent-Disposition: form-data; n!me=\"qrels\"; filename=\"q\u0000\"\r\n\r\nx\r\n--Xy";
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
                + "/v1/knowledge-bases/kb/judgments")).header("Content-Type", "multipart/form-data; boundary=XyZ")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.headers().firstValue("Content-Type").orElse("")).contains("problem+json");
        assertThat(r.body()).contains("malformed request");
        assertThat(r.headers().firstValue("Connection").orElse("")).isEqualToIgnoringCase("close");
    }

    /**
     * A qrels file past 16 MiB is a 413; a million and more empty lines under it a 400, neither held split; a queries
     * file past 16 MiB is read through.
     */
    @org.junit.jupiter.api.Test
    void an_oversized_or_endless_beir_judgments_upload_is_refused() throws Exception {
        assertThat(http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
                + "/v1/knowledge-bases")).header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers
                .ofString("{\"name\": \"judged\"}")).build(), HttpResponse.BodyHandlers.ofString()).statusCode())
                .isIn(201, 409);
        try (RestServer big = new RestServer(polyrag, "127.0.0.1", 0, 64L * 1024 * 1024)) {
            for (int lines : new int[] {9_000_000, 1_200_000}) {
                String qrels = "a\n".repeat(lines);
                String body = "--XyZ\r\nContent-Disposition: form-data; name=\"qrels\"; filename=\"q.tsv\"\r\n\r\n"
                        + qrels + "\r\n--XyZ\r\nContent-Disposition: form-data; name=\"queries\"; filename=\"q.jsonl\""
                        + "\r\n\r\n{}\r\n--XyZ--\r\n";
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + big.port()
                        + "/v1/knowledge-bases/judged/judgments")).header("Content-Type",
                        "multipart/form-data; boundary=XyZ").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(r.statusCode()).as(r.body()).isEqualTo(lines > 8_000_000 ? 413 : 400);
                assertThat(r.headers().firstValue("Content-Type").orElse("")).contains("problem+json");
            }
            // A queries file past 16 MiB (every split's queries) is read through for the ones the qrels judge.
            StringBuilder queries = new StringBuilder();
            for (int i = 0; queries.length() < 20 << 20; i++) {
                queries.append("{\"_id\": \"u").append(i).append("\", \"text\": \"an unjudged query of another split, "
                        + "number ").append(i).append("\"}\n");
            }
            queries.append("{\"_id\": \"q1\", \"text\": \"the judged one\"}\n");
            String body = "--XyZ\r\nContent-Disposition: form-data; name=\"qrels\"; filename=\"q.tsv\"\r\n\r\n"
                    + "q1\tno-such-document\t1\n\r\n--XyZ\r\nContent-Disposition: form-data; name=\"queries\"; "
                    + "filename=\"q.jsonl\"\r\n\r\n" + queries + "\r\n--XyZ--\r\n";
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + big.port()
                    + "/v1/knowledge-bases/judged/judgments")).header("Content-Type",
                    "multipart/form-data; boundary=XyZ").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
            assertThat(r.body()).as("read through to the judgment, whose document is unknown")
                    .contains("no-such-document");
            // The same file sent as a plain field (no filename) is refused (by the multipart parser, or by its size
            // before it is read as a string, again for each look at the form).
            String field = "--XyZ\r\nContent-Disposition: form-data; name=\"qrels\"\r\n\r\n"
                    + "q1\tno-such-document\t1\n\r\n--XyZ\r\nContent-Disposition: form-data; name=\"queries\""
                    + "\r\n\r\n" + queries + "\r\n--XyZ--\r\n";
            HttpResponse<String> plain = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                    + big.port() + "/v1/knowledge-bases/judged/judgments")).header("Content-Type",
                    "multipart/form-data; boundary=XyZ").POST(HttpRequest.BodyPublishers.ofString(field)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(plain.statusCode()).as(plain.body()).isEqualTo(400);
        }
    }

    /** The raw answer to a request written as is (Java's client refuses a malformed escape in a URI). */
    private String raw(String request) throws IOException {
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(request.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
            return new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    /**
     * A query value Javalin could not decode was dropped, as if not given: a DELETE of one judged query by a
     * malformed id deleted every one, a malformed filter listed everything; a Content-Type charset without a value
     * made every route a 500.
     */
    @Test
    void malformed_query_strings_are_refused_naming_the_parameter() throws IOException {
        String deleted = raw("DELETE /v1/knowledge-bases/default/judgments?query_id=q%zz HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Connection: close\r\n\r\n");
        assertThat(deleted).startsWith("HTTP/1.1 400").contains("problem+json")
                .contains("query parameter 'query_id' has a malformed %-escape");
        assertThat(raw("GET /v1/documents?kb=a% HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"))
                .startsWith("HTTP/1.1 400").contains("query parameter 'kb' has a malformed %-escape");
        assertThat(raw("GET /v1/search?q=%C3%28 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"))
                .startsWith("HTTP/1.1 400").contains("query parameter 'q' is not UTF-8");
        String charset = raw("GET /v1/documents?kb=default HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain; "
                + "charset\r\nConnection: close\r\n\r\n");
        assertThat(charset).as(charset).startsWith("HTTP/1.1 200");
        assertThat(raw("GET /v1/documents?kb=default HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain; "
                + "charset=bogus\r\nConnection: close\r\n\r\n")).startsWith("HTTP/1.1 200");
        // Decoded as UTF-8 whatever the Content-Type says; '+' a space.
        assertThat(raw("GET /v1/documents?kb=%C3%BCber+x HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"))
                .contains("über x");
    }

    /**
     * Javalin routes by X-HTTP-Method-Override: a GET carrying DELETE deleted a knowledge base, logged as a GET.
     * A NUL in a parameter reached PostgreSQL (a 500 there). A HEAD on a GET-only route was a 200 having run nothing.
     */
    @Test
    void a_method_override_a_nul_in_a_parameter_and_head_on_a_stream_are_refused() throws Exception {
        String base = "http://127.0.0.1:" + server.port();
        HttpResponse<String> made = http.send(HttpRequest.newBuilder(URI.create(base + "/v1/knowledge-bases"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                        "{\"name\": \"kept\"}")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(made.statusCode()).as(made.body()).isEqualTo(201);
        HttpResponse<String> overridden = http.send(HttpRequest.newBuilder(URI.create(base
                + "/v1/knowledge-bases/kept")).header("X-HTTP-Method-Override", "DELETE").GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(overridden.statusCode()).as(overridden.body()).isEqualTo(400);
        assertThat(overridden.body()).contains("X-HTTP-Method-Override");
        assertThat(http.send(HttpRequest.newBuilder(URI.create(base + "/v1/knowledge-bases/kept")).GET().build(),
                HttpResponse.BodyHandlers.ofString()).statusCode()).as("still there").isEqualTo(200);
        assertThat(raw("DELETE /v1/knowledge-bases/kept/judgments?query_id=a%00 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Connection: close\r\n\r\n")).startsWith("HTTP/1.1 400").contains("query_id").contains("NUL");
        assertThat(raw("DELETE /v1/knowledge-bases/kept/judgments?query_id=a%20b HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Connection: close\r\n\r\n")).startsWith("HTTP/1.1 400").contains("query_id 'a b' is invalid");
        HttpResponse<String> ids = http.send(HttpRequest.newBuilder(URI.create(base + "/v1/search"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                        "{\"query\": \"x\", \"document_ids\": [\"a\\u0000\"]}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(ids.statusCode()).as(ids.body()).isEqualTo(400);
        assertThat(ids.body()).contains("document_ids");
        for (String path : List.of("/v1/knowledge-bases/nope/evaluation", "/v1/search?q=x", "/v1/admin/check")) {
            HttpResponse<Void> head = http.send(HttpRequest.newBuilder(URI.create(base + path)).method("HEAD",
                    HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding());
            assertThat(head.statusCode()).as(path).isEqualTo(405);
            assertThat(head.headers().firstValue("Allow")).as(path).hasValue("GET");
        }
    }

    @Test
    void a_null_in_a_list_or_a_number_past_its_type_is_refused_naming_the_field() throws Exception {
        for (String[] c : new String[][] {{"/v1/query", "{\"query\": \"x\", \"kb\": [null]}", "field 'kb[0]' is null"},
                {"/v1/search", "{\"query\": \"x\", \"kb\": [\"default\", null]}", "field 'kb[1]' is null"},
                {"/v1/search", "{\"query\": \"x\", \"document_ids\": [null]}", "field 'document_ids[0]' is null"},
                {"/v1/search", "{\"query\": \"x\", \"top_k\": 99999999999}", "field 'top_k' is out of range"}}) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
                    + c[0])).header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(c[1]))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(c[1] + " " + r.body()).isEqualTo(400);
            assertThat(r.body()).as(c[1]).contains(c[2]);
        }
    }
}
