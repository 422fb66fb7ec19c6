package io.polyrag.server;

import io.javalin.http.Context;
import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.function.BooleanSupplier;
import org.eclipse.jetty.ee10.servlet.ServletContextRequest;
import org.eclipse.jetty.server.Request;

/**
 * Whether the client of a request being worked on has hung up, for synchronous work long enough to be worth
 * stopping (an inline text ingest): the work asks it between steps and stops without writing anything.
 *
 * <p>Jetty does not notice a client that closes while a handler runs: it reads the connection again only after the
 * response. So the connection's socket is also registered, read interest only, with a selector of this probe's own
 * (a channel may be registered with several), and a look, at most every half second, asks whether it is readable
 * with nothing to read: the end of the stream, the client gone. Bytes waiting (a pipelined request) are left for
 * Jetty. Nothing is read, so Jetty's own handling of the connection is untouched. Close it when the work ends.
 */
final class ClientProbe implements BooleanSupplier, AutoCloseable {
    private static final long INTERVAL_NANOS = 500_000_000L;
    private final SocketChannel channel;
    private final Selector selector;
    private long lastLook = System.nanoTime();
    private volatile boolean gone;

    private ClientProbe(SocketChannel channel, Selector selector) {
        this.channel = channel;
        this.selector = selector;
    }

    /** A probe of the request's connection; one that never says gone where the connection is not a plain socket. */
    static ClientProbe of(Context ctx) {
        try {
            Request core = ServletContextRequest
                    .getServletContextRequest(ctx.req());
            Object transport = core == null ? null : core.getConnectionMetaData().getConnection().getEndPoint()
                    .getTransport();
            if (transport instanceof SocketChannel ch && !ch.isBlocking()) {
                Selector selector = Selector.open();
                try {
                    ch.register(selector, SelectionKey.OP_READ);
                } catch (IOException | RuntimeException e) {
                    selector.close(); // a channel closed meanwhile: the selector's descriptors are not left open
                    throw e;
                }
                return new ClientProbe(ch, selector);
            }
        } catch (IOException | RuntimeException e) {
            // no probe: the work runs to its end, as before
        }
        return new ClientProbe(null, null);
    }

    @Override
    public synchronized boolean getAsBoolean() {
        if (gone || selector == null) {
            return gone;
        }
        long now = System.nanoTime();
        if (now - lastLook < INTERVAL_NANOS) {
            return false;
        }
        lastLook = now;
        try {
            if (!channel.isOpen()) {
                gone = true;
            } else if (selector.selectNow() > 0) {
                selector.selectedKeys().clear();
                gone = channel.socket().getInputStream().available() == 0;
            }
        } catch (IOException | RuntimeException e) {
            gone = true;
        }
        return gone;
    }

    @Override
    public synchronized void close() {
        if (selector != null) {
            try {
                selector.close();
            } catch (IOException e) {
                // nothing held
            }
        }
    }
}
