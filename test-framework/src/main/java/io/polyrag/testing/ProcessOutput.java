package io.polyrag.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A child process's output, read line by line on a thread of its own, so a test can wait for the line that says the
 * child got somewhere — and fail with everything the child printed when it never comes or the child dies first.
 */
public final class ProcessOutput {
    private final Process process;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final List<String> seen = new ArrayList<>();

    /** Starts reading {@code process}'s standard output (merge its errors into it to see them too). */
    public ProcessOutput(Process process) {
        this.process = process;
        Thread.ofVirtual().start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String l = r.readLine(); l != null; l = r.readLine()) {
                    lines.add(l);
                }
            } catch (IOException e) {
                lines.add("output closed: " + e.getMessage());
            }
        });
    }

    /**
     * The next line that {@code matches}, waiting up to {@code timeout}; an {@link AssertionError} naming
     * {@code what} and carrying the output so far when none comes, or the process ends first.
     */
    public String await(Predicate<String> matches, String what, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            String l = lines.poll(100, TimeUnit.MILLISECONDS);
            if (l != null) {
                seen.add(l);
                if (matches.test(l)) {
                    return l;
                }
            } else if (!process.isAlive() && lines.isEmpty()) {
                break;
            }
        }
        throw new AssertionError("the child never printed " + what + "; its output:\n" + all());
    }

    /** Everything printed so far, the lines already waited past included. */
    public String all() {
        lines.drainTo(seen);
        return String.join("\n", seen);
    }
}
