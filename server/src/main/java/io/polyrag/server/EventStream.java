package io.polyrag.server;

import io.javalin.http.Context;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * A {@code text/event-stream} response that is committed by its first event, not before: a request refused before
 * anything was streamed (a quota's 429 with its Retry-After, a bad field's 400, an unknown knowledge base's 404, a
 * model that fails before its first token) is then an ordinary problem response with its own status, which clients
 * and their retry logic understand, instead of a 200 carrying an error event.
 */
final class EventStream {
    static final String GONE = "the client went away";
    private final Context ctx;
    private OutputStream out;

    EventStream(Context ctx) {
        this.ctx = ctx;
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

    /** Whether an event was written: from then on a failure can only be told as an event. */
    boolean opened() {
        return out != null;
    }

    /** Writes and flushes one event's text, opening the stream first if this is the first. */
    void write(String text) {
        try {
            if (out == null) {
                // Behind nginx (proxy_buffering on by default) an answer's tokens came in lumps or all at the end.
                ctx.status(200).contentType("text/event-stream; charset=utf-8").header("Cache-Control", "no-cache")
                        .header("X-Accel-Buffering", "no");
                out = ctx.res().getOutputStream();
            }
            out.write(text.getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(GONE, e);
        }
    }
}
