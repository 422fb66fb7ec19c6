package io.polyrag.mcp;

import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import tools.jackson.databind.JsonNode;

/**
 * Keeps standard input open, as the SDK's stdio transport sees it, until every request read has been answered: the
 * transport stops writing the moment its input ends, so without this a tool call still running when the client
 * closes stdin would never answer. Requests are counted as their lines are read, answers as their lines are
 * written; at end of input the reader waits (up to a bound) for the two to meet, then ends.
 */
final class StdioGate {
    private final Object lock = new Object();
    private final CountDownLatch ended = new CountDownLatch(1);
    private final Duration patience;
    private long requests;
    private long answers;
    private long written;

    StdioGate(Duration patience) {
        this.patience = patience;
    }

    InputStream input(InputStream in) {
        return new FilterInputStream(in) {
            private final ByteArrayOutputStream line = new ByteArrayOutputStream();

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                int n = read(one, 0, 1);
                return n < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                int n = super.read(b, off, len);
                if (n < 0) {
                    awaitAnswers();
                    ended.countDown();
                    return -1;
                }
                scan(line, b, off, n, true);
                return n;
            }
        };
    }

    OutputStream output(OutputStream out) {
        return new FilterOutputStream(out) {
            private final ByteArrayOutputStream line = new ByteArrayOutputStream();

            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                out.write(b, off, len);
                scan(line, b, off, len, false);
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
    }

    /** Blocks until standard input has ended and every request read before it was answered. */
    void await() throws InterruptedException {
        ended.await();
    }

    private void scan(ByteArrayOutputStream line, byte[] b, int off, int n, boolean inbound) {
        for (int i = off; i < off + n; i++) {
            if (b[i] == '\n') {
                count(line.toByteArray(), inbound);
                line.reset();
            } else if (line.size() < 64 * 1024 * 1024) {
                line.write(b[i]);
            }
        }
    }

    private void count(byte[] message, boolean inbound) {
        JsonNode n;
        try {
            n = Args.JSON.readTree(message);
        } catch (RuntimeException e) {
            return;
        }
        if (n == null || !n.isObject() || !n.has("id")) {
            return;
        }
        boolean request = n.has("method");
        synchronized (lock) {
            if (inbound && request) {
                requests++;
            } else if (!inbound && !request && (n.has("result") || n.has("error"))) {
                written++;
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
}
