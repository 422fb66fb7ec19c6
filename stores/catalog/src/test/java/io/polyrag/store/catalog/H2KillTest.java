package io.polyrag.store.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Acknowledged commits survive kill -9 after kill -9 on a catalog whose file has space to reuse. H2 2.5.252 did not:
 * once a restart after a kill wrote its first chunk into freed space, the file header kept pointing at the chunk
 * before it, so every commit of that run, and of each run after, was gone at the next open (the 202-acknowledged
 * upload whose job was 404 after a restart). 2.4.240 finds them; this test pins that.
 */
class H2KillTest {
    @TempDir
    Path tmp;

    @Test
    void commits_acknowledged_between_kills_are_all_there_after_restarts_on_a_reused_file() throws Exception {
        Path dir = tmp.resolve("catalog");
        assertThat(child(dir, "churn")).contains("CHURNED");
        assertThat(child(dir, "churn")).contains("CHURNED");
        List<String> acknowledged = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String out = child(dir, "mark");
            assertThat(out).contains("ACK ");
            acknowledged.add(out.substring(out.indexOf("ACK ") + 4).strip());
        }
        try (JdbcCatalog c = H2CatalogProvider.open(dir, Clock.systemUTC())) {
            for (String id : acknowledged) {
                assertThat(c.jobStore().job(id)).as("job " + id + ", acknowledged before a kill").isPresent();
            }
        }
    }

    /** Runs {@link H2KillChild} and returns what it printed; it ends with a halt, as a kill -9 would end it. */
    private static String child(Path dir, String what) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                "-cp", System.getProperty("java.class.path"), H2KillChild.class.getName(), dir.toString(), what)
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isEqualTo(9);
        return out;
    }
}
