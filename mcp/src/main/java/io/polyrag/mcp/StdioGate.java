package io.polyrag.mcp;

import java.io.ByteArrayOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Stands between standard input and output and the SDK's stdio transport, for two things that transport does not do.
 *
 * <p>It passes on only lines the transport can read. The transport stops reading for good at the first line it cannot
 * turn into a JSON-RPC message (a blank line, malformed JSON, a batch, a {@code method} that is not a string, a line
 * over its 16 Mi characters), and the process then waited for an end of input the client never sent: one bad line
 * from a client hung the server. Such a line is answered here with JSON-RPC's error ({@code -32700} parse error,
 * {@code -32600} invalid request, {@code id} null unless the line had a usable one) and the next lines are read; a
 * blank line is skipped.
 *
 * <p>And it keeps standard input open, as the transport sees it, until every request read has been answered: the
 * transport stops writing the moment its input ends, so a tool call still running when the client closes stdin would
 * never answer. Requests are counted as their lines are passed on, answers as their lines are written; at end of
 * input the reader waits (up to a bound) for the two to meet, then ends.
 */
final class StdioGate {
    /** The longest line passed on, in bytes: never more characters than the transport's own limit. */
    static final int MAX_LINE_BYTES = 16 * 1024 * 1024;
    private static final Logger LOG = LoggerFactory.getLogger(StdioGate.class);
    private final Object lock = new Object();
    private final CountDownLatch ended = new CountDownLatch(1);
    private final Duration patience;
    private volatile OutputStream stdout;
    private volatile OutputStream transportOut;
    private long requests;
    private long answers;
    private long written;

    StdioGate(Duration patience) {
        this.patience = patience;
    }

    InputStream input(InputStream in) {
        return new Lines(in);
    }

