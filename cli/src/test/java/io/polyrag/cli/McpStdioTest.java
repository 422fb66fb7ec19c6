package io.polyrag.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code polyrag mcp} over stdio, as a client that writes its requests and closes standard input at once: the tool
 * call still running at end of input answers, standard output carries nothing but the protocol (logs go to standard
 * error), and the process exits by itself.
 */
class McpStdioTest {
    @TempDir
    Path tmp;

    @Test
    void a_call_running_when_stdin_closes_still_answers_and_the_process_exits() throws Exception {
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), Main.class.getName(), "--data-dir", tmp.resolve("data")
                        .toString(), "mcp");
        pb.environment().put("POLYRAG_VECTOR_ENABLED", "false");
        pb.redirectError(tmp.resolve("err").toFile());
        Process p = pb.start();
        try (OutputStream in = p.getOutputStream()) {
            for (String line : List.of(
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                            + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}",
                    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
                    "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"run_sample_check\","
                            + "\"arguments\":{}}}")) {
                in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            }
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("the process exits when its input ends").isTrue();
        String err = Files.readString(tmp.resolve("err"));
        assertThat(p.exitValue()).as(err).isZero();
        List<String> lines = out.lines().toList();
        assertThat(lines).as("standard output: only the protocol, one message per line; stderr: %s", err).hasSize(2);
        var json = JsonMapper.builder().build();
        JsonNode answer = json.readTree(lines.get(1));
        assertThat(answer.get("id").asInt()).isEqualTo(2);
        JsonNode envelope = answer.get("result").get("structuredContent");
        assertThat(envelope.get("ok").asBoolean()).as(envelope.toString()).isTrue();
        assertThat(envelope.get("data").get("steps").findValuesAsString("name")).containsExactly("ingest", "search",
                "delete", "gone");
        assertThat(err).as("logs go to standard error").contains("POST /v1/sample-check 200");
    }
}
