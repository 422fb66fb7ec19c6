package io.polyrag.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.polyrag.app.HttpFrontDoor;
import io.polyrag.app.McpFrontDoor;
import io.polyrag.app.Polyrag;
import io.polyrag.core.config.Config;
import io.polyrag.core.model.Tenant;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * polyrag's MCP server driven by the official TypeScript SDK's {@code Client} (installed by {@code .ci/run} into
 * {@code tools/node}), against a real polyrag with real documents: over stdio, {@code polyrag mcp} as a desktop client
 * starts it (its own JVM, serving the REST API from the data directory for itself); over streamable HTTP, in front of
 * a running REST server with a tenant's API key. Every tool, the bad-argument and unknown-tool paths.
 */
class McpClientTest {
    private static final Path TOOLS = Path.of("").toAbsolutePath().getParent().resolve("tools/node/node_modules");
    private static final ObjectMapper JSON = JsonMapper.builder().build();
    private static final Set<String> ENVELOPE = Set.of("ok", "tool", "status", "data", "error");

    @TempDir
    Path tmp;

    @Test
    void a_desktop_client_over_stdio_uses_every_tool_on_the_embedded_default_stack() throws Exception {
        requireClient();
        Path data = tmp.resolve("data");
        List<String> command = new ArrayList<>(List.of("--add-modules", "jdk.incubator.vector",
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                Main.class.getName(), "--data-dir", data.toString(), "mcp"));
        Map<String, Object> spawn = Map.of("command", Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "args", command, "env", Map.of("PATH", System.getenv("PATH"), "HOME",
                System.getProperty("user.home")));
        JsonNode r = drive("stdio", JSON.writeValueAsString(spawn));
        assertEveryTool(r, "lucene");
        // The command ended with its standard input, releasing the data directory.
        try (Polyrag p = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", data.toString())))) {
            assertThat(p.documents().list(null, 0, 10)).extracting(d -> d.uri()).anyMatch(u -> u.endsWith("tides.md"));
        }
    }

    @Test
    void a_networked_client_over_streamable_http_acts_for_the_tenant_of_its_api_key() throws Exception {
        requireClient();
        // Over the network the adapter reads host files only inside the folders its operator names.
        Config config = Config.load(Map.of(), Map.of("data.dir", tmp.resolve("data").toString(),
                "vector.enabled", "false", "mcp.allowed.roots", tmp.toString()));
        try (Polyrag polyrag = Polyrag.open(config)) {
            String key = polyrag.keys().create("acme", "mcp test").key();
            try (HttpFrontDoor rest = HttpFrontDoor.start(polyrag, "127.0.0.1", 0, 16 * 1024 * 1024);
                    McpFrontDoor mcp = McpFrontDoor.start(new McpFrontDoor.Options("streamable-http",
                            URI.create("http://127.0.0.1:" + rest.port()), key, "127.0.0.1", 0, null, null, config))) {
                JsonNode r = drive("http", "http://127.0.0.1:" + mcp.port() + "/mcp");
                assertEveryTool(r, null);
                assertThat(polyrag.as(Tenant.of("acme")).documents().list(null, 0, 10)).extracting(d -> d.uri())
                        .as("the ingest landed in the key's tenant").anyMatch(u -> u.endsWith("tides.md"));
                assertThat(polyrag.documents().list(null, 0, 10)).as("and nowhere else").isEmpty();
            }
        }
    }

    @Test
    void the_older_sse_transport_serves_the_same_tools() throws Exception {
        requireClient();
        // Over the network the adapter reads host files only inside the folders its operator names.
        Config config = Config.load(Map.of(), Map.of("data.dir", tmp.resolve("data").toString(),
                "vector.enabled", "false", "mcp.allowed.roots", tmp.toString()));
        try (Polyrag polyrag = Polyrag.open(config);
                HttpFrontDoor rest = HttpFrontDoor.start(polyrag, "127.0.0.1", 0, 16 * 1024 * 1024);
                McpFrontDoor mcp = McpFrontDoor.start(new McpFrontDoor.Options("sse", URI.create("http://127.0.0.1:"
                        + rest.port()), null, "127.0.0.1", 0, null, null, config))) {
            assertEveryTool(drive("sse", "http://127.0.0.1:" + mcp.port() + "/sse"), null);
        }
    }

