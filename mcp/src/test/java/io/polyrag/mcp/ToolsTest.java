package io.polyrag.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a tool answers when no request can be made, or the REST API is not there: the same envelope, never a throw. */
class ToolsTest {
    @Test
    void an_unreachable_backend_is_reported_in_the_envelope_with_the_fix() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Tools tools = new Tools(new Backend(URI.create("http://127.0.0.1:" + port), null, Duration.ofSeconds(5)));
        Tools.Tool search = tools.all().stream().filter(t -> t.name().equals("hybrid_search")).findFirst()
                .orElseThrow();
        Map<String, Object> e = McpServers.call(search, Map.of("query", "lighthouse"));
        assertThat(e).containsOnlyKeys("ok", "tool", "status", "data", "error").containsEntry("ok", false)
                .containsEntry("status", null).containsEntry("data", null);
        assertThat(String.valueOf(e.get("error"))).contains("cannot reach the polyrag REST API").contains("--backend-url");
        Map<String, Object> unknown = McpServers.call(search, Map.of("query", "x", "topk", 3));
        assertThat(String.valueOf(unknown.get("error"))).contains("unknown argument 'topk'");
    }

    @Test
    void top_k_has_the_rest_apis_limit() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Tools tools = new Tools(new Backend(URI.create("http://127.0.0.1:" + port), null, Duration.ofSeconds(5)),
                new Tools.HostFiles(io.polyrag.core.fs.Confinement.NONE, null), 200);
        Tools.Tool search = tools.all().stream().filter(t -> t.name().equals("hybrid_search")).findFirst()
                .orElseThrow();
        assertThat(search.inputSchema()).contains("1-200");
        assertThat(search.inputSchema()).contains("POLYRAG_SEARCH_TOP_K").doesNotContain("default 8");
        // 150 passes the adapter (the REST API allows up to 200): what fails is reaching the backend.
        assertThat(String.valueOf(McpServers.call(search, Map.of("query", "x", "top_k", 150)).get("error")))
                .contains("cannot reach the polyrag REST API");
        assertThat(String.valueOf(McpServers.call(search, Map.of("query", "x", "top_k", 201)).get("error")))
                .contains("top_k").contains("200");
    }

    /**
     * Every argument has one JSON type: clients that hand MCP schemas to Gemini (which takes one type a property)
     * refused every tool of a server with a list of types. The other forms are still read (as a string).
     */
    @Test
    void every_argument_declares_one_type_and_its_string_forms_still_work() throws Exception {
        Tools tools = new Tools(new Backend(URI.create("http://127.0.0.1:1"), null, Duration.ofSeconds(1)),
                new Tools.HostFiles(io.polyrag.core.fs.Confinement.NONE, null), 200);
        var json = Args.JSON;
        for (Tools.Tool t : tools.all()) {
            json.readTree(t.inputSchema()).path("properties").properties().forEach(p -> {
                assertThat(p.getValue().path("type").isString()).as(t.name() + "." + p.getKey()).isTrue();
                if (p.getValue().path("type").asString().equals("object")) {
                    // Gemini refuses an object without properties too.
                    assertThat(p.getValue().path("properties").size()).as(t.name() + "." + p.getKey()).isPositive();
                }
            });
        }
        Tools.Tool search = tools.all().stream().filter(t -> t.name().equals("hybrid_search")).findFirst()
                .orElseThrow();
        assertThat(String.valueOf(McpServers.call(search, Map.of("query", "x", "top_k", "5", "knowledge_base",
                "a,b")).get("error"))).as("read, then the backend is away").contains("cannot reach");
    }

    @Test
    void a_server_that_accepts_but_never_answers_times_out_once_and_says_so() throws Exception {
        try (ServerSocket silent = new ServerSocket(0)) {
            Tools tools = new Tools(new Backend(URI.create("http://127.0.0.1:" + silent.getLocalPort()), null,
                    Duration.ofMillis(500)));
            Tools.Tool health = tools.all().getFirst();
            Map<String, Object> e = McpServers.call(health, Map.of());
            assertThat(e.get("ok")).isEqualTo(false);
            assertThat(String.valueOf(e.get("error"))).contains("did not answer").contains("not repeated");
        }
    }

    /** A backend that sends its headers and then nothing is given up at the timeout: the body is within it too. */
    @Test
    void a_server_that_stalls_after_its_headers_times_out() throws Exception {
        try (ServerSocket stalling = new ServerSocket(0)) {
            Thread server = Thread.ofVirtual().start(() -> {
                try (var socket = stalling.accept()) {
                    socket.getOutputStream().write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                            + "Content-Length: 1000\r\n\r\n{").getBytes());
                    socket.getOutputStream().flush();
                    Thread.sleep(30_000);
                } catch (Exception e) {
                    // closed by the test's end
                }
            });
            Tools tools = new Tools(new Backend(URI.create("http://127.0.0.1:" + stalling.getLocalPort()), null,
                    Duration.ofMillis(800)));
            Map<String, Object> e = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(10),
                    () -> McpServers.call(tools.all().getFirst(), Map.of()));
            assertThat(e.get("ok")).isEqualTo(false);
            assertThat(String.valueOf(e.get("error"))).contains("did not answer");
            server.interrupt();
        }
    }

    /** A search's warnings reach the agent, and so do the sources of an answer whose model failed. */
    @Test
    void warnings_and_a_failed_answers_sources_reach_the_agent() throws Exception {
        com.sun.net.httpserver.HttpServer rest = rest();
        java.util.List<String> searched = new java.util.concurrent.CopyOnWriteArrayList<>();
        rest.createContext("/v1/search", ex -> {
            searched.add(new String(ex.getRequestBody().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
            byte[] b = ("{\"query\": \"q\", \"took_ms\": 1, \"modalities\": [\"fulltext\"], \"degraded\": [], "
                    + "\"warnings\": [\"2 documents are still being indexed\"], \"hits\": []}").getBytes();
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(200, b.length);
            ex.getResponseBody().write(b);
            ex.close();
        });
        java.util.List<String> asked = new java.util.concurrent.CopyOnWriteArrayList<>();
        rest.createContext("/v1/query", ex -> {
            asked.add(new String(ex.getRequestBody().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
            byte[] b = ("{\"title\": \"Bad Gateway\", \"status\": 502, \"detail\": \"the model is down\", "
                    + "\"sources\": [{\"number\": 1, \"title\": \"Tides\"}]}").getBytes();
            ex.getResponseHeaders().add("Content-Type", "application/problem+json");
            ex.sendResponseHeaders(502, b.length);
            ex.getResponseBody().write(b);
            ex.close();
        });
        rest.start();
        try {
            Tools tools = tools(rest);
            Tools.Tool search = tools.all().stream().filter(t -> t.name().equals("hybrid_search")).findFirst()
                    .orElseThrow();
            assertThat(String.valueOf(McpServers.call(search, Map.of("query", "tides")).get("data")))
                    .contains("still being indexed");
            Tools.Tool answer = tools.all().stream().filter(t -> t.name().equals("answer_question")).findFirst()
                    .orElseThrow();
            Map<String, Object> e = McpServers.call(answer, Map.of("question", "when is high tide?"));
            assertThat(e.get("ok")).isEqualTo(false);
            assertThat(String.valueOf(e.get("error"))).contains("the model is down");
            assertThat(String.valueOf(e.get("data"))).contains("Tides");
            // No top_k of its own: the server's configured depths apply (POLYRAG_ANSWER_TOP_K, _SEARCH_TOP_K), not 8.
            assertThat(asked).singleElement().asString().doesNotContain("top_k");
            assertThat(searched).singleElement().asString().doesNotContain("top_k");
        } finally {
            rest.stop(0);
        }
    }

    /** A 2xx that is not polyrag's JSON (a login page at the address) is an error naming the address, not "ok". */
    @Test
    void an_answer_that_is_not_polyrags_json_names_the_address() throws Exception {
        com.sun.net.httpserver.HttpServer rest = rest();
        answer(rest, "/", 200, "text/html", "<html><body>Sign in</body></html>");
        rest.start();
        try {
            Tools tools = tools(rest);
            Tools.Tool health = tools.all().stream().filter(t -> t.name().equals("check_backend_health")).findFirst()
                    .orElseThrow();
            Map<String, Object> e = McpServers.call(health, Map.of());
            assertThat(e.get("ok")).isEqualTo(false);
            assertThat(String.valueOf(e.get("error"))).contains("text/html").contains("--backend-url");
        } finally {
            rest.stop(0);
        }
    }

    /** Many long hits are cut to a budget of text, saying how many were left out; an answer's passages too. */
    @Test
    void a_result_is_cut_to_a_budget_of_text_and_says_so() throws Exception {
        com.sun.net.httpserver.HttpServer rest = rest();
        String text = "word ".repeat(400);
        StringBuilder hits = new StringBuilder();
        for (int i = 0; i < 100; i++) {
            hits.append(i == 0 ? "" : ",").append("{\"rank\": ").append(i + 1).append(", \"text\": \"").append(text)
                    .append("\"}");
        }
        answer(rest, "/v1/search", 200, "application/json", "{\"query\": \"q\", \"warnings\": [], \"hits\": [" + hits
                + "]}");
        rest.start();
        try {
            Tools tools = tools(rest);
            Tools.Tool search = tools.all().stream().filter(t -> t.name().equals("hybrid_search")).findFirst()
                    .orElseThrow();
            tools.jackson.databind.JsonNode data = Args.JSON.valueToTree(McpServers.call(search, Map.of("query", "q",
                    "top_k", 100)).get("data"));
            assertThat(data.path("hits").size()).isLessThan(100).isGreaterThan(10);
            assertThat(data.path("hits").size() * text.length()).isLessThanOrEqualTo(Tools.MAX_RESULT_TEXT);
            assertThat(data.path("warnings").toString()).contains("left out");
        } finally {
            rest.stop(0);
        }
        StringBuilder passages = new StringBuilder();
        for (int i = 0; i < 60; i++) {
            passages.append(i == 0 ? "" : ",").append("{\"text\": \"").append(text).append("\"}");
        }
        var answer = Tools.answered(Args.JSON.readTree("{\"answer\": \"a\", \"sources\": [{\"number\": 1, "
                + "\"passages\": [" + passages + "]}]}"));
        assertThat(answer.toString().length()).isLessThan(Tools.MAX_RESULT_TEXT + 20_000);
        assertThat(answer.path("note_on_sources").asString()).contains("cut");
        // Thousands of passages (no model fitted them to a prompt): past the budget's openings they are left out,
        // every source still there.
        StringBuilder many = new StringBuilder();
        for (int s = 0; s < 200; s++) {
            many.append(s == 0 ? "" : ",").append("{\"number\": ").append(s + 1).append(", \"passages\": [");
            for (int i = 0; i < 11; i++) {
                many.append(i == 0 ? "" : ",").append("{\"text\": \"").append(text).append("\"}");
            }
            many.append("]}");
        }
        var wide = Tools.answered(Args.JSON.readTree("{\"answer\": \"a\", \"sources\": [" + many + "]}"));
        assertThat(wide.path("sources").size()).isEqualTo(200);
        assertThat(wide.toString().length()).isLessThan(Tools.MAX_RESULT_TEXT * 5 / 4 + 40_000);
        assertThat(wide.path("note_on_sources").asString()).contains("left out");
    }

    /** A stand-in REST API on loopback, not started. */
    private static com.sun.net.httpserver.HttpServer rest() throws java.io.IOException {
        return com.sun.net.httpserver.HttpServer.create(new java.net.InetSocketAddress("127.0.0.1", 0), 0);
    }

    /** {@code path} answers {@code status} with {@code body} of {@code type}. */
    private static void answer(com.sun.net.httpserver.HttpServer rest, String path, int status, String type,
            String body) {
        rest.createContext(path, ex -> {
            byte[] b = body.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", type);
            ex.sendResponseHeaders(status, b.length);
            ex.getResponseBody().write(b);
            ex.close();
        });
    }

    private static Tools tools(com.sun.net.httpserver.HttpServer rest) {
        return new Tools(new Backend(URI.create("http://127.0.0.1:" + rest.getAddress().getPort()), null,
                Duration.ofSeconds(5)));
    }
}
