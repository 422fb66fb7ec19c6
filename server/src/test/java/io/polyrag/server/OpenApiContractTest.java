package io.polyrag.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.polyrag.app.Json;
import io.polyrag.app.Polyrag;
import io.polyrag.core.config.Config;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The OpenAPI document is the contract: every operation the server answers is in it (it is built from the same
 * registrations), and every response of every operation — successes and problems — validates against the schema
 * the document gives for its status. A route added without being exercised here fails the coverage check.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OpenApiContractTest {
    @TempDir
    static Path tmp;

    private Polyrag polyrag;
    private RestServer server;
    private ObjectNode doc;
    private final Set<String> exercised = new TreeSet<>();
    private final List<String> violations = new ArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);

    @BeforeAll
    void start() {
        polyrag = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("data").toString(),
                "graph.enabled", "true", "rdf.enabled", "true", "http.sse.heartbeat.seconds", "1",
                "http.admin.key", "operator-key-for-contract", "sync.allowed.roots", tmp.toString())));
        server = new RestServer(polyrag, "127.0.0.1", 0, 8L * 1024 * 1024);
        doc = (ObjectNode) Json.MAPPER.readTree(send("GET", "/v1/openapi.json", null, null).body());
    }

    @AfterAll
    void stop() {
        server.close();
        polyrag.close();
    }

    @Test
    void the_document_lists_exactly_the_operations_the_server_answers() {
        Set<String> documented = new TreeSet<>();
        doc.get("paths").properties().forEach(p -> p.getValue().properties().forEach(m -> documented.add(
                m.getKey().toUpperCase(java.util.Locale.ROOT) + " " + p.getKey())));
        assertThat(documented).isEqualTo(new TreeSet<>(server.operations()));
        assertThat(doc.get("openapi").asString()).isEqualTo("3.1.0");
        assertThat(documented).contains("GET /v1/search", "POST /v1/query", "GET /v1/events", "GET /health");
    }

    @Test
    void every_response_of_every_operation_validates_against_the_document() throws IOException {
        String text = "{\"text\": \"Marie Curie worked at the Radium Institute in Paris.\", \"title\": \"Curie\", "
                + "\"kb\": \"lab\"}";
        String docId = json(call("POST", "/v1/ingest/text", text, 200)).get("document_id").asString();
        call("POST", "/v1/ingest/text", "{\"text\": 42}", 400);
        call("GET", "/v1/search?q=" + enc("Radium Institute") + "&kb=lab", null, 200);
        call("GET", "/v1/search", null, 400);
        JsonNode explained = json(call("POST", "/v1/search", "{\"query\": \"Curie\", \"kb\": \"lab\", \"top_k\": 3, "
                + "\"explain\": true}", 200));
        assertThat(explained.get("fusion").asString()).contains("over modalities");
        JsonNode top = explained.get("hits").get(0);
        double sum = 0;
        for (var c : top.get("explain").get("contributions").properties()) {
            sum += c.getValue().asDouble();
        }
        assertThat(sum).as("the contributions add up to the fused score").isCloseTo(top.get("score").asDouble(),
                org.assertj.core.data.Offset.offset(1e-9));
        assertThat(json(call("GET", "/v1/search?q=Curie", null, 200)).get("hits").get(0).get("explain").isNull())
                .isTrue();
        assertThat(json(call("POST", "/v1/search", "{\"query\": \"Curie\", \"kb\": \"lab\", \"candidates\": 7, "
                + "\"fulltext_document_weight\": 1, \"explain\": true}", 200)).get("fusion").asString())
                .contains("each leg's list 7 deep", "weight 1.00 (this search's)");
        assertThat(json(call("GET", "/v1/search?q=Curie&candidates=7&fulltext_document_weight=0.25&explain=true", null, 200))
                .get("fusion").asString()).contains("each leg's list 7 deep", "weight 0.25 (this search's)");
        call("POST", "/v1/query", "{\"query\": \"Where did Marie Curie work?\", \"candidates\": 7, "
                + "\"fulltext_document_weight\": 0}", 200);
        call("POST", "/v1/search", "{\"query\": \"Curie\", \"top_k\": \"3\"}", 400);
        call("POST", "/v1/query", "{\"query\": \"Where did Marie Curie work?\", \"grounding\": true}", 200);
        call("POST", "/v1/query", "{}", 400);
        call("POST", "/v1/query", "{\"query\": \"Where did Marie Curie work?\", \"conversation_id\": \"c1\"}", 200);
        call("POST", "/v1/query", "{\"messages\": [{\"role\": \"user\", \"content\": \"Where did Marie Curie "
                + "work?\"}, {\"role\": \"user\", \"content\": \"And when?\"}], \"conversation_id\": \"c1\"}", 200);
        call("GET", "/v1/conversations", null, 200);
        call("GET", "/v1/conversations/c1", null, 200);
        call("GET", "/v1/conversations/nope", null, 404);
        call("DELETE", "/v1/conversations/c1", null, 204);
        call("DELETE", "/v1/conversations/c1", null, 404);
        judgmentsTuningAndEvaluation(docId);
        String job = json(call("POST", "/v1/ingest/files", multipart("notes.md", "# Notes\n\nOtters hold hands."),
                202)).get("job_id").asString();
        call("POST", "/v1/ingest/files", "{}", 415);
        String staged = json(call("POST", "/v1/ingest/upload", multipart("tides.md", "# Tides\n\nThe moon pulls."),
                200)).get("accepted").get(0).get("id").asString();
        call("POST", "/v1/ingest/upload", multipart("empty.md", ""), 200);
        call("POST", "/v1/ingest/staged", "{\"ids\": [\"" + staged + "\"]}", 202);
        call("POST", "/v1/ingest/staged", "{\"ids\": [\"00000000-0000-0000-0000-000000000000\"]}", 404);
        call("POST", "/v1/ingest/staged", "{\"ids\": [\"" + staged + "\"], \"figures\": \"some\"}", 400);
        // A staged file dropped by its client: deleted, and then neither deleted again nor ingested.
        String dropped = json(call("POST", "/v1/ingest/upload", multipart("ebb.md", "# Ebb\n\nThe tide falls."),
                200)).get("accepted").get(0).get("id").asString();
        call("DELETE", "/v1/ingest/staged/" + dropped, null, 204);
        call("DELETE", "/v1/ingest/staged/" + dropped, null, 404);
        call("DELETE", "/v1/ingest/staged/" + staged, null, 404);
        call("POST", "/v1/ingest/staged", "{\"ids\": [\"" + dropped + "\"]}", 404);
        call("GET", "/v1/jobs/" + job, null, 200);
        call("GET", "/v1/jobs/nope", null, 404);
        call("GET", "/v1/jobs?limit=5", null, 200);
        call("GET", "/v1/jobs?limit=0", null, 400);
        call("POST", "/v1/jobs/nope/cancel", null, 404);
        call("GET", "/v1/documents?kb=lab", null, 200);
        call("GET", "/v1/documents?limit=x", null, 400);
        call("GET", "/v1/formats", null, 200);
        call("GET", "/v1/configuration", null, 200);
        java.nio.file.Path folder = java.nio.file.Files.createDirectories(tmp.resolve("synced"));
        java.nio.file.Files.writeString(folder.resolve("tides.md"), "# Tides\n\nSpring tides rise four metres.");
        String sourceBody = "{\"source_id\": \"notes\", \"type\": \"filesystem\", \"config\": {\"root\": \""
                + folder.toString().replace("\\", "\\\\") + "\", \"include\": [\"*.md\"]}, \"kb\": \"lab\", "
                + "\"interval_seconds\": 60}";
        call("POST", "/v1/sync/sources", sourceBody, 201);
        call("POST", "/v1/sync/sources", sourceBody, 409);
        call("POST", "/v1/sync/sources", "{\"source_id\": \"x\", \"type\": \"web\", \"config\": {}}", 400);
        call("GET", "/v1/sync/sources", null, 200);
        call("GET", "/v1/sync/sources/notes", null, 200);
        call("GET", "/v1/sync/sources/nope", null, 404);
        call("PUT", "/v1/sync/sources/notes", sourceBody.replace("60}", "120}"), 200);
        call("PUT", "/v1/sync/sources/notes", "{\"source_id\": \"other\", \"type\": \"filesystem\", \"config\": {}}",
                400);
        call("POST", "/v1/sync/sources/notes/sync-now", null, 202);
        call("POST", "/v1/sync/sources/nope/sync-now", null, 404);
        call("POST", "/v1/sync/sources/notes/disable", null, 200);
        call("POST", "/v1/sync/sources/notes/sync-now", null, 409);
        call("POST", "/v1/sync/sync-now", null, 202);
        call("POST", "/v1/sync/sources/notes/enable", null, 200);
        call("DELETE", "/v1/sync/sources/notes?documents=true", null, 200);
        call("DELETE", "/v1/sync/sources/notes", null, 404);
        JsonNode sample = json(call("POST", "/v1/sample-check", null, 200));
        assertThat(sample.get("ok").asBoolean()).as(sample.toString()).isTrue();
        assertThat(sample.get("steps").findValuesAsString("name")).containsExactly("ingest", "search", "delete",
                "gone");
        call("GET", "/v1/graph/entities?q=curie", null, 200);
        call("GET", "/v1/graph/entities", null, 400);
        call("GET", "/v1/graph/entities/" + enc("marie curie").replace("+", "%20") + "/neighbours", null, 200);
        call("GET", "/v1/graph/entities/nobody/neighbours", null, 404);
        call("GET", "/v1/knowledge-bases", null, 200);
        call("POST", "/v1/knowledge-bases", "{\"name\": \"scratch\", \"description\": \"x\"}", 201);
        call("POST", "/v1/knowledge-bases", "{\"name\": \"scratch\"}", 409);
        call("GET", "/v1/knowledge-bases/scratch", null, 200);
        call("DELETE", "/v1/knowledge-bases/scratch", null, 204);
        call("DELETE", "/v1/knowledge-bases/scratch", null, 404);
        call("GET", "/v1/knowledge-bases/Bad!", null, 400);
        call("GET", "/health", null, 200);
        call("GET", "/ready", null, 200);
        call("GET", "/v1/admin/check", null, 200);
        call("POST", "/v1/admin/check?repair=true", null, 200);
        call("GET", "/v1/admin/check?repair=true", null, 400);
        String reindex = json(call("POST", "/v1/admin/reindex?modality=vector", null, 202)).get("job_id").asString();
        call("POST", "/v1/admin/reindex?modality=nope", null, 400);
        call("POST", "/v1/admin/reindex?modality=vector&modality=fulltext", null, 400);
        call("GET", "/v1/admin/jobs/" + reindex, null, 200);
        call("GET", "/v1/admin/jobs/nope", null, 404);
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(60)).until(() -> json(send("GET",
                "/v1/admin/jobs/" + reindex, null, null)).get("status").asString().matches("succeeded|partial|failed"));
        call("POST", "/v1/admin/jobs/" + reindex + "/cancel", null, 409);
        call("POST", "/v1/admin/jobs/nope/cancel", null, 404);
        call("GET", "/v1/usage", null, 200);
        call("GET", "/v1/usage?from=2026-12-01&to=2026-12-31", null, 200);
        call("GET", "/v1/usage?from=yesterday", null, 400);
        call("GET", "/v1/admin/usage", null, 200);
        call("PUT", "/v1/admin/tenants/acme/quotas", "{\"documents\": 1000, \"searches_per_minute\": 600}", 200);
        call("PUT", "/v1/admin/tenants/acme/quotas", "{\"documents\": 0}", 400);
        call("GET", "/v1/admin/tenants/acme/quotas", null, 200);
        call("GET", "/v1/admin/tenants/Bad!/quotas", null, 400);
        call("DELETE", "/v1/admin/tenants/acme/quotas", null, 204);
        JsonNode key = json(call("POST", "/v1/admin/keys", "{\"tenant\": \"acme\", \"name\": \"contract\"}", 201));
        // A key exists now: every /v1 route needs one, admin routes the operator key (a tenant's gets 403).
        sendAs(null, "GET", "/v1/documents", 401);
        sendAs("operator-key-for-contract", "GET", "/v1/admin/keys", 200);
        sendAs(key.get("key").asString(), "DELETE", "/v1/admin/keys/" + key.get("id").asString(), 403);
        sendAs("operator-key-for-contract", "POST", "/v1/admin/keys", 415);
        sendAs("operator-key-for-contract", "POST", "/v1/admin/keys?x=1", 400);
        sendAs("operator-key-for-contract", "DELETE", "/v1/admin/keys/" + key.get("id").asString(), 204);
        call("DELETE", "/v1/admin/keys/" + key.get("id").asString(), null, 404);
        call("POST", "/v1/admin/keys", "{\"name\": \"no tenant\"}", 400);
        String uploaded = json(call("POST", "/v1/documents", multipartOne("report.md", "# Report\n\nSales rose.",
                Map.of("title", "Q3 report", "categories", "finance", "external_ref", "crm:7")), 202))
                .get("document_id").asString();
        call("POST", "/v1/documents", multipartOne("x.md", "x", Map.of("figures", "sometimes")), 400);
        await(() -> send("GET", "/v1/documents/" + uploaded, null, null).statusCode() == 200);
        call("GET", "/v1/documents/" + uploaded, null, 200);
        call("GET", "/v1/documents/nope", null, 404);
        call("GET", "/v1/documents/" + uploaded + "/content", null, 200);
        call("GET", "/v1/documents/" + docId + "/content", null, 404);
        call("GET", "/v1/documents/" + uploaded + "/figures/1", null, 404);
        call("GET", "/v1/documents/" + uploaded + "/figures/one", null, 400);
        call("DELETE", "/v1/documents/" + docId, null, 204);
        call("DELETE", "/v1/documents/" + docId, null, 404);
        call("GET", "/v1/openapi.json", null, 200);
        call("GET", "/v1/models", null, 200);
        call("GET", "/metrics", null, 200);
        call("POST", "/v1/chat/completions", "{\"model\": \"polyrag/lab\", \"messages\": [{\"role\": \"user\", "
                + "\"content\": \"Where did Marie Curie work?\"}], \"temperature\": 0.2}", 200);
        call("POST", "/v1/chat/completions", "{\"model\": \"gpt-4o\", \"messages\": [{\"role\": \"user\", "
                + "\"content\": \"x\"}]}", 404);
        call("POST", "/v1/chat/completions", "{\"model\": \"polyrag\", \"messages\": []}", 400);
        HttpResponse<String> events = sendStreamHead("/v1/events");
        assertThat(events.statusCode()).isEqualTo(200);
        assertThat(events.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/event-stream");
        exercised.add("GET /v1/events");
        call("POST", "/v1/jobs/" + job + "/cancel", null, 409);
        assertThat(violations).isEmpty();
        Set<String> all = new TreeSet<>(server.operations());
        assertThat(exercised).as("operations exercised by this test").isEqualTo(all);
    }

    private HttpResponse<String> sendAs(String key, String method, String pathAndQuery, int status) {
        return check(method, pathAndQuery, send(method, pathAndQuery, null, key), status, key);
    }

    /**
     * {@code docs/openapi.json} is the served document, kept in the repository for readers and for the linter that
     * CI runs; regenerate it with {@code ./mvnw -pl server test -Dtest=OpenApiContractTest -Dpolyrag.writeDocs=true}.
     */
    /** Request bodies say what the route takes: no field it does not need, and more where it takes more. */
    @Test
    void request_schemas_require_what_each_route_requires() {
        var schemas = doc.get("components").get("schemas");
        assertThat(schemas.get("DtosSourceBodyWithoutSourceId").get("required").toString()).doesNotContain("source_id");
        assertThat(schemas.get("DtosSourceBody").get("required").toString()).contains("source_id");
        assertThat(schemas.get("DtosQueryBody").get("required")).isEmpty();
        assertThat(schemas.get("ChatRoutesChatBody").get("additionalProperties").asBoolean()).isTrue();
        assertThat(schemas.get("DtosSearchBody").get("additionalProperties").asBoolean()).isFalse();
    }

    @Test
    void docs_openapi_json_is_the_served_document() throws IOException {
        Path file = Path.of("").toAbsolutePath().getParent().resolve("docs/openapi.json");
        String served = Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(doc) + "\n";
        if (Boolean.getBoolean("polyrag.writeDocs")) {
            java.nio.file.Files.writeString(file, served);
        }
        assertThat(java.nio.file.Files.readString(file)).as("docs/openapi.json is stale: regenerate it with ./mvnw "
                + "-pl server test -Dtest=OpenApiContractTest -Dpolyrag.writeDocs=true").isEqualTo(served);
    }

    @Test
    void the_schemas_reject_what_the_wire_records_would_never_print() {
        ObjectNode schema = doc.deepCopy();
        schema.putArray("allOf").add(Json.MAPPER.createObjectNode().put("$ref", "#/components/schemas/SearchWireResults"));
        Schema s = registry.getSchema(schema.toString(), InputFormat.JSON);
        assertThat(s.validate("{\"query\": \"q\", \"took_ms\": 1, \"modalities\": [], \"degraded\": [], "
                + "\"warnings\": [], \"fusion\": null, \"hits\": []}", InputFormat.JSON)).isEmpty();
        assertThat(s.validate("{\"query\": \"q\", \"tookMs\": 1, \"modalities\": [], \"degraded\": [], "
                + "\"warnings\": [], \"hits\": []}", InputFormat.JSON)).as("a camelCase name").isNotEmpty();
        assertThat(s.validate("{\"query\": 3, \"took_ms\": \"1\", \"modalities\": [], \"degraded\": [], "
                + "\"warnings\": [], \"hits\": [{}]}", InputFormat.JSON)).as("wrong types").isNotEmpty();
    }

    /** Sends, checks the status, validates the body against the document's schema for that status. */
    /** A knowledge base's judged queries, the tuning job, its result and the evaluation. */
    private void judgmentsTuningAndEvaluation(String docId) {
        StringBuilder judged = new StringBuilder("{\"judgments\": [");
        for (int i = 0; i < 20; i++) {
            judged.append(i == 0 ? "" : ", ").append("{\"query_id\": \"q").append(i).append("\", \"query\": \"Where "
                    + "did Curie work, ").append(i).append("?\", \"relevant\": {\"").append(docId).append("\": 1}}");
        }
        judged.append("]}");
        call("POST", "/v1/knowledge-bases/lab/tune", null, 400);
        call("GET", "/v1/knowledge-bases/lab/evaluation", null, 400);
        call("POST", "/v1/knowledge-bases/lab/judgments", "{\"judgments\": [{\"query\": \"x\", \"relevant\": "
                + "{\"no-such-document\": 1}}]}", 400);
        call("POST", "/v1/knowledge-bases/lab/judgments", "{\"judgments\": []}", 400);
        call("POST", "/v1/knowledge-bases/nope/judgments", judged.toString(), 404);
        call("POST", "/v1/knowledge-bases/lab/judgments", judged.toString(), 200);
        TestHttp.Multipart beir = TestHttp.multipart("qrels", "qrels.tsv", "query-id\tcorpus-id\tscore\nb1\t"
                + docId + "\t2\n", Map.of("queries", "{\"_id\": \"b1\", \"text\": \"Radium Institute\"}\n"));
        assertThat(json(call("POST", "/v1/knowledge-bases/lab/judgments", new Multipart(beir.boundary(), beir.body()),
                200)).get("queries").asInt()).isEqualTo(21);
        call("GET", "/v1/knowledge-bases/lab/judgments", null, 200);
        call("GET", "/v1/knowledge-bases/lab/tuning", null, 404);
        String tune = json(call("POST", "/v1/knowledge-bases/lab/tune", null, 202)).get("job_id").asString();
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(120)).until(() -> json(send("GET", "/v1/jobs/" + tune, null, null))
                .get("status").asString(), st -> st.equals("succeeded"));
        call("GET", "/v1/knowledge-bases/lab/tuning", null, 200);
        // A HEAD runs no evaluation (it has no route: it ran one whole, to answer with headers alone).
        assertThat(send("HEAD", "/v1/knowledge-bases/lab/evaluation", null, null).statusCode()).isNotEqualTo(500);
        call("GET", "/v1/knowledge-bases/lab/evaluation?last=true", null, 404);
        call("GET", "/v1/knowledge-bases/lab/evaluation", null, 200);
        call("GET", "/v1/knowledge-bases/lab/evaluation?last=true", null, 200);
        call("DELETE", "/v1/knowledge-bases/lab/tuning", null, 204);
        call("DELETE", "/v1/knowledge-bases/lab/judgments?query_id=b1", null, 200);
    }

    private HttpResponse<String> call(String method, String pathAndQuery, Object body, int status) {
        return check(method, pathAndQuery, send(method, pathAndQuery, body, null), status, null);
    }

    private HttpResponse<String> check(String method, String pathAndQuery, HttpResponse<String> r, int status,
            String key) {
        assertThat(r.statusCode()).as(method + " " + pathAndQuery + ": " + r.body()).isEqualTo(status);
        String path = pathAndQuery.replaceAll("\\?.*", "");
        String template = template(path);
        exercised.add(method + " " + template);
        if (method.equals("GET") && doc.get("paths").get(template).has("head")) {
            HttpResponse<String> head = send("HEAD", pathAndQuery, null, key);
            assertThat(head.statusCode()).as("HEAD " + pathAndQuery).isEqualTo(status);
            exercised.add("HEAD " + template);
        }
        JsonNode responses = doc.get("paths").get(template).get(method.toLowerCase(java.util.Locale.ROOT))
                .get("responses");
        JsonNode declared = responses.has(Integer.toString(status)) ? responses.get(Integer.toString(status))
                : responses.get(status / 100 + "XX");
        assertThat(declared).as(method + " " + template + " declares " + status + " or a default").isNotNull();
        JsonNode content = declared.get("content");
        if (content == null) {
            assertThat(r.body()).as(method + " " + template + " " + status + " has no body").isEmpty();
            return r;
        }
        String type = r.headers().firstValue("Content-Type").orElse("").replaceAll(";.*", "");
        if (content.has("*/*")) {
            return r;
        }
        assertThat(content.has(type)).as(method + " " + template + " " + status + " content type " + type
                + " declared: " + content.propertyNames()).isTrue();
        if (!type.endsWith("json")) {
            return r;
        }
        if (!type.endsWith("json")) {
            return r;
        }
        ObjectNode schema = doc.deepCopy();
        schema.putArray("allOf").add(content.get(type).get("schema"));
        Schema s = registry.getSchema(schema.toString(), InputFormat.JSON);
        var errors = s.validate(r.body(), InputFormat.JSON);
        if (!errors.isEmpty()) {
            violations.add(method + " " + pathAndQuery + " " + status + ": " + errors);
        }
        return r;
    }

    /** The documented path that a concrete path matches. */
    private String template(String path) {
        for (String t : (Iterable<String>) () -> doc.get("paths").propertyNames().iterator()) {
            if (path.matches(t.replaceAll("\\{[^}]+}", "[^/]+"))) {
                return t;
            }
        }
        throw new AssertionError("no documented path matches " + path);
    }

    private record Multipart(String boundary, String body) {
    }

    private static Multipart multipartOne(String name, String content, Map<String, String> fields) {
        TestHttp.Multipart m = TestHttp.multipart("file", name, content, fields);
        return new Multipart(m.boundary(), m.body());
    }

    private static Multipart multipart(String name, String content) {
        TestHttp.Multipart m = TestHttp.multipart("files", name, content, Map.of());
        return new Multipart(m.boundary(), m.body());
    }

    private HttpResponse<String> send(String method, String path, Object body, String key) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path));
        if (key != null) {
            b.header("Authorization", "Bearer " + key);
        }
        if (body instanceof Multipart m) {
            b.header("Content-Type", "multipart/form-data; boundary=" + m.boundary())
                    .method(method, HttpRequest.BodyPublishers.ofString(m.body()));
        } else if (body instanceof String s) {
            b.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(s));
        } else {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        }
        try {
            return http.send(b.timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException | InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    /** Opens the event stream and reads only its head (it never ends by itself). */
    private HttpResponse<String> sendStreamHead(String path) {
        try {
            HttpResponse<java.io.InputStream> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                    + server.port() + path)).build(), HttpResponse.BodyHandlers.ofInputStream());
            r.body().close();
            return new HttpResponse<>() {
                public int statusCode() { return r.statusCode(); }
                public HttpRequest request() { return r.request(); }
                public java.util.Optional<HttpResponse<String>> previousResponse() { return java.util.Optional.empty(); }
                public java.net.http.HttpHeaders headers() { return r.headers(); }
                public String body() { return ""; }
                public java.util.Optional<javax.net.ssl.SSLSession> sslSession() { return java.util.Optional.empty(); }
                public URI uri() { return r.uri(); }
                public HttpClient.Version version() { return r.version(); }
            };
        } catch (IOException | InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    private static void await(java.util.function.BooleanSupplier ok) {
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(ok::getAsBoolean);
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static JsonNode json(HttpResponse<String> r) {
        return Json.MAPPER.readTree(r.body());
    }
}
