package io.polyrag.server;

import io.polyrag.app.Json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.polyrag.app.Polyrag;
import io.polyrag.core.config.Config;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/** The REST API over a real socket, on the embedded default stack. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RestServerTest {
    @TempDir
    static Path tmp;

    private Polyrag polyrag;
    private RestServer server;
    private RestServer tiny;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    void start() {
        polyrag = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("data").toString(),
                "graph.enabled", "true", "rdf.enabled", "true", "http.cors.origins", "https://app.example.com")));
        server = new RestServer(polyrag, "127.0.0.1", 0, 8L * 1024 * 1024);
        tiny = new RestServer(polyrag, "127.0.0.1", 0, 1024);
        post("/v1/ingest/text", """
                {"text": "# Narwhals\\n\\nThe narwhal tusk is an elongated canine tooth that can reach three metres.",
                 "format": "markdown", "kb": "sea"}""");
        post("/v1/ingest/text", """
                {"text": "Beekeepers harvest honey in late summer after the nectar flow.", "title": "Bees"}""");
    }

    @AfterAll
    void stop() {
        tiny.close();
        server.close();
        polyrag.close();
    }

    private static HttpResponse<String> alone(HttpRequest.Builder b) {
        try (HttpClient own = HttpClient.newHttpClient()) {
            return own.send(b.timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (java.io.IOException | InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    private HttpResponse<String> send(HttpRequest.Builder b) {
        try {
            return http.send(b.timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException | InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }

    private HttpResponse<String> get(String path) {
        return send(HttpRequest.newBuilder(uri(path)));
    }

    private HttpResponse<String> post(String path, String json) {
        return send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    private static JsonNode json(HttpResponse<String> r) {
        return Json.MAPPER.readTree(r.body());
    }

    @Test
    void a_follow_up_in_a_conversation_is_retrieved_with_what_the_earlier_turns_named() {
        assertThat(post("/v1/ingest/text", "{\"text\": \"Mix the levain the evening before. After about twelve hours "
                + "the levain is bubbly. Bake the loaf at 250 degrees for forty minutes.\", \"title\": \"Levain\", "
                + "\"kb\": \"kitchen\"}").statusCode()).isEqualTo(200);
        assertThat(post("/v1/ingest/text", "{\"text\": \"The greenhouse heater keeps the temperature at eighteen "
                + "degrees at night, and the vents open on warm days.\", \"title\": "
                + "\"Greenhouse\", \"kb\": \"kitchen\"}").statusCode()).isEqualTo(200);
        // Alone, the follow-up is about temperature in general.
        JsonNode alone = json(post("/v1/query", """
                {"query": "And at what temperature?", "kb": "kitchen", "top_k": 1}"""));
        assertThat(alone.get("sources").get(0).get("title").asString()).isEqualTo("Greenhouse");
        assertThat(alone.get("rewritten_query").isNull()).isTrue();
        // After the levain question, it is about the levain: the OpenAI shape of a conversation.
        HttpResponse<String> r = post("/v1/query", """
                {"messages": [{"role": "user", "content": "How long does the levain ferment?"},
                              {"role": "assistant", "content": "After about twelve hours. [1]"},
                              {"role": "user", "content": "And at what temperature?"}], "kb": "kitchen", "top_k": 1}""");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode followUp = json(r);
        assertThat(followUp.get("query").asString()).isEqualTo("And at what temperature?");
        assertThat(followUp.get("rewritten_query").asString()).contains("levain");
        assertThat(followUp.get("sources").get(0).get("title").asString()).isEqualTo("Levain");
        // The OpenAI-compatible route uses the history it is given the same way.
        JsonNode chat = json(post("/v1/chat/completions", """
                {"model": "polyrag/kitchen", "messages": [{"role": "user", "content": "How long does the levain \
                ferment?"}, {"role": "user", "content": "And at what temperature?"}]}"""));
        assertThat(chat.get("sources").get(0).get("title").asString()).isEqualTo("Levain");
        assertThat(chat.get("warnings").isArray()).as("as /v1/query says them: %s", chat).isTrue();
        assertThat(chat.get("degraded").isArray()).isTrue();
        assertProblem(post("/v1/query", "{\"messages\": [{\"role\": \"assistant\", \"content\": \"hi\"}]}"), 400,
                "field 'query' is missing");
        assertProblem(post("/v1/query", """
                {"messages": [{"role": "user", "content": "hi"}, {"role": "user", "content": [{"type": "image_url",
                 "image_url": {"url": "https://example.com/a.png"}}]}, {"role": "assistant", "content": "?"}]}"""),
                400, "messages[1].content holds no text");
        // The whole OpenAI shape: content as parts, a name, an assistant turn that called a tool.
        HttpResponse<String> parts = post("/v1/query", """
                {"messages": [{"role": "system", "content": "Be brief."},
                              {"role": "user", "name": "ana", "content": [{"type": "text", "text": "How long does \
                the levain ferment?"}]},
                              {"role": "assistant", "content": null, "tool_calls": [{"id": "t1", "type": "function",
                               "function": {"name": "x", "arguments": "{}"}}]},
                              {"role": "tool", "tool_call_id": "t1", "content": "nothing"},
                              {"role": "user", "content": [{"type": "text", "text": "And at what temperature?"}]}],
                 "kb": "kitchen", "top_k": 1}""");
        assertThat(parts.statusCode()).as(parts.body()).isEqualTo(200);
        assertThat(json(parts).get("rewritten_query").asString()).contains("levain");

        // Kept on the server: the second question of conversation "bake-1" leans on the first, and is asked in the
        // knowledge base the first was (another one holds a closer match).
        assertThat(post("/v1/ingest/text", "{\"text\": \"Levain temperature log: the levain ferments at 26 degrees "
                + "in the other bakery.\", \"title\": \"Other levain\", \"kb\": \"elsewhere\"}").statusCode())
                .isEqualTo(200);
        JsonNode first = json(post("/v1/query", """
                {"query": "How long does the levain ferment?", "conversation_id": "bake-1", "kb": "kitchen"}"""));
        assertThat(first.get("conversation_id").asString()).isEqualTo("bake-1");
        JsonNode second = json(post("/v1/query", """
                {"query": "And at what temperature?", "conversation_id": "bake-1", "top_k": 1}"""));
        assertThat(second.get("rewritten_query").asString()).contains("levain");
        assertThat(second.get("sources").get(0).get("title").asString()).isEqualTo("Levain");
        assertThat(second.get("sources").findValuesAsString("knowledge_base")).containsOnly("kitchen");
        JsonNode listed = json(get("/v1/conversations"));
        assertThat(listed.get("conversations").findValuesAsString("id")).contains("bake-1");
        JsonNode kept = json(get("/v1/conversations/bake-1"));
        assertThat(kept.get("turns").asInt()).isEqualTo(2);
        assertThat(kept.get("title").asString()).isEqualTo("How long does the levain ferment?");
        assertThat(kept.get("messages").findValuesAsString("role")).containsExactly("user", "assistant", "user",
                "assistant");
        assertThat(kept.get("messages").get(2).get("scope").get("kb").get(0).asString()).isEqualTo("kitchen");
        // A blank name in the list is no knowledge base (the search drops it): a later question inheriting it
        // was told the conversation's knowledge base had been deleted.
        assertThat(post("/v1/query", "{\"query\": \"How long does the levain ferment?\", \"conversation_id\": "
                + "\"blank-kb\", \"kb\": [\"\"]}").statusCode()).isEqualTo(200);
        HttpResponse<String> inherited = post("/v1/query", "{\"query\": \"And at what temperature?\", "
                + "\"conversation_id\": \"blank-kb\"}");
        assertThat(inherited.statusCode()).as(inherited.body()).isEqualTo(200);
        // "kb": [] widens it again: all of the caller's knowledge bases, and later questions stay there.
        String other = "At what temperature does the levain ferment in the other bakery?";
        JsonNode wide = json(post("/v1/query", "{\"query\": \"" + other + "\", \"conversation_id\": \"bake-2\", "
                + "\"kb\": \"kitchen\"}"));
        assertThat(wide.get("sources").findValuesAsString("knowledge_base")).containsOnly("kitchen");
        wide = json(post("/v1/query", "{\"query\": \"" + other + "\", \"conversation_id\": \"bake-2\", "
                + "\"kb\": []}"));
        assertThat(wide.get("sources").findValuesAsString("knowledge_base")).contains("elsewhere");
        wide = json(post("/v1/query", "{\"query\": \"" + other + "\", \"conversation_id\": \"bake-2\"}"));
        assertThat(wide.get("sources").findValuesAsString("knowledge_base")).contains("elsewhere");
        // A client that resends the whole transcript with the id (as OpenAI clients do) adds only its new turn.
        json(post("/v1/query", """
                {"messages": [{"role": "user", "content": "How long does the levain ferment?"},
                {"role": "assistant", "content": "About twelve hours."},
                {"role": "user", "content": "And at what temperature?"},
                {"role": "assistant", "content": "At 24 degrees."},
                {"role": "user", "content": "Can it rest overnight?"}], "conversation_id": "bake-1", "kb": "kitchen"}                """));
        kept = json(get("/v1/conversations/bake-1"));
        assertThat(kept.get("turns").asInt()).isEqualTo(3);
        assertThat(kept.get("messages").findValuesAsString("content")).filteredOn(c -> c.contains("levain ferment"))
                .hasSize(1);
        assertThat(send(HttpRequest.newBuilder(uri("/v1/conversations/bake-1")).DELETE()).statusCode()).isEqualTo(204);
        assertProblem(get("/v1/conversations/bake-1"), 404, "no conversation 'bake-1'");
        assertProblem(post("/v1/query", "{\"query\": \"x\", \"conversation_id\": \"../etc\"}"), 400,
                "conversation_id");
        // Its knowledge base deleted since, a conversation's next question is answered by a 404 naming the
        // conversation (it was one naming a knowledge base the request never sent); a "kb" sent goes on.
        json(post("/v1/query", "{\"query\": \"" + other + "\", \"conversation_id\": \"bake-3\", "
                + "\"kb\": \"elsewhere\"}"));
        assertThat(send(HttpRequest.newBuilder(uri("/v1/knowledge-bases/elsewhere")).DELETE()).statusCode())
                .isIn(200, 202, 204);
        assertProblem(post("/v1/query", "{\"query\": \"And why?\", \"conversation_id\": \"bake-3\"}"), 404,
                "conversation 'bake-3' was asked in knowledge base elsewhere, deleted since");
        assertThat(post("/v1/query", "{\"query\": \"And why?\", \"conversation_id\": \"bake-3\", \"kb\": []}")
                .statusCode()).isEqualTo(200);
        StringBuilder many = new StringBuilder("{\"messages\": [");
        for (int i = 0; i < 201; i++) {
            many.append(i == 0 ? "" : ",").append("{\"role\": \"user\", \"content\": \"q\"}");
        }
        assertProblem(post("/v1/query", many.append("]}").toString()), 400, "at most 200");
    }

    private static void assertProblem(HttpResponse<String> r, int status, String detail) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
        assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t)
                .startsWith("application/problem+json"));
        JsonNode p = json(r);
        assertThat(p.get("status").asInt()).isEqualTo(status);
        assertThat(p.get("detail").asString()).contains(detail);
        assertThat(r.body()).doesNotContain("Exception", "\tat ", "at io.polyrag");
    }

    @Test
    void health_reports_modalities_documents_and_stores() {
        JsonNode h = json(get("/health"));
        assertThat(h.get("status").asString()).isEqualTo("ok");
        assertThat(h.get("modalities").toString()).isEqualTo("[\"vector\",\"fulltext\",\"graph\",\"rdf\"]");
        assertThat(h.get("documents").asLong()).isGreaterThanOrEqualTo(2);
        assertThat(get("/ready").statusCode()).isEqualTo(200);
        assertThat(json(get("/ready")).get("status").asString()).isEqualTo("ready");
        assertThat(json(get("/ready")).get("problems")).isEmpty();
    }

    @Test
    void the_admin_check_compares_every_store_with_the_catalog() {
        JsonNode report = json(get("/v1/admin/check"));
        assertThat(report.get("repaired").asBoolean()).isFalse();
        assertThat(report.get("documents").asLong()).isGreaterThanOrEqualTo(2);
        assertThat(report.get("stores")).hasSize(4);
        report.get("stores").forEach(s -> {
            assertThat(s.get("orphan_versions").asInt()).as(s.toString()).isZero();
            assertThat(s.get("lacking_versions").asInt()).as(s.toString()).isZero();
            assertThat(s.get("records").asLong()).isEqualTo(s.get("expected_records").asLong());
        });
        HttpResponse<String> bad = send(HttpRequest.newBuilder(uri("/v1/admin/check?repair=maybe"))
                .POST(HttpRequest.BodyPublishers.noBody()));
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t)
                .startsWith("application/problem+json"));
        assertThat(json(bad).get("detail").asString()).contains("'repair' must be true or false, was 'maybe'");
        HttpResponse<String> viaGet = get("/v1/admin/check?repair=true");
        assertThat(viaGet.statusCode()).isEqualTo(400);
        assertThat(json(viaGet).get("detail").asString()).contains("POST /v1/admin/check?repair=true");
        HttpResponse<String> repaired = send(HttpRequest.newBuilder(uri("/v1/admin/check?repair=true"))
                .POST(HttpRequest.BodyPublishers.noBody()));
        assertThat(repaired.statusCode()).isEqualTo(200);
        assertThat(json(repaired).get("repaired").asBoolean()).isTrue();
    }

    @Test
    void get_and_post_search_return_the_documented_shape_with_provenance() {
        JsonNode viaGet = json(get("/v1/search?q=" + URLEncoder.encode("narwhal tusk", StandardCharsets.UTF_8)
                + "&top_k=3"));
        JsonNode viaPost = json(post("/v1/search", "{\"query\": \"narwhal tusk\", \"top_k\": 3}"));
        JsonNode oneKb = json(post("/v1/search", "{\"query\": \"narwhal tusk\", \"kb\": \"sea\"}"));
        assertThat(oneKb.get("hits")).isNotEmpty().allSatisfy(h -> assertThat(h.get("knowledge_base").asString())
                .as("kb as one name, not a list").isEqualTo("sea"));
        for (JsonNode r : new JsonNode[] {viaGet, viaPost}) {
            assertThat(r.get("query").asString()).isEqualTo("narwhal tusk");
            assertThat(r.get("took_ms").isNumber()).isTrue();
            assertThat(r.get("degraded").isArray()).isTrue();
            JsonNode hit = r.get("hits").get(0);
            assertThat(hit.get("rank").asInt()).isEqualTo(1);
            assertThat(hit.get("title").asString()).isEqualTo("Narwhals");
            assertThat(hit.get("knowledge_base").asString()).isEqualTo("sea");
            assertThat(hit.get("kind").asString()).isEqualTo("prose");
            for (String field : new String[] {"score", "document_id", "chunk_id", "uri", "text", "location", "heading_path"}) {
                assertThat(hit.has(field)).as(field).isTrue();
            }
            assertThat(hit.get("retrievers").get("fulltext").get("rank").asInt()).isEqualTo(1);
            assertThat(hit.get("retrievers").get("vector").has("score")).isTrue();
        }
        JsonNode onlyBm25 = json(post("/v1/search", "{\"query\": \"honey\", \"modalities\": [\"fulltext\"], "
                + "\"kb\": [\"default\"], \"fusion\": \"weighted\"}"));
        assertThat(onlyBm25.get("hits").get(0).get("title").asString()).isEqualTo("Bees");
        assertThat(onlyBm25.get("modalities").toString()).isEqualTo("[\"fulltext\"]");
    }

    @Test
    void graph_entities_and_neighbours_can_be_browsed() {
        assertThat(post("/v1/ingest/text", """
                {"text": "Marie Curie worked at the Radium Institute in Paris.", "title": "Curie", "kb": "science"}""")
                .statusCode()).isEqualTo(200);
        JsonNode found = json(get("/v1/graph/entities?q=curie"));
        JsonNode curie = found.get("entities").get(0);
        assertThat(curie.get("id").asString()).isEqualTo("marie curie");
        assertThat(curie.get("name").asString()).isEqualTo("Marie Curie");
        assertThat(curie.get("mentions").asLong()).isEqualTo(1);
        JsonNode n = json(get("/v1/graph/entities/" + URLEncoder.encode("marie curie", StandardCharsets.UTF_8)
                .replace("+", "%20") + "/neighbours"));
        assertThat(n.get("neighbours").get(0).get("predicate").asString()).isEqualTo("works_at");
        assertThat(n.get("neighbours").get(0).get("direction").asString()).isEqualTo("out");
        assertThat(n.get("neighbours").get(0).get("entity").get("name").asString())
                .isEqualTo("Radium Institute");
        assertThat(json(get("/v1/graph/entities?q=" + URLEncoder.encode("\"} UNION { ?s ?p ?o }",
                StandardCharsets.UTF_8))).get("entities").isArray()).isTrue();
        assertProblem(get("/v1/graph/entities"), 400, "'q' is required");
        assertProblem(get("/v1/graph/entities?q=" + "x".repeat(300)), 400, "longer than 200");
        assertProblem(get("/v1/graph/entities?q=curie&limit=0"), 400, "limit");
        assertProblem(get("/v1/graph/entities?q=curie&limit=many"), 400, "must be an integer");
        assertProblem(get("/v1/graph/entities?q=%3F%21"), 400, "q is empty");
        assertProblem(get("/v1/graph/entities/nobody/neighbours"), 404, "no entity");
    }

    @Test
    void an_ingest_can_skip_the_graph() {
        JsonNode r = json(post("/v1/ingest/text", """
                {"text": "Grace Hopper worked at Harvard University.", "title": "Hopper", "skip_graph": true}"""));
        assertThat(r.get("added").asInt()).isEqualTo(1);
        assertThat(r.get("relations").asInt()).isZero();
        assertThat(json(get("/v1/graph/entities?q=hopper")).get("entities").size()).isZero();
        assertProblem(post("/v1/ingest/text", """
                {"text": "x", "skip_graph": "perhaps"}"""), 400, "");
    }

    @Test
    void query_answers_with_numbered_cited_sources() {
        JsonNode a = json(post("/v1/query", "{\"query\": \"How long can a narwhal tusk grow?\", \"kb\": [\"sea\"]}"));
        assertThat(a.get("mode").asString()).isEqualTo("extractive");
        assertThat(a.get("answer").asString()).contains("three metres").endsWith("[1]");
        JsonNode source = a.get("sources").get(0);
        assertThat(source.get("number").asInt()).isEqualTo(1);
        assertThat(source.get("title").asString()).isEqualTo("Narwhals");
        assertThat(source.get("passages").get(0).get("hit").asBoolean()).isTrue();
        assertThat(a.get("grounding").isNull()).isTrue();
        JsonNode grounded = json(post("/v1/query", "{\"query\": \"How long can a narwhal tusk grow?\", "
                + "\"grounding\": true}"));
        assertThat(grounded.get("grounding").get(0).get("supported").asBoolean()).isTrue();
        assertThat(grounded.get("grounding").get(0).get("cited").get(0).asInt()).isEqualTo(1);
        assertProblem(post("/v1/query", "{\"query\": \"x\", \"neighbours\": 9}"), 400, "neighbours must be");
        // What the search behind an answer warned of is the answer's too (it was dropped).
        assertThat(a.get("warnings").size()).isZero();
        assertThat(json(post("/v1/query", "{\"query\": \"How long can a narwhal tusk grow?\", \"rerank\": true}"))
                .get("warnings").toString()).contains("no reranker is configured");
        // A query parameter the route does not take, or one given twice, is refused, not ignored.
        assertProblem(get("/v1/documents?limt=5"), 400, "unknown query parameter 'limt': this route takes");
        assertProblem(get("/v1/documents?limit=1&limit=2"), 400, "'limit' is given 2 times");
        assertProblem(get("/v1/documents?kb=default&kb=other"), 400, "'kb' is given 2 times");
        assertThat(get("/v1/search?q=honey&kb=default&kb=default").statusCode()).as("a list here").isEqualTo(200);
        assertProblem(send(HttpRequest.newBuilder(uri("/v1/knowledge-bases/default/judgments?queryId=q1")).DELETE()),
                400, "unknown query parameter 'queryId'");
        assertProblem(post("/v1/query", "{\"query\": \"\"}"), 400, "query is empty");
        assertProblem(post("/v1/query", "{\"question\": \"x\"}"), 400, "unknown field 'question'");
    }

    @Test
    void uploaded_files_are_ingested_by_a_job_whose_progress_can_be_followed() {
        byte[] body = multipart("kb", "uploads", new String[][] {
            {"../../etc/evil.md", "# Evil\n\nThe capybara is the largest living rodent."},
            {"garbage.txt", "\u0000\u0001\u0002\u0003binary"}});
        HttpResponse<String> r = send(HttpRequest.newBuilder(uri("/v1/ingest/files"))
                .header("Content-Type", "multipart/form-data; boundary=XyZ")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
        String location = r.headers().firstValue("Location").orElseThrow();
        assertThat(json(r).get("files").asInt()).isEqualTo(2);
        JsonNode job = await().atMost(Duration.ofSeconds(60)).until(() -> json(get(location)),
                j -> List.of("succeeded", "partial", "failed").contains(j.get("status").asString()));
        assertThat(job.get("status").asString()).as("one of the two files failed").isEqualTo("partial");
        assertThat(job.get("error").asString()).isEqualTo("1 of 2 files failed; the others were indexed (see errors)");
        assertThat(job.get("progress").get("added").asInt()).isEqualTo(1);
        assertThat(job.get("progress").get("failed").asInt()).isEqualTo(1);
        assertThat(job.get("progress").get("errors").get(0).get("reason").asString()).contains("binary");
        JsonNode hit = json(get("/v1/search?q=capybara+rodent&kb=uploads")).get("hits").get(0);
        assertThat(hit.get("uri").asString()).isEqualTo("upload:evil.md");
    }

    /** Two folders' summary.md, sent with their folders: two documents (they were one, the second replacing it). */
    @Test
    void files_sent_with_their_folders_are_documents_of_their_own() {
        byte[] body = multipart("kb", "years", new String[][] {
            {"2023/summary.md", "# 2023\n\nThe ferry ran on diesel that year."},
            {"2024/summary.md", "# 2024\n\nThe ferry ran on batteries that year."}});
        HttpResponse<String> r = send(HttpRequest.newBuilder(uri("/v1/ingest/files"))
                .header("Content-Type", "multipart/form-data; boundary=XyZ")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
        String location = r.headers().firstValue("Location").orElseThrow();
        await().atMost(Duration.ofSeconds(60)).until(() -> json(get(location)).get("status").asString(),
                "succeeded"::equals);
        JsonNode docs = json(get("/v1/documents?kb=years")).get("documents");
        assertThat(docs.findValuesAsString("uri")).containsExactlyInAnyOrder("upload:2023/summary.md",
                "upload:2024/summary.md");
        String id = docs.get(0).get("id").asString();
        HttpResponse<String> original = get("/v1/documents/" + id + "/content");
        assertThat(original.statusCode()).isEqualTo(200);
        assertThat(original.headers().firstValue("Content-Disposition").orElseThrow())
                .contains("filename=\"summary.md\"");
        // The same bytes under another name are left out as a duplicate, and the job says so (it said nothing).
        HttpResponse<String> copy = send(HttpRequest.newBuilder(uri("/v1/ingest/files"))
                .header("Content-Type", "multipart/form-data; boundary=XyZ").POST(HttpRequest.BodyPublishers
                        .ofByteArray(multipart("kb", "years", new String[][] {{"copy.md",
                            "# 2023\n\nThe ferry ran on diesel that year."}}))));
        String copyJob = copy.headers().firstValue("Location").orElseThrow();
        JsonNode done = await().atMost(Duration.ofSeconds(60)).until(() -> json(get(copyJob)),
                j -> "succeeded".equals(j.get("status").asString()));
        assertThat(done.get("progress").get("warnings").toString()).contains("left out as duplicates")
                .contains("upload:2023/summary.md");
    }

    @Test
    void a_refused_upload_leaves_nothing_staged() throws IOException {
        byte[] body = multipart("kb", "Not A Valid KB!", new String[][] {{"a.md", "# A\n\nText."}});
        HttpResponse<String> r = send(HttpRequest.newBuilder(uri("/v1/ingest/files"))
                .header("Content-Type", "multipart/form-data; boundary=XyZ")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)));
        assertProblem(r, 400, "knowledge base name");
        Path staging = polyrag.dataDir().resolve("staging");
        try (var dirs = java.nio.file.Files.list(staging)) {
            assertThat(dirs.filter(d -> java.nio.file.Files.exists(d.resolve("0")))
                    .filter(d -> readQuietly(d.resolve("0")).contains("# A"))).isEmpty();
        }
    }

    private static String readQuietly(Path p) {
        try {
            return java.nio.file.Files.readString(p);
        } catch (IOException e) {
            return "";
        }
    }

    @Test
    void a_malformed_multipart_body_is_a_400() {
        HttpResponse<String> r = send(HttpRequest.newBuilder(uri("/v1/ingest/files"))
                .header("Content-Type", "multipart/form-data; boundary=XyZ")
                .POST(HttpRequest.BodyPublishers.ofString("--XyZ\r\nContent-Disposition: nonsense\r\n\r\ntruncated")));
        assertProblem(r, 400, "malformed request");
    }

    /** A form field is small and given once: each was read whole, and again for each part of its name. */
    @Test
    void an_oversized_or_repeated_form_field_is_refused_before_it_is_read() {
        HttpResponse<String> big = send(HttpRequest.newBuilder(uri("/v1/ingest/upload"))
                .header("Content-Type", "multipart/form-data; boundary=XyZ")
                .POST(HttpRequest.BodyPublishers.ofByteArray(multipart("kb", "k".repeat(64 << 10),
                        new String[][] {{"a.txt", "a note"}}))));
        assertProblem(big, 400, "form field 'kb' holds 65536 bytes");
        ByteArrayOutputStream twice = new ByteArrayOutputStream();
        twice.writeBytes("--XyZ\r\nContent-Disposition: form-data; name=\"kb\"\r\n\r\nother\r\n".getBytes(
                StandardCharsets.UTF_8));
        twice.writeBytes(multipart("kb", "notes", new String[][] {{"a.txt", "a note"}}));
        HttpResponse<String> repeated = send(HttpRequest.newBuilder(uri("/v1/ingest/upload"))
                .header("Content-Type", "multipart/form-data; boundary=XyZ")
                .POST(HttpRequest.BodyPublishers.ofByteArray(twice.toByteArray())));
        assertProblem(repeated, 400, "form field 'kb' is given twice");
        // Categories may be repeated, as many as a document takes.
        ByteArrayOutputStream categories = new ByteArrayOutputStream();
        for (int i = 0; i < 32; i++) {
            categories.writeBytes(("--XyZ\r\nContent-Disposition: form-data; name=\"categories\"\r\n\r\nc" + i
                    + "\r\n").getBytes(StandardCharsets.UTF_8));
        }
        categories.writeBytes(("--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"c.txt\"\r\n"
                + "Content-Type: text/plain\r\n\r\nA note in many categories.\r\n--XyZ--\r\n").getBytes(
                StandardCharsets.UTF_8));
        assertThat(send(HttpRequest.newBuilder(uri("/v1/documents")).header("Content-Type",
                "multipart/form-data; boundary=XyZ").POST(HttpRequest.BodyPublishers.ofByteArray(
                categories.toByteArray()))).statusCode()).isEqualTo(202);
    }

    private static byte[] multipart(String field, String value, String[][] files) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StringBuilder sb = new StringBuilder();
        sb.append("--XyZ\r\nContent-Disposition: form-data; name=\"").append(field).append("\"\r\n\r\n")
                .append(value).append("\r\n");
        out.writeBytes(sb.toString().getBytes(StandardCharsets.UTF_8));
        for (String[] f : files) {
            out.writeBytes(("--XyZ\r\nContent-Disposition: form-data; name=\"files\"; filename=\"" + f[0]
                    + "\"\r\nContent-Type: application/octet-stream\r\n\r\n").getBytes(StandardCharsets.UTF_8));
            out.writeBytes(f[1].getBytes(StandardCharsets.UTF_8));
            out.writeBytes("\r\n".getBytes(StandardCharsets.UTF_8));
        }
        out.writeBytes("--XyZ--\r\n".getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "empty query | {\"query\": \"  \"} | query is empty",
        "missing query | {\"top_k\": 3} | field 'query' is missing",
        "unknown field | {\"query\": \"x\", \"colour\": 1} | unknown field 'colour'; known fields:",
        "wrong type | {\"query\": \"x\", \"top_k\": \"many\"} | field 'top_k' has",
        "malformed JSON | {\"query\": | malformed JSON",
        "trailing garbage | {\"query\": \"x\"} xyz | malformed JSON",
        "not an object | [1, 2] | request body must be a JSON object",
        "json null | null | request body is null",
        "top_k zero | {\"query\": \"x\", \"top_k\": 0} | top_k must be between 1 and",
        "top_k huge | {\"query\": \"x\", \"top_k\": 10000} | was 10000",
        "unknown modality | {\"query\": \"x\", \"modalities\": [\"telepathy\"]} | unknown modality 'telepathy'",
        "unknown fusion | {\"query\": \"x\", \"fusion\": \"magic\"} | unknown fusion method 'magic'",
        "bad kb name | {\"query\": \"x\", \"kb\": [\"../etc\"]} | knowledge base name '../etc' is invalid",
        "top_k as a string | {\"query\": \"x\", \"top_k\": \"3\"} | field 'top_k' has the wrong type: expected an integer",
        "top_k as a fraction | {\"query\": \"x\", \"top_k\": 2.5} | field 'top_k' has the wrong type: expected an integer, got 2.5",
        "query as a number | {\"query\": 42} | field 'query' has the wrong type: expected a string",
        "duplicate key | {\"query\": \"x\", \"query\": \"y\"} | field 'query' appears twice",
        "rrf_k zero | {\"query\": \"x\", \"rrf_k\": 0} | rrf_k must be between 1 and 10000, was 0",
        "rrf_k as a string | {\"query\": \"x\", \"rrf_k\": \"sixty\"} | field 'rrf_k' has the wrong type",
        "negative weight | {\"query\": \"x\", \"weights\": {\"vector\": -1}} | weights.vector must be a number between 0 and 1000, was -1.0",
        "weight of an unknown modality | {\"query\": \"x\", \"weights\": {\"smell\": 1}} | unknown modality 'smell'",
        "null weight | {\"query\": \"x\", \"weights\": {\"vector\": null}} | weights.vector must be a number",
        "weights as a list | {\"query\": \"x\", \"weights\": [1]} | field 'weights' has the wrong type",
        "rerank as a string | {\"query\": \"x\", \"rerank\": \"yes\"} | field 'rerank' has the wrong type",
        "candidates zero | {\"query\": \"x\", \"candidates\": 0} | candidates must be between 1 and 1000 (each leg's depth for this search), was 0",
        "candidates huge | {\"query\": \"x\", \"candidates\": 100000} | candidates must be between 1 and 1000",
        "blend above one | {\"query\": \"x\", \"fulltext_document_weight\": 1.5} | fulltext_document_weight must be a number between 0 (passages alone) and 1 (whole documents alone), was 1.5",
        "blend as a string | {\"query\": \"x\", \"fulltext_document_weight\": \"half\"} | field 'fulltext_document_weight' has the wrong type",
        "vector blend below zero | {\"query\": \"x\", \"vector_document_weight\": -1} | vector_document_weight must be a number between 0 (passages alone) and 1 (whole documents alone), was -1.0",
        "camelCase name | {\"query\": \"x\", \"topK\": 3} | unknown field 'topK'; known fields: candidates, category, document_ids, explain, fulltext_document_weight, fusion, kb, modalities, query, rerank, rrf_k, top_k, vector_document_weight, weights"})
    void bad_search_bodies_get_400_with_a_message(String name, String body, String detail) {
        assertProblem(post("/v1/search", body), 400, detail);
    }

    @Test
    void a_huge_query_is_refused_not_run() {
        assertProblem(post("/v1/search", "{\"query\": \"" + "word ".repeat(1000) + "\"}"), 400, "characters long");
        assertProblem(get("/v1/search?q=x&top_k=abc"), 400, "'top_k' must be an integer");
        assertProblem(get("/v1/search?q=x&fulltext_document_weight=NaN"), 400,
                "query parameter 'fulltext_document_weight' must be a number, was 'NaN'");
        assertProblem(get("/v1/search?q=x&fulltext_document_weight=-0.5"), 400, "fulltext_document_weight must be");
        assertProblem(get("/v1/search?q=x&vector_document_weight=2"), 400, "vector_document_weight must be");
        assertProblem(get("/v1/search?q=x&candidates=5000"), 400, "candidates must be between 1 and 1000");
        assertProblem(get("/v1/search"), 400, "query parameter 'q' is missing");
    }

    @Test
    void routes_methods_media_types_and_sizes_are_policed() {
        assertProblem(get("/v1/nothing-here"), 404, "no route GET /v1/nothing-here");
        assertProblem(get("/v1/jobs/unknown-job"), 404, "no job with id 'unknown-job'");
        assertProblem(send(HttpRequest.newBuilder(uri("/v1/search")).header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString("query=x"))), 415, "application/json");
        assertProblem(post("/v1/ingest/files", "{}"), 415, "multipart/form-data");
        assertProblem(send(HttpRequest.newBuilder(uri("/v1/documents/nope")).DELETE()), 404, "no document");
        HttpResponse<String> big = send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + tiny.port()
                + "/v1/ingest/text")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"text\": \"" + "x".repeat(5000) + "\"}")));
        assertProblem(big, 413, "larger than the limit of 1,024 bytes: raise POLYRAG_HTTP_MAX_REQUEST_MB");
        // The same body sent without a length (chunked), parsed as it comes: refused once past the limit.
        byte[] chunked = ("{\"text\": \"" + "x".repeat(5000) + "\"}").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        assertProblem(send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + tiny.port() + "/v1/ingest/text"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofInputStream(
                        () -> new java.io.ByteArrayInputStream(chunked)))), 413, "larger than the limit of 1,024 bytes");
        HttpResponse<String> bigSearch = send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + tiny.port()
                + "/v1/search")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"query\": \"" + "x ".repeat(2500) + "\"}")));
        assertProblem(bigSearch, 413, "larger than the limit of 1,024 bytes: raise POLYRAG_HTTP_MAX_REQUEST_MB");
        assertProblem(get("/v1/search?query=x"), 400, "unknown query parameter 'query': this route takes");
        assertProblem(post("/v1/ingest/text", "{\"text\": \"\"}"), 400, "text is empty");
        assertProblem(post("/v1/ingest/text", "{\"text\": \"x\", \"format\": \"pdf\"}"), 400, "format 'pdf'");
        // A text with nothing to index once parsed is refused, not a 200 carrying "failed": 1.
        assertProblem(post("/v1/ingest/text", "{\"text\": \"<html><body><script>go()</script></body></html>\", "
                + "\"format\": \"html\"}"), 400, "'text' was not indexed: text.html: no text to index");
    }

    @Test
    void documents_can_be_listed_and_deleted_everywhere() {
        JsonNode page = json(get("/v1/documents?kb=default"));
        String id = page.get("documents").get(0).get("id").asString();
        assertThat(send(HttpRequest.newBuilder(uri("/v1/documents/" + id)).DELETE()).statusCode()).isEqualTo(204);
        assertThat(json(get("/v1/search?q=honey+beekeepers")).get("hits")).noneMatch(h ->
                h.get("document_id").asString().equals(id));
        post("/v1/ingest/text", """
                {"text": "Beekeepers harvest honey in late summer after the nectar flow.", "title": "Bees"}""");
        assertProblem(get("/v1/documents?limit=0"), 400, "limit in [1, 1000]");
    }

    @Test
    void errors_jetty_raises_itself_are_problem_json_too() {
        // Jetty closes the connection after a bad request line: each of these gets a connection of its own.
        assertProblem(alone(HttpRequest.newBuilder(uri("/v1/search?q=" + "a".repeat(9000)))), 414,
                "send a long query in the body of POST /v1/search");
        assertProblem(alone(HttpRequest.newBuilder(uri("/v1/documents/%00")).DELETE()), 400, "malformed request");
        HttpResponse<String> put = send(HttpRequest.newBuilder(uri("/v1/search"))
                .PUT(HttpRequest.BodyPublishers.ofString("{}")));
        assertProblem(put, 405, "method PUT is not allowed on /v1/search");
        assertThat(put.headers().firstValue("Allow")).hasValue("GET, HEAD, POST");
        byte[] body = multipart("kb", "default", new String[][] {{"big.txt", "x".repeat(5000)}});
        HttpResponse<String> bigUpload = send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + tiny.port()
                + "/v1/ingest/files")).header("Content-Type", "multipart/form-data; boundary=XyZ")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)));
        assertProblem(bigUpload, 413, "larger than the limit of 1,024 bytes: raise POLYRAG_HTTP_MAX_REQUEST_MB");
    }

    @Test
    void head_answers_on_get_routes_without_a_body() {
        HttpResponse<String> head = send(HttpRequest.newBuilder(uri("/v1/documents?limit=1"))
                .method("HEAD", HttpRequest.BodyPublishers.noBody()));
        assertThat(head.statusCode()).isEqualTo(200);
        assertThat(head.body()).isEmpty();
        assertThat(head.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t)
                .startsWith("application/json"));
        // Not a search's: it would run and count one only to send nothing.
        HttpResponse<String> search = send(HttpRequest.newBuilder(uri("/v1/search?q=narwhal"))
                .method("HEAD", HttpRequest.BodyPublishers.noBody()));
        assertThat(search.body()).isEmpty();
        assertThat(search.statusCode()).as("the search's handler never ran: 405, GET only").isEqualTo(405);
        assertThat(search.headers().firstValue("Allow")).hasValue("GET");
    }

    @Test
    void every_answer_carries_a_request_id_the_client_may_choose() {
        HttpResponse<String> mine = send(HttpRequest.newBuilder(uri("/health")).header("X-Request-Id", "trace-42"));
        assertThat(mine.headers().firstValue("X-Request-Id")).hasValue("trace-42");
        HttpResponse<String> hostile = send(HttpRequest.newBuilder(uri("/v1/nothing"))
                .header("X-Request-Id", "bad id\twith spaces"));
        assertThat(hostile.statusCode()).isEqualTo(404);
        assertThat(hostile.headers().firstValue("X-Request-Id")).hasValueSatisfying(id -> assertThat(id)
                .matches("[0-9a-f-]{36}"));
    }

    @Test
    void cors_answers_only_the_configured_origin() {
        HttpResponse<String> allowed = send(HttpRequest.newBuilder(uri("/health"))
                .header("Origin", "https://app.example.com"));
        assertThat(allowed.headers().firstValue("Access-Control-Allow-Origin")).hasValue("https://app.example.com");
        HttpResponse<String> other = send(HttpRequest.newBuilder(uri("/health")).header("Origin", "https://evil.test"));
        assertThat(other.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
        // An unlisted origin's request runs and answers as any other (the server's own UI on another origin): the
        // bundled plugin set it to 400 after it had run.
        // (A read: this server is in local mode, which takes no writes from another site's pages.)
        HttpResponse<String> search = send(HttpRequest.newBuilder(uri("/v1/search?q=kelp")).header("Origin",
                "https://ui.example.org"));
        assertThat(search.statusCode()).as(search.body()).isEqualTo(200);
        assertThat(search.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
        HttpResponse<String> listed = send(HttpRequest.newBuilder(uri("/v1/search")).header("Origin",
                "https://app.example.com").header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers
                .ofString("{\"query\": \"kelp\"}")));
        assertThat(listed.statusCode()).isEqualTo(200);
        assertThat(listed.headers().firstValue("Access-Control-Expose-Headers").orElse("")).contains("Retry-After")
                .contains("Location");
    }

    /** A text left out as a duplicate of another document does not answer with that document's id as its own. */
    @Test
    void a_duplicate_text_does_not_answer_with_the_other_documents_id() {
        JsonNode may = json(post("/v1/ingest/text", "{\"text\": \"The harbour office is closed on Monday.\", "
                + "\"uri\": \"notice:may\"}"));
        JsonNode june = json(post("/v1/ingest/text", "{\"text\": \"The harbour office is closed on Monday.\", "
                + "\"uri\": \"notice:june\"}"));
        assertThat(june.get("document_id").isNull()).as(june.toString()).isTrue();
        assertThat(june.get("indexed").get(0).get("outcome").asString()).contains("duplicate of notice:may");
        assertThat(send(HttpRequest.newBuilder(uri("/v1/documents/" + may.get("document_id").asString())).DELETE())
                .statusCode()).isEqualTo(204);
    }

    /** A multipart part without a name is a 400 naming what is missing, not a 500. */
    @Test
    void a_multipart_part_without_a_name_is_a_400() {
        HttpResponse<String> r = send(HttpRequest.newBuilder(uri("/v1/ingest/files")).header("Content-Type",
                "multipart/form-data; boundary=XyZ").POST(HttpRequest.BodyPublishers.ofString("--XyZ\r\n"
                + "Content-Disposition: form-data\r\n\r\nx\r\n--XyZ--\r\n")));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
        assertThat(r.headers().firstValue("Content-Type").orElse("")).contains("problem+json");
    }

    @Test
    void an_ingested_text_answers_with_its_document_id_and_version() {
        JsonNode first = json(post("/v1/ingest/text", "{\"text\": \"Kelp forests shelter otters.\", \"uri\": "
                + "\"note:kelp\"}"));
        String id = first.get("document_id").asString();
        assertThat(id).isNotBlank();
        assertThat(first.get("version").asLong()).isEqualTo(1);
        assertThat(first.get("indexed").get(0).get("outcome").asString()).isEqualTo("added");
        JsonNode second = json(post("/v1/ingest/text", "{\"text\": \"Kelp forests shelter sea otters and urchins.\", "
                + "\"uri\": \"note:kelp\"}"));
        assertThat(second.get("document_id").asString()).isEqualTo(id);
        assertThat(second.get("version").asLong()).isEqualTo(2);
        assertThat(second.get("indexed").get(0).get("outcome").asString()).isEqualTo("updated");
        JsonNode again = json(post("/v1/ingest/text", "{\"text\": \"Kelp forests shelter sea otters and urchins.\", "
                + "\"uri\": \"note:kelp\"}"));
        assertThat(again.get("unchanged").asInt()).isEqualTo(1);
        assertThat(again.get("version").asLong()).isEqualTo(2);
        assertThat(send(HttpRequest.newBuilder(uri("/v1/documents/" + id)).DELETE()).statusCode()).isEqualTo(204);
    }

    @Test
    void download_names_travel_as_utf8_and_answers_are_kept_by_no_shared_cache() throws Exception {
        assertThat(DocumentRoutes.disposition("attachment", "naïve résumé 日本\u007f\"x\".txt")).isEqualTo(
                "attachment; filename=\"na_ve r_sum_ ____x_.txt\"; filename*=UTF-8''na%C3%AFve%20r%C3%A9sum%C3%A9%20"
                        + "%E6%97%A5%E6%9C%AC%7F%22x%22.txt");
        assertThat(get("/v1/documents").headers().firstValue("Cache-Control")).contains("no-store");
    }
}