    private JsonNode drive(String mode, String target) throws IOException, InterruptedException {
        Path file = tmp.resolve("tides.md");
        Files.writeString(file, "# Tide tables\n\nSpring tides at Quillon Point rise four metres at the equinox.\n");
        Path script = tmp.resolve("mcp-client.cjs");
        try (var in = McpClientTest.class.getResourceAsStream("/mcp-client.cjs")) {
            Files.copy(in, script);
        }
        ProcessBuilder pb = new ProcessBuilder("node", script.toString(), mode, target, file.toString());
        pb.environment().put("NODE_PATH", TOOLS.toString());
        pb.redirectError(tmp.resolve("client.err").toFile());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(180, TimeUnit.SECONDS)).isTrue();
        String err = Files.readString(tmp.resolve("client.err"));
        assertThat(p.exitValue()).as("client output %s, errors %s", out, err).isZero();
        return JSON.readTree(out.strip().lines().reduce((a, b) -> b).orElseThrow());
    }

    private static void assertEveryTool(JsonNode r, String vectorBackend) {
        assertThat(r.get("server").get("name").asString()).isEqualTo("polyrag");
        assertThat(r.get("instructions").asString()).contains("hybrid_search");
        List<String> names = new ArrayList<>();
        r.get("tools").forEach(t -> {
            names.add(t.get("name").asString());
            assertThat(t.get("description").asString()).as(t.toString()).hasSizeGreaterThan(40);
            assertThat(t.get("schema").get("type").asString()).isEqualTo("object");
        });
        assertThat(names).containsExactlyInAnyOrder("check_backend_health", "start_document_ingest",
                "ingest_raw_text", "check_ingest_status", "hybrid_search", "answer_question", "run_sample_check",
                "describe_configuration", "list_knowledge_bases", "delete_document");
        for (String step : List.of("health", "configuration", "ingested", "job", "status", "bases", "search",
                "answer", "deleted", "after", "badTopK", "badConfig", "missingPath", "unknownJob")) {
            JsonNode e = r.get(step).get("envelope");
            Set<String> keys = new TreeSet<>();
            e.propertyNames().forEach(keys::add);
            assertThat(keys).as("%s answers the one envelope: %s", step, e).isEqualTo(ENVELOPE);
            assertThat(r.get(step).get("structured")).as("structured content is the envelope").isEqualTo(e);
        }
        assertOk(r, "health");
        assertThat(r.get("health").get("envelope").get("data").get("status").asString()).isEqualTo("ok");
        assertOk(r, "configuration");
        JsonNode backends = r.get("configuration").get("envelope").get("data").get("backends");
        assertThat(backends.get("fulltext").asString()).isEqualTo("lucene");
        if (vectorBackend != null) {
            assertThat(backends.get("vector").asString()).isEqualTo(vectorBackend);
        }
        assertOk(r, "ingested");
        String documentId = r.get("ingested").get("envelope").get("data").get("document_id").asString();
        assertOk(r, "job");
        assertThat(r.get("job").get("envelope").get("status").asInt()).isEqualTo(202);
        assertThat(r.get("status").get("envelope").get("data").get("status").asString()).isEqualTo("succeeded");
        assertThat(r.get("bases").get("envelope").get("data").toString()).contains("\"coast\"");
        assertOk(r, "search");
        JsonNode hit = r.get("search").get("envelope").get("data").get("hits").get(0);
        assertThat(hit.get("title").asString()).isEqualTo("Quillon Point light");
        assertThat(hit.get("text").asString()).contains("Ada Ferrow");
        assertThat(hit.has("location")).isTrue();
        assertThat(hit.get("uri").asString()).isNotBlank();
        assertThat(hit.get("retrievers").get("fulltext").get("rank").asInt()).isEqualTo(1);
        if (vectorBackend != null) {
            assertThat(hit.get("retrievers").has("vector")).as("ranked by both retrievers: %s", hit).isTrue();
        }
        assertOk(r, "answer");
        JsonNode answer = r.get("answer").get("envelope").get("data");
        assertThat(answer.get("answer").asString()).contains("1871").contains("[1]");
        assertThat(answer.get("sources").get(0).get("title").asString()).isEqualTo("Quillon Point light");
        assertOk(r, "deleted");
        assertThat(r.get("after").get("envelope").get("data").get("hits").findValuesAsString("document_id"))
                .doesNotContain(documentId);
        assertRefused(r, "badTopK", "top_k");
        assertRefused(r, "badConfig", "config");
        assertRefused(r, "missingPath", "paths");
        JsonNode unknownJob = r.get("unknownJob").get("envelope");
        assertThat(unknownJob.get("ok").asBoolean()).isFalse();
        assertThat(unknownJob.get("status").asInt()).isEqualTo(404);
        assertThat(r.get("unknownJob").get("isError").asBoolean()).isTrue();
        JsonNode unknownTool = r.get("unknownTool");
        assertThat(unknownTool.path("threw").asBoolean() || unknownTool.path("isError").asBoolean())
                .as("an unknown tool is an error: %s", unknownTool).isTrue();
        assertThat(unknownTool.toString()).contains("Unknown tool");
    }

    private static void assertOk(JsonNode r, String step) {
        JsonNode e = r.get(step).get("envelope");
        assertThat(e.get("ok").asBoolean()).as("%s: %s", step, e).isTrue();
        assertThat(e.get("error").isNull()).isTrue();
        assertThat(r.get(step).get("isError").asBoolean()).isFalse();
    }

    /** Refused before any request: no status, the argument named, the same keys as a success. */
    private static void assertRefused(JsonNode r, String step, String field) {
        JsonNode e = r.get(step).get("envelope");
        assertThat(e.get("ok").asBoolean()).as("%s: %s", step, e).isFalse();
        assertThat(e.get("status").isNull()).as("no request was made").isTrue();
        assertThat(e.get("data").isNull()).isTrue();
        assertThat(e.get("error").get("field").asString()).isEqualTo(field);
        assertThat(e.get("error").get("message").asString()).isNotBlank();
        assertThat(r.get(step).get("isError").asBoolean()).isTrue();
    }

    private static void requireClient() {
        assumeTrue(Files.isDirectory(TOOLS.resolve("@modelcontextprotocol/sdk")), "the MCP TypeScript SDK is not "
                + "installed: run 'npm install --prefix tools/node' (.ci/run does)");
    }
}
