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
        // 150 passes the adapter (the REST API allows up to 200): what fails is reaching the backend.
        assertThat(String.valueOf(McpServers.call(search, Map.of("query", "x", "top_k", 150)).get("error")))
                .contains("cannot reach the polyrag REST API");
        assertThat(String.valueOf(McpServers.call(search, Map.of("query", "x", "top_k", 201)).get("error")))
                .contains("top_k").contains("200");
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
}
