package io.polyrag.cli;

import io.polyrag.core.model.JobProgress;
import io.polyrag.core.port.ProgressListener;
import java.io.Console;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * Ingest progress on stderr: a bar redrawn in place on a terminal, otherwise a plain line at each stage change and
 * at most every five seconds, so logs stay readable.
 */
final class Progress implements ProgressListener {
    private final PrintWriter err;
    private final boolean terminal;
    private final long start = System.nanoTime();
    private long lastLine;
    private String lastStage = "";

    Progress(PrintWriter err, boolean terminal) {
        this.err = err;
        this.terminal = terminal;
    }

    static Progress forConsole(PrintWriter err) {
        return new Progress(err, stderrIsTerminal());
    }

    /**
     * Whether the bar may redraw: a terminal at both ends of the console. From JDK 22 {@code System.console()} is
     * there with the output redirected too, and a log filled with the bar's redraws; {@code isTerminal} (JDK 22)
     * says whether it is one.
     */
    static boolean stderrIsTerminal() {
        return terminal(System.console());
    }

    static boolean terminal(Console console) {
        if (console == null) {
            return false;
        }
        try {
            return (Boolean) Console.class.getMethod("isTerminal").invoke(console);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return true; // JDK 21: a console only when neither input nor output is redirected
        }
    }

    @Override
    public void onProgress(JobProgress p) {
        if (terminal) {
            int width = 30;
            int filled = p.total() == 0 ? 0 : width * p.processed() / p.total();
            err.print(String.format(Locale.ROOT, "\r[%s%s] %d/%d files  %d chunks  %-10s", "#".repeat(filled),
                    " ".repeat(width - filled), p.processed(), p.total(), p.chunks(), p.stage()));
            err.flush();
            return;
        }
        long now = System.nanoTime();
        if (!p.stage().equals(lastStage) || now - lastLine > 5_000_000_000L) {
            lastStage = p.stage();
            lastLine = now;
            err.println(String.format(Locale.ROOT, "ingest: %s, %d/%d files, %d chunks, %.1fs", p.stage(),
                    p.processed(), p.total(), p.chunks(), (now - start) / 1e9));
        }
    }

    void finish() {
        if (terminal) {
            err.println();
        }
    }
}
