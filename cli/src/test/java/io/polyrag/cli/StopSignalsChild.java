package io.polyrag.cli;

import java.util.concurrent.atomic.AtomicBoolean;

/** A child JVM for {@link StopSignalsTest}: a stop that takes a while, and a hook that says whether it had ended. */
public final class StopSignalsChild {
    private StopSignalsChild() {
    }

    public static void main(String[] args) throws InterruptedException {
        AtomicBoolean done = new AtomicBoolean();
        // As ONNX Runtime's own hook: it must find the command's stop ended, the sessions closed.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.println("hook: the stop had "
                + (done.get() ? "ended" : "not ended"))));
        StopSignals.install(() -> {
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            done.set(true);
            System.out.println("stop: ended");
        });
        System.out.println("ready");
        System.out.flush();
        Thread.sleep(60_000);
    }
}
