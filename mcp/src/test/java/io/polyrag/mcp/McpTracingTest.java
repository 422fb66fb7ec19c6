package io.polyrag.mcp;

import static io.polyrag.testing.OtlpCollector.attribute;
import static io.polyrag.testing.OtlpCollector.hex;
import static io.polyrag.testing.OtlpCollector.only;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.opentelemetry.proto.trace.v1.Span;
import io.polyrag.app.McpFrontDoor;
import io.polyrag.app.Polyrag;
import io.polyrag.core.config.Config;
import io.polyrag.server.RestServer;
import io.polyrag.testing.OtlpCollector;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One trace across the MCP adapter: an agent's tool call carries its W3C context in the request's {@code _meta} (as
 * the OpenTelemetry conventions for MCP propagate it), the adapter's span continues it, the REST request it makes is
 * a client span whose context the server continues, down to the search's legs. Driven by the official Java SDK's
 * client over streamable HTTP; the adapter and the server export to one loopback OTLP collector.
 */
class McpTracingTest {
    @TempDir
    Path tmp;

    @Test
    void a_tool_call_is_one_trace_from_the_agent_through_the_adapter_to_the_search_legs() throws Exception {
        String traceId = "0af7651916cd43dd8448eb211c80319c";
        String agentSpan = "b7ad6b7169203331";
        try (OtlpCollector collector = new OtlpCollector().configure("polyrag-test");
                Polyrag polyrag = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("data")
                        .toString())))) {
            polyrag.ingest().text(new io.polyrag.app.api.TextIngest("Owls hunt at night.", "Owls", null, null, null));
            RestServer server = new RestServer(polyrag, "127.0.0.1", 0, 1024 * 1024);
            McpFrontDoor mcp = new McpServers().start(new McpFrontDoor.Options("streamable-http", URI.create(
                    "http://127.0.0.1:" + server.port()), null, "127.0.0.1", 0, null, null, Config.load(Map.of(),
                            Map.of())));
            try (McpSyncClient client = McpClient.sync(HttpClientStreamableHttpTransport.builder("http://127.0.0.1:"
                    + mcp.port()).build()).requestTimeout(Duration.ofSeconds(30)).build()) {
                client.initialize();
                McpSchema.CallToolResult result = client.callTool(new McpSchema.CallToolRequest("hybrid_search",
                        Map.of("query", "owls"), Map.of("traceparent", "00-" + traceId + "-" + agentSpan + "-01")));
                assertThat(result.isError()).as(String.valueOf(result.structuredContent())).isFalse();
                McpSchema.CallToolResult untraced = client.callTool(new McpSchema.CallToolRequest("hybrid_search",
                        Map.of("query", "owls")));
                assertThat(untraced.isError()).isFalse();
            } finally {
                mcp.close();
                server.close();
            }
            await().atMost(Duration.ofSeconds(20)).until(() -> collector.trace(traceId).stream()
                    .anyMatch(s -> s.getName().equals("retrieve fulltext")));
            List<Span> trace = collector.trace(traceId);
            Span tool = trace.stream().filter(s -> s.getName().equals("tools/call hybrid_search")).findFirst()
                    .orElseThrow(() -> new AssertionError("no tool span in " + trace.stream().map(Span::getName)
                            .toList()));
            assertThat(hex(tool.getParentSpanId())).as("the agent's span is the parent").isEqualTo(agentSpan);
            assertThat(tool.getKind()).isEqualTo(Span.SpanKind.SPAN_KIND_SERVER);
            assertThat(attribute(tool, "gen_ai.tool.name")).isEqualTo("hybrid_search");
            assertThat(attribute(tool, "mcp.method.name")).isEqualTo("tools/call");
            Span call = only(trace, "POST", tool);
            assertThat(call.getKind()).isEqualTo(Span.SpanKind.SPAN_KIND_CLIENT);
            assertThat(attribute(call, "url.full")).contains("/v1/search");
            assertThat(attribute(call, "http.response.status_code")).isEqualTo("200");
            Span request = only(trace, "POST /v1/search", call);
            Span search = only(trace, "search", request);
            only(trace, "retrieve fulltext", search);
            only(trace, "retrieve vector", search);
            // A call without a context starts a trace of its own at the adapter.
            assertThat(collector.spans().stream().filter(s -> s.getName().equals("tools/call hybrid_search")))
                    .hasSize(2).anyMatch(s -> s.getParentSpanId().isEmpty() && !hex(s.getTraceId()).equals(traceId));
        }
    }
}
