package io.polyrag.testing;

import java.io.IOException;
import org.junit.jupiter.api.Assumptions;

/**
 * What a test needs from the machine (a server, a tool, a browser). Missing, the test skips saying what to install —
 * unless {@code POLYRAG_TEST_REQUIRE_SERVICES} is {@code true} (CI), where a missing service is a failure, never a
 * silent skip.
 */
public final class TestServices {
    private TestServices() {
    }

    public static boolean required() {
        return "true".equalsIgnoreCase(System.getenv("POLYRAG_TEST_REQUIRE_SERVICES"));
    }

    /** Skips (or fails under CI) when {@code missing} is not null; it says what is missing and how to get it. */
    public static void require(String missing) {
        if (missing == null) {
            return;
        }
        if (required()) {
            throw new IllegalStateException(missing + ", but POLYRAG_TEST_REQUIRE_SERVICES=true");
        }
        Assumptions.abort(missing);
    }

    /** Whether a command runs on this machine ({@code node --version}). */
    public static boolean runs(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
