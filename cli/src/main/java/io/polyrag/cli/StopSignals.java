package io.polyrag.cli;

import java.util.List;
import sun.misc.Signal;

/**
 * SIGTERM and SIGINT run a command's own stop to its end, then exit: the JVM's shutdown hooks run at once and
 * together, and ONNX Runtime registers one that frees its native environment, so on a bare signal that was freed
 * while polyrag still drained requests and wound jobs down under it (a model being loaded on it — the warm-up, a
 * back-fill's stand-in — crashed the JVM in native code). Here the sessions are closed before the hooks begin. The
 * command's shutdown hook stays for an exit by other means; the stop runs once whichever starts it.
 */
final class StopSignals {
    private static volatile boolean signalled;

    private StopSignals() {
    }

    /**
     * Whether a signal is being handled: the command's own end (its work failing under the stop's close) must not
     * exit first with its code, 1 for a stopped ingest.
     */
    static boolean signalled() {
        return signalled;
    }

    /** Handles SIGTERM and SIGINT with {@code stop}, then exits with 128 + the signal's number, as the JVM would. */
    static void install(Runnable stop) {
        for (String name : List.of("TERM", "INT")) {
            try {
                Signal.handle(new Signal(name), s -> Thread.ofPlatform().name("polyrag-stop").start(() -> {
                    signalled = true;
                    try {
                        stop.run();
                    } finally {
                        System.exit(128 + s.getNumber());
                    }
                }));
            } catch (IllegalArgumentException | LinkageError e) {
                // A signal this platform or runtime does not let a program handle (-Xrs): the hook alone stops.
            }
        }
    }
}
