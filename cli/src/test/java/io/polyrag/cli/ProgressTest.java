package io.polyrag.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.model.JobProgress;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/**
 * The bar redraws only on a terminal: from JDK 22 the JVM's console is there with the output redirected too, and a
 * log got the bar's redraws. A test's output is no terminal.
 */
class ProgressTest {

    @Test
    void output_that_is_no_terminal_gets_plain_lines() {
        assertThat(Progress.terminal(null)).isFalse();
        if (System.console() != null) {
            assertThat(Progress.stderrIsTerminal()).as("surefire's output is redirected").isFalse();
        }
        StringWriter log = new StringWriter();
        Progress p = Progress.forConsole(new PrintWriter(log, true));
        p.onProgress(JobProgress.at("parsing").total(3).processed(1).build());
        assertThat(log.toString()).doesNotContain("\r").contains("parsing");
    }
}
