package io.polyrag.server;

import io.javalin.http.Context;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * A {@code text/event-stream} response that is committed by its first event, not before: a request refused before
 * anything was streamed (a quota's 429 with its Retry-After, a bad field's 400, an unknown knowledge base's 404, a
 * model that fails before its first token) is then an ordinary problem response with its own status, which clients
 * and their retry logic understand, instead of a 200 carrying an error event.
 *
 * <p>With a heartbeat, a stream with nothing written for that long (a model slow to its first token, or thinking
 * between two) gets a {@code : heartbeat} comment, which every event-stream client skips: a proxy cuts a response idle
 * for a minute or so, and an answer then never came. A heartbeat opens the stream like an event, so a failure after
 * it is told as an event. {@link #stop()} ends the heartbeats: call it before deciding how to tell a failure.
 */
final class EventStream {
    static final String GONE = "the client went away";
    private static final ScheduledExecutorService BEATS = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("polyrag-sse-heartbeat").factory());
    private final Context ctx;
    private final ReentrantLock lock = new ReentrantLock();
    private final long heartbeatNanos;
    private final ScheduledFuture<?> beats;
    private OutputStream out;
    private long written = System.nanoTime();
    private boolean stopped;

    EventStream(Context ctx) {
        this(ctx, Duration.ZERO);
    }

    /** @param heartbeat the longest the stream stays silent; zero for none */
    EventStream(Context ctx, Duration heartbeat) {
        this.ctx = ctx;
        this.heartbeatNanos = heartbeat.toNanos();
        long every = Math.max(100, heartbeat.toMillis() / 4);
        // The beat itself on a virtual thread: a client that stopped reading blocks its own write, not the others'.
        this.beats = heartbeat.isZero() ? null : BEATS.scheduleWithFixedDelay(() -> Thread.ofVirtual()
                .name("polyrag-sse-beat").start(this::beat), every, every, TimeUnit.MILLISECONDS);
    }

    /**
     * For an answer written whole at its end: the model's tokens as they come stop it once {@code gone} says the
     * client has hung up (a client's timeout and its retries left every answer running to its end, each a model
     * call paid for).
     */
    static Consumer<String> stopWhen(BooleanSupplier gone) {
        return token -> {
            if (gone.getAsBoolean()) {
                throw new UncheckedIOException(GONE, new IOException("the client closed the connection"));
            }
        };
    }

    /** Whether an event (or a heartbeat) was written: from then on a failure can only be told as an event. */
    boolean opened() {
        lock.lock();
        try {
            return out != null;
        } finally {
            lock.unlock();
        }
    }

    /** Ends the heartbeats; once it returns none is written. Events still are. */
    void stop() {
        lock.lock();
        try {
            stopped = true;
            if (beats != null) {
                beats.cancel(false);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Writes and flushes one event's text, opening the stream first if this is the first. */
    void write(String text) {
        lock.lock();
        try {
            send(text);
        } catch (IOException e) {
            throw new UncheckedIOException(GONE, e);
        } finally {
            lock.unlock();
        }
    }

    private void beat() {
        if (!lock.tryLock()) {
            return;
        }
        try {
            if (!stopped && System.nanoTime() - written >= heartbeatNanos) {
                send(": heartbeat\n\n");
            }
        } catch (IOException | RuntimeException e) {
            // The client has gone: the next event's write says so to the request's own thread.
            stopped = true;
            beats.cancel(false);
        } finally {
            lock.unlock();
        }
    }

    private void send(String text) throws IOException {
        if (out == null) {
            // Behind nginx (proxy_buffering on by default) an answer's tokens came in lumps or all at the end.
            ctx.status(200).contentType("text/event-stream; charset=utf-8").header("Cache-Control", "no-cache")
                    .header("X-Accel-Buffering", "no");
            out = ctx.res().getOutputStream();
        }
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
        written = System.nanoTime();
    }
}
