package io.polyrag.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * SIGTERM runs the command's stop to its end before any shutdown hook starts: ONNX Runtime's hook frees its native
 * environment, and run beside the stop it freed it under a model still loading or running.
 */
class StopSignalsTest {
    @Test
    void a_sigterm_runs_the_stop_to_its_end_before_the_hooks_begin() throws Exception {
        Process child = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", System.getProperty("java.class.path"), StopSignalsChild.class.getName()))
                .redirectErrorStream(true).start();
        StringBuilder out = new StringBuilder();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line = r.readLine();
            assertThat(line).isEqualTo("ready");
            child.toHandle().destroy();   // SIGTERM, the output left open (Process.destroy closes it)
            for (String l = r.readLine(); l != null; l = r.readLine()) {
                out.append(l).append('\n');
            }
        } finally {
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(out.toString()).contains("stop: ended").contains("hook: the stop had ended")
                .doesNotContain("not ended");
        assertThat(child.exitValue()).as("128 + SIGTERM, as the JVM exits on it").isEqualTo(143);
    }
}
