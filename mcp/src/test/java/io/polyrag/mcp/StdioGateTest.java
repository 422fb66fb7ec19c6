package io.polyrag.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.app.McpFrontDoor;
import io.polyrag.core.config.Config;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * MCP over stdio with the SDK's transport: a line it cannot read (blank, malformed, a batch, a method that is not a
 * string, over the size limit) is answered with JSON-RPC's error and the lines after it are served; standard input's
 * end, after the last answer, ends the server. Before, the first such line stopped the transport's reading and the
 * server waited for ever.
 */
class StdioGateTest {

    @Test
    void a_line_the_transport_cannot_read_is_answered_and_the_next_ones_are_served() throws Exception {
        String initialize = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";
        ByteArrayOutputStream in = new ByteArrayOutputStream();
        for (String line : List.of("", "  \t", "not json", "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]",
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":{}}", "{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"method\":\"x\"}",
                "{\"id\":3}", "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\"} {}",
                "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}",
                "x".repeat(StdioGate.MAX_LINE_BYTES + 1))) {
            in.writeBytes((line + "\n").getBytes(StandardCharsets.UTF_8));
        }
        in.writeBytes((initialize + "\r\n").getBytes(StandardCharsets.UTF_8));
        in.writeBytes(("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\r"
                + "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/list\"}").getBytes(StandardCharsets.UTF_8));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        McpFrontDoor mcp = new McpServers().start(new McpFrontDoor.Options("stdio", URI.create("http://127.0.0.1:9"),
                null, "127.0.0.1", 0, new ByteArrayInputStream(in.toByteArray()), out, Config.load(Map.of(),
                Map.of())));
        try {
            Thread waiter = Thread.ofVirtual().start(() -> {
                try {
                    mcp.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            waiter.join(Duration.ofSeconds(30));
            assertThat(waiter.isAlive()).as("the end of standard input ends the server; wrote: %s",
                    out.toString(StandardCharsets.UTF_8)).isFalse();
            List<JsonNode> replies = new ArrayList<>();
            for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
                replies.add(Args.JSON.readTree(line));
            }
            List<String> errors = replies.stream().filter(r -> r.has("error")).map(r -> (r.get("id").isNull()
                    ? "null" : r.get("id").asString()) + " " + r.get("error").get("code").asInt()).toList();
            // A request with a null id is refused (its answer had no id, and the exit waited two minutes for it).
            assertThat(errors).containsExactly("null -32700", "null -32600", "2 -32600", "null -32600", "3 -32600",
                    "null -32700", "null -32600", "null -32600");
            assertThat(replies.stream().filter(r -> r.path("id").asInt() == 7 && r.has("result"))).hasSize(1);
            JsonNode tools = replies.stream().filter(r -> r.path("id").asInt() == 8).findFirst().orElseThrow();
            assertThat(tools.get("result").get("tools").findValuesAsString("name")).contains("hybrid_search");
            assertThat(replies).hasSize(errors.size() + 2);
        } finally {
            mcp.close();
        }
    }
}
