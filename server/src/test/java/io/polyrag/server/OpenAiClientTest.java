package io.polyrag.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.polyrag.app.Json;
import io.polyrag.app.Polyrag;
import io.polyrag.app.api.TextIngest;
import io.polyrag.core.config.Config;
import io.polyrag.core.model.KnowledgeBase;
import io.polyrag.core.model.Tenant;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The OpenAI-compatible routes driven by the official {@code openai} npm client (installed by {@code .ci/run} into
 * {@code tools/node}), against a real server with an API key: models, a completion, a streamed one, and a missing
 * model's status.
 */
class OpenAiClientTest {
    private static final Path TOOLS = Path.of("").toAbsolutePath().getParent().resolve("tools/node/node_modules");

    @TempDir
    Path tmp;

    @Test
    void the_official_openai_client_lists_knowledge_bases_as_models_and_gets_cited_answers_plain_and_streamed()
            throws IOException, InterruptedException {
        assumeTrue(Files.isDirectory(TOOLS.resolve("openai")), "the openai npm client is not installed: run "
                + "'npm install --prefix tools/node' (.ci/run does)");
        try (Polyrag polyrag = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("data").toString())))) {
            String key = polyrag.keys().create("acme", "openai test").key();
            polyrag.as(Tenant.of("acme")).ingest().text(new TextIngest("Marie Curie worked at the Radium Institute "
                    + "in Paris, where she studied radioactivity.", "Curie", null, null, KnowledgeBase.of("lab")));
            RestServer server = new RestServer(polyrag, "127.0.0.1", 0, 1024 * 1024);
            try {
                Path script = tmp.resolve("openai-client.cjs");
                try (var in = OpenAiClientTest.class.getResourceAsStream("/openai-client.cjs")) {
                    Files.copy(in, script);
                }
                ProcessBuilder pb = new ProcessBuilder("node", script.toString(),
                        "http://127.0.0.1:" + server.port() + "/v1", key);
                pb.environment().put("NODE_PATH", TOOLS.toString());
                pb.redirectErrorStream(true);
                Process p = pb.start();
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
                assertThat(p.exitValue()).as(out).isZero();
                JsonNode r = Json.MAPPER.readTree(out.strip().lines().reduce((a, b) -> b).orElseThrow());
                assertThat(r.get("models").toString()).contains("\"polyrag\"").contains("\"polyrag/lab\"");
                assertThat(r.get("role").asString()).isEqualTo("assistant");
                assertThat(r.get("finish").asString()).isEqualTo("stop");
                assertThat(r.get("answer").asString()).contains("Radium Institute").contains("[1]");
                assertThat(r.get("sources").toString()).contains("Curie");
                assertThat(r.get("streamed").asString()).isEqualTo(r.get("answer").asString());
                assertThat(r.get("streamFinish").asString()).isEqualTo("stop");
                assertThat(r.get("streamSources").toString()).contains("Curie");
                assertThat(r.get("missingStatus").asInt()).isEqualTo(404);
                assertThat(r.get("none").asString()).startsWith("No sentence of the sources");
                assertThat(r.get("noneStreamed").asString()).isEqualTo(r.get("none").asString());
            } finally {
                server.close();
            }
        }
    }
}
