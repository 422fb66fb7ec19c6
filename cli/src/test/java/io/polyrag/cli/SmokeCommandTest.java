package io.polyrag.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.app.Json;
import io.polyrag.app.Polyrag;
import io.polyrag.core.config.Config;
import io.polyrag.server.RestServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** {@code polyrag smoke} against a real server: every step passes; a server that never answers is named. */
class SmokeCommandTest {
    @TempDir
    Path tmp;

    private static String[] run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new String[] {Integer.toString(code), out.toString(), err.toString()};
    }

    @Test
    void a_running_server_passes_every_step_and_each_is_timed() {
        try (Polyrag polyrag = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("data").toString())));
                RestServer server = new RestServer(polyrag, "127.0.0.1", 0, 8L * 1024 * 1024)) {
            String url = "http://127.0.0.1:" + server.port();
            String[] r = run("smoke", "--url", url);
            assertThat(r[0]).as(r[1] + r[2]).isEqualTo("0");
            assertThat(r[1]).containsPattern("health +ok +\\d+ ms").containsPattern("ready +ok")
                    .containsPattern("configuration +ok").containsPattern("sample-check +ok .*ingest \\d+ ms, search")
                    .containsPattern("answer +ok").contains("passed every step");
            JsonNode json = Json.MAPPER.readTree(run("smoke", "--url", url + "/", "--json")[1]);
            assertThat(json.get("ok").asBoolean()).isTrue();
            assertThat(json.get("steps").size()).isEqualTo(5);
            // A wrong path answers 404 at once, and would for the whole wait: exit 1 now, not 3 after a minute.
            long t0 = System.nanoTime();
            String[] wrong = run("smoke", "--url", url + "/polyrag", "--wait", "60");
            assertThat(wrong[0]).as(wrong[2]).isEqualTo(Integer.toString(Main.PARTIAL));
            assertThat(wrong[2]).contains("step 'health' failed: HTTP 404");
            assertThat(System.nanoTime() - t0).isLessThan(30_000_000_000L);
            // A key with an invisible character inside is refused by position, never quoted.
            String[] key = run("smoke", "--url", url, "--api-key", "\uFEFFsecret\u200Bkey\n");
            assertThat(key[0]).isEqualTo(Integer.toString(Main.USAGE));
            assertThat(key[2]).contains("--api-key holds U+200B at position 6").doesNotContain("secret")
                    .doesNotContain("Exception");
        }
    }

    @Test
    void a_server_that_never_answers_is_named_with_exit_3_after_the_wait() throws Exception {
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        String[] r = run("smoke", "--url", "http://127.0.0.1:" + port, "--wait", "1");
        assertThat(r[0]).isEqualTo(Integer.toString(Main.UNAVAILABLE));
        assertThat(r[2]).contains("step 'health' failed").contains("no answer from").contains("--wait");
        assertThat(run("smoke", "--url", "not a url")[0]).isEqualTo(Integer.toString(Main.USAGE));
    }
}