    OutputStream output(OutputStream out) {
        FilterOutputStream filter = new FilterOutputStream(out) {
            private final ByteArrayOutputStream line = new ByteArrayOutputStream();

            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                out.write(b, off, len);
                for (int i = off; i < off + len; i++) {
                    if (b[i] == '\n') {
                        countAnswer(line.toByteArray());
                        line.reset();
                    } else if (line.size() < 64 * 1024 * 1024) {
                        line.write(b[i]);
                    }
                }
            }

            /** An answer counts once it is flushed: only then may the process end without losing it. */
            @Override
            public void flush() throws IOException {
                out.flush();
                synchronized (lock) {
                    answers += written;
                    written = 0;
                    lock.notifyAll();
                }
            }
        };
        this.stdout = out;
        this.transportOut = filter;
        return filter;
    }

    /** Blocks until standard input has ended and every request read before it was answered. */
    void await() throws InterruptedException {
        ended.await();
    }

    private void countAnswer(byte[] message) {
        JsonNode n;
        try {
            n = Args.JSON.readTree(message);
        } catch (JacksonException e) {
            return;
        }
        if (n != null && n.isObject() && n.has("id") && !n.has("method") && (n.has("result") || n.has("error"))) {
            synchronized (lock) {
                written++;
            }
        }
    }

    /** What became of one line. */
    private record Verdict(boolean pass, boolean request, JsonNode id, int code, String message) {
        static final Verdict SKIP = new Verdict(false, false, null, 0, null);

        static Verdict error(JsonNode id, int code, String message) {
            return new Verdict(false, false, id, code, message);
        }
    }

    /**
     * Whether the transport can read a line, judged as it reads one: decoded as UTF-8, one JSON object (nothing
     * after it), a string {@code method}, a string or number {@code id}, a response's error an object with an
     * integer code. What it would fail on and then stop reading is answered here instead.
     */
    static Verdict judge(byte[] bytes) {
        String text = new String(bytes, StandardCharsets.UTF_8);
        if (text.isBlank()) {
            return Verdict.SKIP;
        }
        JsonNode n;
        try (JsonParser p = Args.JSON.createParser(text)) {
            n = Args.JSON.readTree(p);
            if (p.nextToken() != null) {
                return Verdict.error(null, -32700, "Parse error: more than one JSON value on a line; send one "
                        + "JSON-RPC message per line");
            }
        } catch (JacksonException e) {
            String why = Objects.requireNonNullElse(e.getOriginalMessage(), "malformed JSON");
            return Verdict.error(null, -32700, "Parse error: a line must be one JSON-RPC message in JSON ("
                    + (why.length() > 200 ? why.substring(0, 200) + "…" : why) + ")");
        }
        if (n == null || n.isMissingNode()) {
            return Verdict.SKIP;
        }
        if (n.isArray()) {
            return Verdict.error(null, -32600, "Invalid Request: batches are not supported; send one JSON-RPC "
                    + "message per line");
        }
        if (!n.isObject()) {
            return Verdict.error(null, -32600, "Invalid Request: a message is a JSON object with jsonrpc, method, "
                    + "id and params");
        }
        JsonNode id = n.get("id");
        if (id != null && !(id.isString() || id.isNumber() || id.isNull())) {
            return Verdict.error(null, -32600, "Invalid Request: id must be a string or a number");
        }
        JsonNode method = n.get("method");
        JsonNode version = n.get("jsonrpc");
        if (version != null && version.isContainer()) {
            return Verdict.error(id, -32600, "Invalid Request: jsonrpc must be \"2.0\"");
        }
        if (method != null && id != null && id.isNull()) {
            // MCP forbids a null id: the SDK's answer to one carries no id, was never counted as answered, and the
            // exit waited out its whole patience (two minutes) for it.
            return Verdict.error(null, -32600, "Invalid Request: a request's id must be a string or a number, not "
                    + "null (a notification has no id)");
        }
        if (method != null) {
            return method.isString() ? new Verdict(true, id != null, id, 0, null)
                    : Verdict.error(id, -32600, "Invalid Request: method must be a string");
        }
        JsonNode error = n.get("error");
        if (!n.has("result") && !n.has("error")) {
            return Verdict.error(id, -32600, "Invalid Request: a message needs a method (a request or a "
                    + "notification), or a result or an error (a response)");
        }
        boolean readable = error == null || error.isNull() || error.isObject()
                && (error.get("code") == null || error.get("code").canConvertToInt())
                && (error.get("message") == null || !error.get("message").isContainer());
        // A response cannot be answered: one the transport cannot read is dropped, said on standard error.
        return readable ? new Verdict(true, false, id, 0, null)
                : Verdict.error(id, 0, "a response whose error is not an object with an integer code");
    }

    private void answer(Verdict v) {
        OutputStream raw = stdout;
        OutputStream monitor = transportOut;
        LOG.warn("MCP over stdio: a line from the client was not passed on: {}", v.message());
        if (v.code() == 0 || raw == null) {
            return;
        }
        ObjectNode reply = JsonNodeFactory.instance.objectNode();
        reply.put("jsonrpc", "2.0");
        reply.set("id", v.id() == null ? JsonNodeFactory.instance.nullNode() : v.id());
        reply.putObject("error").put("code", v.code()).put("message", v.message());
        byte[] line = (Args.JSON.writeValueAsString(reply) + "\n").getBytes(StandardCharsets.UTF_8);
        // The transport writes each message and its newline under this monitor: this line never lands inside one.
        synchronized (monitor) {
            try {
                raw.write(line);
                raw.flush();
            } catch (IOException e) {
                LOG.debug("answering a line over stdio", e);
            }
        }
    }

    private void awaitAnswers() {
        long deadline = System.nanoTime() + patience.toNanos();
        synchronized (lock) {
            while (answers < requests) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return;
                }
                try {
                    lock.wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** Standard input as the transport reads it: the lines it can read, each ended by a newline. */
    private final class Lines extends InputStream {
        private final InputStream in;
        private final byte[] chunk = new byte[64 * 1024];
        private final ByteArrayOutputStream line = new ByteArrayOutputStream();
        private final ByteArrayOutputStream passed = new ByteArrayOutputStream();
        private byte[] ready = new byte[0];
        private int at;
        private boolean overlong;
        private boolean afterReturn;
        private boolean eof;

        Lines(InputStream in) {
            this.in = in;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            Objects.checkFromIndexSize(off, len, b.length);
            if (len == 0) {
                return 0;
            }
            while (at == ready.length) {
                if (eof) {
                    awaitAnswers();
                    ended.countDown();
                    return -1;
                }
                fill();
            }
            int k = Math.min(len, ready.length - at);
            System.arraycopy(ready, at, b, off, k);
            at += k;
            return k;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }

        private void fill() throws IOException {
            int n = in.read(chunk);
            if (n < 0) {
                if (line.size() > 0 || overlong) {
                    end();
                }
                eof = true;
            }
            for (int i = 0; i < n; i++) {
                byte c = chunk[i];
                boolean newlineAfterReturn = afterReturn && c == '\n';
                afterReturn = c == '\r';
                if (c == '\n' || c == '\r') {
                    // "\r\n" ends one line, as the transport reads it.
                    if (!newlineAfterReturn) {
                        end();
                    }
                } else if (line.size() < MAX_LINE_BYTES) {
                    line.write(c);
                } else {
                    overlong = true;
                }
            }
            ready = passed.toByteArray();
            passed.reset();
            at = 0;
        }

        private void end() {
            Verdict v = overlong ? Verdict.error(null, -32600, "Invalid Request: a message over "
                    + MAX_LINE_BYTES / (1024 * 1024) + " MiB; send documents' contents by path (start_document_ingest)")
                    : judge(line.toByteArray());
            if (v.pass()) {
                passed.writeBytes(line.toByteArray());
                passed.write('\n');
                if (v.request()) {
                    synchronized (lock) {
                        requests++;
                    }
                }
            } else if (v.message() != null) {
                answer(v);
            }
            line.reset();
            overlong = false;
        }
    }
}
