package io.polyrag.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Two tenants with overlapping texts on one server, all four modalities on: tenant B, through every route and every
 * modality, never receives a byte of tenant A's content, and A's ids are 404 to B.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TenantIsolationTest {
    /** Words only tenant A's documents contain. */
    private static final List<String> SECRETS = List.of("zanzibarquartz", "Vantablack", "Quillon", "alpha/");
    private static final String SHARED = "Marie Curie worked at the Radium Institute in Paris. She studied radium.";
    private static final String ADMIN = "operator-secret-for-tests";

    @TempDir
    static Path tmp;

    private Polyrag polyrag;
    private RestServer server;
    private String a;
    private String b;
    private String aRevoked;
    private String aDocument;
    private String aJob;
    private String aStaged;
    private String aFigures;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    void start() {
        polyrag = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("data").toString(),
                "graph.enabled", "true", "rdf.enabled", "true", "http.admin.key", ADMIN,
                "http.sse.heartbeat.seconds", "1")));
        a = polyrag.keys().create("alpha", "a's key").key();
        b = polyrag.keys().create("beta", null).key();
        var revoked = polyrag.keys().create("alpha", "old");
        aRevoked = revoked.key();
        polyrag.keys().revoke(revoked.info().id());
        server = new RestServer(polyrag, "127.0.0.1", 0, 8L * 1024 * 1024);
        String secret = SHARED + " Professor Quillon Vantablack founded the Zanzibarquartz Foundation in Paris. "
                + "The codeword is zanzibarquartz.";
        JsonNode ingested = json(post(a, "/v1/ingest/text", "{\"text\": \"" + secret + "\", \"uri\": \"note:curie\", "
                + "\"kb\": \"lab\", \"title\": \"Quillon Vantablack notes\"}"));
        aDocument = ingested.get("document_id").asString();
        assertThat(post(b, "/v1/ingest/text", "{\"text\": \"" + SHARED + "\", \"uri\": \"note:curie\", \"kb\": \"lab\"}")
                .statusCode()).isEqualTo(200);
        aJob = upload(a, "/v1/ingest/files", "vantablack.md", "# Vantablack\n\nQuillon Vantablack keeps the "
                + "zanzibarquartz ledger.").get("job_id").asString();
        await().atMost(Duration.ofSeconds(60)).until(() -> json(get(a, "/v1/jobs/" + aJob)).get("status").asString(),
                s -> s.equals("succeeded"));
        JsonNode job = json(get(a, "/v1/jobs/" + aJob));
        assertThat(job.get("knowledge_base").asString()).as("named as the tenant names it").isEqualTo("lab");
        assertThat(job.get("started_at").isNull()).as("a job a worker took up says when").isFalse();
        aStaged = upload(a, "/v1/ingest/upload", "ledger.md", "# Ledger\n\nzanzibarquartz entries by Quillon.")
                .get("accepted").get(0).get("id").asString();
        TestHttp.Multipart report = TestHttp.binary("file", "report.pdf", "application/pdf",
                io.polyrag.testing.DocumentFixtures.figuresPdf(), Map.of("kb", "lab"));
        JsonNode accepted = json(send(auth(HttpRequest.newBuilder(uri("/v1/documents")), a)
                .header("Content-Type", report.contentType()).POST(report.publisher())));
        aFigures = accepted.get("document_id").asString();
        await().atMost(Duration.ofSeconds(60)).until(() -> json(get(a, "/v1/jobs/" + accepted.get("job_id")
                .asString())).get("status").asString(), s -> s.equals("succeeded"));
    }

    @AfterAll
    void stop() {
        server.close();
        polyrag.close();
    }

    @Test
    void tenant_a_finds_its_own_content_in_every_modality() {
        for (String m : List.of("vector", "fulltext", "graph", "rdf")) {
            String q = m.equals("graph") || m.equals("rdf") ? "Quillon Vantablack" : "zanzibarquartz codeword";
            JsonNode r = json(get(a, "/v1/search?q=" + enc(q) + "&modalities=" + m));
            assertThat(r.get("hits")).as(m).isNotEmpty();
            assertThat(r.toString()).as(m).contains("Vantablack");
            assertThat(r.get("hits").get(0).get("knowledge_base").asString()).isIn("lab", "default");
        }
        assertThat(json(get(a, "/v1/graph/entities?q=vantablack")).get("entities").get(0).get("id").asString())
                .isEqualTo("quillon vantablack");
    }

    @Test
    void tenant_b_never_receives_a_byte_of_tenant_a_through_any_route_or_modality() {
        List<HttpResponse<String>> seen = new ArrayList<>();
        for (String m : List.of("", "&modalities=vector", "&modalities=fulltext", "&modalities=graph",
                "&modalities=rdf")) {
            for (String q : List.of("zanzibarquartz codeword", "Quillon Vantablack", "Marie Curie Radium Institute",
                    "Zanzibarquartz Foundation Paris")) {
                seen.add(get(b, "/v1/search?q=" + enc(q) + m));
                seen.add(get(b, "/v1/search?q=" + enc(q) + "&kb=lab" + m));
            }
        }
        seen.add(post(b, "/v1/search", "{\"query\": \"zanzibarquartz\", \"kb\": [\"lab\", \"default\"]}"));
        seen.add(post(b, "/v1/query", "{\"query\": \"Who founded the Zanzibarquartz Foundation?\"}"));
        seen.add(post(b, "/v1/query", "{\"query\": \"Where did Marie Curie work?\", \"stream\": true}"));
        seen.add(get(b, "/v1/documents"));
        seen.add(get(b, "/v1/documents?kb=lab"));
        seen.add(get(b, "/v1/graph/entities?q=vantablack"));
        seen.add(get(b, "/v1/graph/entities?q=curie"));
        seen.add(get(b, "/v1/graph/entities?q=paris&kb=lab"));
        seen.add(get(b, "/v1/graph/entities/" + enc("marie curie").replace("+", "%20") + "/neighbours"));
        seen.add(get(b, "/v1/graph/entities/" + enc("radium institute").replace("+", "%20") + "/neighbours"));
        for (HttpResponse<String> r : seen) {
            assertThat(r.statusCode()).as(r.uri().toString()).isLessThan(500);
            // B's own query is echoed back ("query"); everything else must be free of A's words.
            String body = r.body().replaceAll("\"query\":\"[^\"]*\"", "\"query\":\"\"");
            for (String s : SECRETS) {
                assertThat(body).as(r.uri() + " leaks " + s).doesNotContainIgnoringCase(s);
            }
            assertThat(r.body()).as(r.uri().toString()).doesNotContain(aDocument).doesNotContain(aJob);
        }
        // B's own overlapping document is found, in its own knowledge base, by every modality.
        for (String m : List.of("vector", "fulltext", "graph", "rdf")) {
            JsonNode r = json(get(b, "/v1/search?q=" + enc("Marie Curie Radium Institute") + "&modalities=" + m));
            assertThat(r.get("hits")).as(m).isNotEmpty().allSatisfy(h -> assertThat(h.get("knowledge_base")
                    .asString()).isEqualTo("lab"));
        }
        assertThat(json(get(b, "/v1/documents")).get("documents")).hasSize(1);
    }

    @Test
    void the_event_stream_replays_only_the_tenants_own_jobs() throws IOException {
        String bJob = upload(b, "/v1/ingest/files", "b-events.md", "# B\n\nBeta's own note.").get("job_id").asString();
        await().atMost(Duration.ofSeconds(60)).until(() -> json(get(b, "/v1/jobs/" + bJob)).get("status").asString(),
                s -> s.equals("succeeded"));
        List<String> firstIds = new java.util.ArrayList<>();
        for (String[] who : new String[][] {{a, "yes"}, {b, "no"}}) {
            try (java.net.Socket socket = new java.net.Socket("127.0.0.1", server.port())) {
                socket.setSoTimeout(30_000);
                socket.getOutputStream().write(("GET /v1/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                        + who[0] + "\r\nLast-Event-ID: 0\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                var in = new java.io.BufferedReader(new java.io.InputStreamReader(socket.getInputStream(),
                        StandardCharsets.UTF_8));
                StringBuilder seen = new StringBuilder();
                for (String l = in.readLine(); l != null && !l.startsWith(": heartbeat"); l = in.readLine()) {
                    seen.append(l).append('\n');
                }
                firstIds.add(seen.toString().lines().filter(l -> l.startsWith("id: ")).findFirst().orElseThrow());
                if (who[1].equals("yes")) {
                    assertThat(seen).contains(aJob).contains("event: finished").doesNotContain(bJob);
                } else {
                    assertThat(seen).doesNotContain(aJob).contains(bJob).contains("event: finished");
                }
            }
        }
        assertThat(firstIds.get(0)).as("event ids count each tenant's own events: they tell nothing of another's")
                .isEqualTo(firstIds.get(1));
    }

    /** One tenant holds at most so many event streams open; another tenant's are not held up by them. */
    @Test
    void a_tenant_may_hold_only_so_many_event_streams() throws Exception {
        var k = polyrag.keys().create("gamma", "streams");
        List<java.net.Socket> sockets = new java.util.ArrayList<>();
        try {
            for (int i = 0; i <= JobRoutes.MAX_STREAMS_PER_TENANT; i++) {
                java.net.Socket socket = new java.net.Socket("127.0.0.1", server.port());
                socket.setSoTimeout(20_000);
                socket.getOutputStream().write(("GET /v1/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                        + k.key() + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                sockets.add(socket);
                String status = new java.io.BufferedReader(new java.io.InputStreamReader(socket.getInputStream(),
                        StandardCharsets.UTF_8)).readLine();
                assertThat(status).as("stream " + (i + 1)).startsWith(i < JobRoutes.MAX_STREAMS_PER_TENANT
                        ? "HTTP/1.1 200" : "HTTP/1.1 429");
            }
            assertThat(get(b, "/v1/jobs").statusCode()).isEqualTo(200);
        } finally {
            for (java.net.Socket socket : sockets) {
                socket.close();
            }
        }
    }

    /** A stream opened with a key ends once the key is revoked, as the key's next request would get 401. */
    @Test
    void a_revoked_keys_event_stream_ends() throws Exception {
        var k = polyrag.keys().create("alpha", "stream");
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(20_000);
            socket.getOutputStream().write(("GET /v1/events HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                    + "Authorization: Bearer " + k.key() + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            var in = new java.io.BufferedReader(new java.io.InputStreamReader(socket.getInputStream(),
                    StandardCharsets.UTF_8));
            for (String l = in.readLine(); !l.startsWith(": heartbeat"); l = in.readLine()) {
                assertThat(l).isNotNull();
            }
            assertThat(delete(ADMIN, "/v1/admin/keys/" + k.info().id()).statusCode()).isEqualTo(204);
            long start = System.nanoTime();
            int heartbeats = 0;
            for (String l = in.readLine(); l != null; l = in.readLine()) {
                heartbeats += l.startsWith(": heartbeat") ? 1 : 0;
            }
            assertThat(heartbeats).as("the stream ends within a heartbeat or two").isLessThanOrEqualTo(3);
            assertThat(System.nanoTime() - start).isLessThan(10_000_000_000L);
        }
    }

    @Test
    void another_tenants_conversation_is_not_found_and_lends_no_history() {
        assertThat(post(a, "/v1/query", "{\"query\": \"Who keeps the zanzibarquartz ledger?\", "
                + "\"conversation_id\": \"shared-name\", \"kb\": \"lab\"}").statusCode()).isEqualTo(200);
        assertThat(get(a, "/v1/conversations/shared-name").body()).contains("zanzibarquartz");
        assertThat(get(b, "/v1/conversations/shared-name").statusCode()).isEqualTo(404);
        assertThat(get(b, "/v1/conversations").body()).doesNotContain("shared-name").doesNotContain("zanzibarquartz");
        assertThat(delete(b, "/v1/conversations/shared-name").statusCode()).isEqualTo(404);
        // The same id in B is B's own conversation: A's question is not its history.
        var followUp = post(b, "/v1/query", "{\"query\": \"And who else?\", \"conversation_id\": \"shared-name\"}");
        assertThat(followUp.statusCode()).isEqualTo(200);
        assertThat(followUp.body()).doesNotContain("zanzibarquartz");
        assertThat(get(a, "/v1/conversations/shared-name").body()).doesNotContain("And who else?");
    }

    @Test
    void judged_queries_tunings_and_evaluations_are_each_tenants_own() {
        String judged = "{\"judgments\": [{\"query_id\": \"secret-q\", \"query\": \"zanzibarquartz ledger\", "
                + "\"relevant\": {\"" + aDocument + "\": 1}}]}";
        assertThat(post(a, "/v1/knowledge-bases/lab/judgments", judged).statusCode()).isEqualTo(200);
        var bPost = post(b, "/v1/knowledge-bases/lab/judgments", judged);
        assertThat(bPost.statusCode()).as("A's document is no document of B's lab").isEqualTo(400);
        assertThat(bPost.body()).contains("judgments[0].relevant").doesNotContain("zanzibarquartz");
        assertThat(get(b, "/v1/knowledge-bases/lab/judgments").body()).doesNotContain("secret-q")
                .doesNotContain("zanzibarquartz").doesNotContain(aDocument);
        assertThat(get(a, "/v1/knowledge-bases/lab/judgments").body()).contains("secret-q");
        assertThat(get(a, "/v1/knowledge-bases/lab/evaluation").statusCode()).isEqualTo(200);
        assertThat(get(b, "/v1/knowledge-bases/lab/evaluation?last=true").statusCode()).isEqualTo(404);
        assertThat(get(b, "/v1/knowledge-bases/lab/evaluation").statusCode()).as("B's lab has no judged queries")
                .isEqualTo(400);
        assertThat(get(b, "/v1/knowledge-bases/lab/tuning").statusCode()).isEqualTo(404);
        assertThat(delete(b, "/v1/knowledge-bases/lab/judgments").body()).contains("\"deleted\":0");
        assertThat(get(a, "/v1/knowledge-bases/lab/judgments").body()).contains("secret-q");
    }

    @Test
    void usage_is_each_tenants_own_and_the_operator_sees_every_tenants() {
        long before = searches(json(get(b, "/v1/usage")));
        assertThat(get(b, "/v1/search?q=radium").statusCode()).isEqualTo(200);
        assertThat(post(b, "/v1/query", "{\"query\": \"radium\"}").statusCode()).isEqualTo(200);
        JsonNode mine = json(get(b, "/v1/usage"));
        assertThat(mine.get("tenant").asString()).isEqualTo("beta");
        assertThat(searches(mine)).as("B's search, counted for B").isEqualTo(before + 1);
        assertThat(mine.get("documents").asLong()).isEqualTo(json(get(b, "/v1/knowledge-bases")).get(
                "knowledge_bases").valueStream().mapToLong(k -> k.get("documents").asLong()).sum());
        assertThat(mine.get("usage").toString()).contains("\"answers\"").contains("chunks_embedded");
        assertThat(get(b, "/v1/usage").body()).doesNotContain("alpha");
        JsonNode theirs = json(get(a, "/v1/usage"));
        assertThat(theirs.get("tenant").asString()).isEqualTo("alpha");
        assertThat(theirs.get("stored_bytes").asLong()).isPositive();
        assertThat(get(b, "/v1/admin/usage").statusCode()).as("the operator's view").isEqualTo(403);
        JsonNode all = json(get(ADMIN, "/v1/admin/usage"));
        assertThat(all.get("tenants").valueStream().map(t -> t.get("tenant").asString()).toList())
                .contains("alpha", "beta");
        assertThat(get(b, "/v1/usage?from=2026-13-01").statusCode()).isEqualTo(400);
        assertThat(get(b, "/v1/usage?from=%2B9999999-01-01&to=%2B9999999-01-02").body()).as("a 500 on PostgreSQL")
                .contains("is not a date");
        assertThat(get(b, "/v1/usage?from=2026-12-31&to=2026-12-01").body()).contains("from");
        // 'to' alone: from the first of its month, not of this one (refused as after a 'from' never sent).
        assertThat(get(b, "/v1/usage?to=2024-12-31").body()).contains("\"from\":\"2024-12-01\"");
        assertThat(get(b, "/v1/usage?from=1900-01-01&to=2026-12-01").statusCode()).isEqualTo(400);
    }

    private static long searches(JsonNode report) {
        return report.get("usage").valueStream().filter(u -> u.get("metric").asString().equals("searches"))
                .mapToLong(u -> u.get("amount").asLong()).sum();
    }

    @Test
    void quotas_are_set_by_the_operator_and_hold_each_tenant_alone() {
        try {
            assertThat(put(b, "/v1/admin/tenants/beta/quotas", "{\"searches_per_minute\": 1}").statusCode())
                    .as("a tenant cannot set its own").isEqualTo(403);
            HttpResponse<String> set = put(ADMIN, "/v1/admin/tenants/beta/quotas", "{\"searches_per_minute\": 1}");
            assertThat(set.statusCode()).isEqualTo(200);
            assertThat(json(set).get("searches_per_minute").asInt()).isEqualTo(1);
            assertThat(json(set).get("documents").isNull()).isTrue();
            get(b, "/v1/search?q=radium");
            HttpResponse<String> refused = get(b, "/v1/search?q=radium");
            assertThat(refused.statusCode()).isEqualTo(429);
            assertThat(refused.headers().firstValue("Content-Type")).contains("application/problem+json");
            assertThat(refused.body()).contains("searches_per_minute");
            assertThat(Long.parseLong(refused.headers().firstValue("Retry-After").orElseThrow())).isBetween(1L, 60L);
            HttpResponse<String> streamed = post(b, "/v1/query", "{\"query\": \"radium\", \"stream\": true}");
            assertThat(streamed.statusCode()).as("refused before any event: a 429, not a 200 stream").isEqualTo(429);
            assertThat(streamed.headers().firstValue("Retry-After")).isPresent();
            assertThat(post(b, "/v1/chat/completions", "{\"model\": \"polyrag\", \"stream\": true, \"messages\": "
                    + "[{\"role\": \"user\", \"content\": \"radium\"}]}").statusCode()).isEqualTo(429);
            assertThat(get(a, "/v1/search?q=radium").statusCode()).as("A has no quota").isEqualTo(200);
            assertThat(json(get(b, "/v1/usage")).get("quotas").get("searches_per_minute").asInt()).isEqualTo(1);
            // An evaluation searches once for each judged query (at most a whole minute's worth): none is left of
            // this minute's one.
            String bDoc = json(get(b, "/v1/documents?kb=lab")).get("documents").get(0).get("id").asString();
            assertThat(post(b, "/v1/knowledge-bases/lab/judgments", "{\"judgments\": [{\"query_id\": \"q1\", "
                    + "\"query\": \"radium\", \"relevant\": {\"" + bDoc + "\": 1}}, {\"query_id\": \"q2\", \"query\": "
                    + "\"curie\", \"relevant\": {\"" + bDoc + "\": 1}}]}").statusCode()).isEqualTo(200);
            try {
                HttpResponse<String> evaluation = get(b, "/v1/knowledge-bases/lab/evaluation");
                assertThat(evaluation.statusCode()).as(evaluation.body()).isEqualTo(429);
                assertThat(evaluation.body()).contains("searches_per_minute").contains("2 judged queries")
                        .contains("retry in");
                assertThat(evaluation.headers().firstValue("Retry-After")).isPresent();
            } finally {
                delete(b, "/v1/knowledge-bases/lab/judgments");
            }

            assertThat(put(ADMIN, "/v1/admin/tenants/beta/quotas", "{\"documents\": 1}").statusCode())
                    .isEqualTo(200);
            HttpResponse<String> full = post(b, "/v1/ingest/text", "{\"text\": \"One more note on tides.\"}");
            assertThat(full.statusCode()).isEqualTo(413);
            assertThat(full.body()).contains("quota documents");
            assertThat(get(b, "/v1/search?q=radium").statusCode()).as("searches no longer limited").isEqualTo(200);
            assertThat(post(a, "/v1/ingest/text", "{\"text\": \"Alpha may still add notes.\", \"kb\": \"lab2\"}")
                    .statusCode()).isEqualTo(200);

            HttpResponse<String> negative = put(ADMIN, "/v1/admin/tenants/beta/quotas", "{\"documents\": -5}");
            assertThat(negative.statusCode()).isEqualTo(400);
            assertThat(negative.body()).contains("documents");
            assertThat(put(ADMIN, "/v1/admin/tenants/beta/quotas", "{\"nope\": 1}").statusCode()).isEqualTo(400);
            assertThat(put(ADMIN, "/v1/admin/tenants/beta/quotas", "[1]").statusCode()).isEqualTo(400);
            assertThat(put(ADMIN, "/v1/admin/tenants/Bad%21/quotas", "{}").statusCode()).isEqualTo(400);
            assertThat(json(get(ADMIN, "/v1/admin/tenants/beta/quotas")).get("documents").asLong()).isEqualTo(1);
        } finally {
            assertThat(delete(ADMIN, "/v1/admin/tenants/beta/quotas").statusCode()).isEqualTo(204);
        }
        assertThat(json(get(ADMIN, "/v1/admin/tenants/beta/quotas")).get("documents").isNull()).isTrue();
        assertThat(post(b, "/v1/ingest/text", "{\"text\": \"Beta may add notes again.\", \"kb\": \"lab\"}")
                .statusCode()).isEqualTo(200);
    }

    @Test
    void another_tenants_ids_are_not_found() {
        assertThat(get(b, "/v1/jobs/" + aJob).statusCode()).isEqualTo(404);
        assertThat(delete(b, "/v1/documents/" + aDocument).statusCode()).isEqualTo(404);
        assertThat(post(b, "/v1/ingest/staged", "{\"ids\": [\"" + aStaged + "\"]}").statusCode()).isEqualTo(404);
        assertThat(delete(b, "/v1/ingest/staged/" + aStaged).statusCode()).isEqualTo(404);
        assertThat(get(b, "/v1/graph/entities/" + enc("quillon vantablack").replace("+", "%20") + "/neighbours")
                .statusCode()).isEqualTo(404);
        assertThat(get(b, "/v1/graph/entities/" + enc("alpha/quillon vantablack").replace("+", "%20")
                + "/neighbours").statusCode()).as("a namespace in an id reaches nothing").isEqualTo(404);
        String aUpload = io.polyrag.core.model.Ids.documentId("alpha/lab", "upload:vantablack.md");
        assertThat(get(a, "/v1/documents/" + aUpload + "/content").body()).contains("zanzibarquartz");
        assertThat(get(b, "/v1/documents/" + aUpload + "/content").statusCode()).isEqualTo(404);
        assertThat(get(b, "/v1/documents/" + aUpload).statusCode()).isEqualTo(404);
        assertThat(get(b, "/v1/documents/" + aDocument).statusCode()).isEqualTo(404);
        assertThat(get(a, "/v1/documents/" + aFigures + "/figures/1").statusCode()).isEqualTo(200);
        assertThat(get(b, "/v1/documents/" + aFigures + "/figures/1").statusCode()).as("another tenant's figure")
                .isEqualTo(404);
        // A's document is still there for A.
        assertThat(json(get(a, "/v1/documents?kb=lab")).get("documents").get(0).get("id").asString())
                .isEqualTo(aDocument);
        assertThat(get(a, "/v1/jobs/" + aJob).statusCode()).isEqualTo(200);
    }

    @Test
    void knowledge_bases_are_per_tenant_resources_with_counts() {
        HttpResponse<String> created = post(b, "/v1/knowledge-bases", "{\"name\": \"scratch\", \"description\": "
                + "\"temporary notes\"}");
        assertThat(created.statusCode()).isEqualTo(201);
        assertThat(created.headers().firstValue("Location")).contains("/v1/knowledge-bases/scratch");
        assertThat(post(b, "/v1/knowledge-bases", "{\"name\": \"scratch\"}").statusCode()).isEqualTo(409);
        assertThat(post(b, "/v1/knowledge-bases", "{\"name\": \"../lab\"}").statusCode()).isEqualTo(400);
        assertThat(post(b, "/v1/ingest/text", "{\"text\": \"Scratch pad about tides.\", \"kb\": \"scratch\"}")
                .statusCode()).isEqualTo(200);
        JsonNode one = json(get(b, "/v1/knowledge-bases/scratch"));
        assertThat(one.get("description").asString()).isEqualTo("temporary notes");
        assertThat(one.get("documents").asLong()).isEqualTo(1);
        assertThat(one.get("chunks").asLong()).isPositive();
        assertThat(json(get(b, "/v1/knowledge-bases")).get("knowledge_bases").toString()).contains("\"scratch\"")
                .contains("\"lab\"").doesNotContain("alpha");
        assertThat(json(get(a, "/v1/knowledge-bases")).get("knowledge_bases").toString())
                .doesNotContain("scratch");
        assertThat(get(a, "/v1/knowledge-bases/scratch").statusCode()).as("B's is not A's").isEqualTo(404);
        assertThat(delete(a, "/v1/knowledge-bases/scratch").statusCode()).isEqualTo(404);
        assertThat(delete(b, "/v1/knowledge-bases/scratch").statusCode()).isEqualTo(204);
        assertThat(get(b, "/v1/knowledge-bases/scratch").statusCode()).isEqualTo(404);
        assertThat(json(get(b, "/v1/search?q=tides&modalities=fulltext")).get("hits")).isEmpty();
        assertThat(json(get(a, "/v1/knowledge-bases/lab")).get("documents").asLong()).as("two notes and a report")
                .isEqualTo(3);
    }

    @Test
    void a_missing_wrong_or_revoked_key_is_one_uniform_401() {
        List<HttpResponse<String>> denied = List.of(get(null, "/v1/search?q=x"), get("prk_nonsense", "/v1/search?q=x"),
                get(aRevoked, "/v1/search?q=x"), get(a.substring(0, a.length() - 2) + "xx", "/v1/documents"),
                send(HttpRequest.newBuilder(uri("/v1/documents")).header("Authorization", "Basic " + a)));
        for (HttpResponse<String> r : denied) {
            assertThat(r.statusCode()).isEqualTo(401);
            assertThat(r.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/problem+json");
            assertThat(r.headers().firstValue("WWW-Authenticate")).isPresent();
            assertThat(json(r).get("detail").asString()).isEqualTo(Auth.UNAUTHORIZED);
        }
        assertThat(send(HttpRequest.newBuilder(uri("/v1/documents")).header("X-Api-Key", b)).statusCode())
                .isEqualTo(200);
    }

    @Test
    void keys_are_managed_behind_the_operator_key_and_health_says_nothing_about_volumes() {
        assertThat(get(b, "/v1/admin/keys").statusCode()).isEqualTo(403);
        assertThat(get(null, "/v1/admin/check").statusCode()).isEqualTo(401);
        JsonNode created = json(post(ADMIN, "/v1/admin/keys", "{\"tenant\": \"gamma\", \"name\": \"ci\"}"));
        String gamma = created.get("key").asString();
        assertThat(get(gamma, "/v1/documents").statusCode()).isEqualTo(200);
        assertThat(json(get(gamma, "/v1/documents")).get("documents")).isEmpty();
        JsonNode list = json(get(ADMIN, "/v1/admin/keys"));
        assertThat(list.toString()).doesNotContain(gamma).doesNotContain(a).contains("gamma");
        assertThat(delete(ADMIN, "/v1/admin/keys/" + created.get("id").asString()).statusCode()).isEqualTo(204);
        assertThat(get(gamma, "/v1/documents").statusCode()).isEqualTo(401);
        assertThat(post(ADMIN, "/v1/admin/keys", "{\"tenant\": \"../etc\"}").statusCode()).isEqualTo(400);
        JsonNode health = json(get(null, "/health"));
        assertThat(health.get("status").asString()).isEqualTo("ok");
        assertThat(health.get("auth").asString()).isEqualTo("keys");
        assertThat(health.get("documents").isNull()).isTrue();
    }

    @Test
    void local_mode_refuses_a_non_loopback_address_and_failed_keys_are_rate_limited() {
        try (Polyrag local = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("local").toString(),
                "vector.enabled", "false", "http.auth.failures.per.minute", "3")))) {
            assertThatThrownBy(() -> new RestServer(local, "0.0.0.0", 0, 1024))
                    .hasMessageContaining("without API keys").hasMessageContaining("polyrag keys create");
            String delta = local.keys().create("delta", null).key();
            RestServer limited = new RestServer(local, "127.0.0.1", 0, 1024);
            try {
                URI u = URI.create("http://127.0.0.1:" + limited.port() + "/v1/documents");
                List<Integer> codes = new ArrayList<>();
                for (int i = 0; i < 5; i++) {
                    codes.add(send(HttpRequest.newBuilder(u).header("X-Api-Key", "prk_guess" + i)).statusCode());
                }
                assertThat(codes).containsExactly(401, 401, 401, 429, 429);
                assertThat(send(HttpRequest.newBuilder(u).header("X-Api-Key", delta)).statusCode())
                        .as("a valid key from the throttled address still gets in").isEqualTo(200);
                assertThat(send(HttpRequest.newBuilder(u).header("X-Api-Key", "prk_guess9")
                        .header("X-Forwarded-For", "203.0.113.9")).statusCode())
                        .as("with no trusted proxy, X-Forwarded-For is anyone's to write: ignored").isEqualTo(429);
            } finally {
                limited.close();
            }
        }
    }

    @Test
    void a_server_bound_beyond_loopback_stays_keyed_after_its_last_key_is_revoked() {
        try (Polyrag p = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("wide").toString(),
                "vector.enabled", "false", "http.admin.key", "operator-key-7-abc", "http.auth.failures.per.minute",
                "3")))) {
            var only = p.keys().create("delta", null);
            RestServer wide = new RestServer(p, "0.0.0.0", 0, 1024);
            try {
                String base = "http://127.0.0.1:" + wide.port();
                assertThat(send(HttpRequest.newBuilder(URI.create(base + "/v1/admin/keys/" + only.info().id()))
                        .header("X-Api-Key", "operator-key-7-abc").DELETE()).statusCode()).isEqualTo(204);
                assertThat(send(HttpRequest.newBuilder(URI.create(base + "/v1/documents"))).statusCode())
                        .as("no key, every key revoked: still refused, not local mode").isEqualTo(401);
                assertThat(send(HttpRequest.newBuilder(URI.create(base + "/v1/admin/keys")).header("Content-Type",
                        "application/json").POST(HttpRequest.BodyPublishers.ofString("{\"tenant\": \"mallory\"}")))
                        .statusCode()).isEqualTo(401);
                assertThat(json(send(HttpRequest.newBuilder(URI.create(base + "/health")))).get("auth").asString())
                        .isEqualTo("keys");
                assertThat(send(HttpRequest.newBuilder(URI.create(base + "/v1/admin/keys")).header("X-Api-Key",
                        "operator-key-7-abc")).statusCode()).as("the operator key still gets in").isEqualTo(200);
                for (int i = 0; i < 3; i++) {
                    send(HttpRequest.newBuilder(URI.create(base + "/v1/documents")).header("X-Api-Key", "prk_stale"));
                }
                assertThat(send(HttpRequest.newBuilder(URI.create(base + "/v1/documents")).header("X-Api-Key",
                        "prk_stale")).statusCode()).as("tenant routes: this address is throttled").isEqualTo(429);
                assertThat(send(HttpRequest.newBuilder(URI.create(base + "/metrics")).header("X-Api-Key",
                        "operator-key-7-abc")).statusCode()).as("tenants' failures from a shared address do not lock "
                        + "the operator out").isEqualTo(200);
                for (int i = 0; i < 2; i++) {
                    assertThat(send(HttpRequest.newBuilder(URI.create(base + "/v1/admin/keys")).header("X-Api-Key",
                            "operator-key-8")).statusCode()).isEqualTo(401);
                }
                assertThat(send(HttpRequest.newBuilder(URI.create(base + "/v1/admin/keys")).header("X-Api-Key",
                        "operator-key-7-abc")).statusCode())
                        .as("a throttled address cannot go on guessing the operator key").isEqualTo(429);
                assertThat(p.keys().list()).noneMatch(k -> k.tenant().equals("mallory"));
            } finally {
                wide.close();
            }
        }
    }

    @Test
    void behind_a_trusted_proxy_failures_are_counted_per_forwarded_client() {
        try (Polyrag local = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("proxied").toString(),
                "vector.enabled", "false", "http.auth.failures.per.minute", "2",
                "http.trusted.proxies", "127.0.0.0/8, ::1")))) {
            String key = local.keys().create("delta", null).key();
            RestServer server = new RestServer(local, "127.0.0.1", 0, 1024);
            try {
                URI u = URI.create("http://127.0.0.1:" + server.port() + "/v1/documents");
                List<Integer> attacker = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    attacker.add(send(HttpRequest.newBuilder(u).header("X-Api-Key", "prk_guess" + i)
                            .header("X-Forwarded-For", "198.51.100.7, 10.0.0.1").header("X-Forwarded-For",
                                    "127.0.0.1")).statusCode());
                }
                assertThat(attacker).containsExactly(401, 401, 429, 429);
                // Forwarded with a port (Azure's gateway): one client, however many connections.
                List<Integer> ported = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    ported.add(send(HttpRequest.newBuilder(u).header("X-Api-Key", "prk_guess" + i)
                            .header("X-Forwarded-For", "203.0.113.5:" + (40000 + i))).statusCode());
                }
                assertThat(ported).containsExactly(401, 401, 429, 429);
                assertThat(send(HttpRequest.newBuilder(u).header("X-Api-Key", "prk_typo")
                        .header("X-Forwarded-For", "198.51.100.8")).statusCode())
                        .as("another client behind the same proxy is not the attacker").isEqualTo(401);
                assertThat(send(HttpRequest.newBuilder(u).header("X-Api-Key", key)
                        .header("X-Forwarded-For", "198.51.100.7, 10.0.0.1")).statusCode()).isEqualTo(200);
            } finally {
                server.close();
            }
        }
        try (Polyrag bad = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("bad-proxy").toString(),
                "vector.enabled", "false", "http.trusted.proxies", "10.0.0.0/99")))) {
            assertThatThrownBy(() -> new RestServer(bad, "127.0.0.1", 0, 1024))
                    .hasMessageContaining("POLYRAG_HTTP_TRUSTED_PROXIES").hasMessageContaining("10.0.0.0/99");
        }
    }

    private JsonNode upload(String key, String path, String name, String content) {
        TestHttp.Multipart m = TestHttp.multipart("files", name, content, Map.of("kb", "lab"));
        HttpResponse<String> r = send(auth(HttpRequest.newBuilder(uri(path)), key)
                .header("Content-Type", m.contentType()).POST(m.publisher()));
        assertThat(r.statusCode()).as(r.body()).isIn(200, 202);
        return json(r);
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }

    private static HttpRequest.Builder auth(HttpRequest.Builder b, String key) {
        return key == null ? b : b.header("Authorization", "Bearer " + key);
    }

    private HttpResponse<String> get(String key, String path) {
        return send(auth(HttpRequest.newBuilder(uri(path)), key).GET());
    }

    private HttpResponse<String> delete(String key, String path) {
        return send(auth(HttpRequest.newBuilder(uri(path)), key).DELETE());
    }

    private HttpResponse<String> put(String key, String path, String json) {
        return send(auth(HttpRequest.newBuilder(uri(path)), key).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(json)));
    }

    private HttpResponse<String> post(String key, String path, String json) {
        return send(auth(HttpRequest.newBuilder(uri(path)), key).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    private HttpResponse<String> send(HttpRequest.Builder b) {
        return TestHttp.send(http, b);
    }

    private static JsonNode json(HttpResponse<String> r) {
        return Json.MAPPER.readTree(r.body());
    }
}
