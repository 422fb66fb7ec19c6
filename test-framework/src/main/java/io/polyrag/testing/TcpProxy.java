package io.polyrag.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP relay on a loopback port in front of a real server, to take the server away from a client and give it back
 * without stopping it: {@link #cut()} closes every relayed connection and closes new ones at once (the client sees
 * what it sees when a database or search node goes down), {@link #restore()} relays again.
 */
public final class TcpProxy implements AutoCloseable {
    private final ServerSocket server;
    private final String host;
    private final int port;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile boolean cut;
    private volatile long delayMillis;

    public TcpProxy(String host, int port) throws IOException {
        this.host = host;
        this.port = port;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().name("tcp-proxy-accept").start(this::accept);
    }

    /** The port clients connect to. */
    public int port() {
        return server.getLocalPort();
    }

    /** Drops every connection and refuses (closes at once) new ones until {@link #restore()}. */
    public void cut() {
        cut = true;
        open.forEach(TcpProxy::closeQuietly);
        open.clear();
    }

    public void restore() {
        cut = false;
        delayMillis = 0;
    }

    /**
     * Holds every chunk relayed from the server for {@code delay} before passing it on: a server that answers slowly
     * (a long query, a saturated disk) while it stays up. {@link #restore()} ends it.
     */
    public void slow(Duration delay) {
        delayMillis = delay.toMillis();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                if (cut) {
                    closeQuietly(client);
                    continue;
                }
                Socket upstream;
                try {
                    upstream = new Socket(host, port);
                } catch (IOException e) {
                    closeQuietly(client);
                    continue;
                }
                open.add(client);
                open.add(upstream);
                if (cut) {
                    // cut() ran while this one was being connected.
                    closeQuietly(client);
                    closeQuietly(upstream);
                    continue;
                }
                Thread.ofVirtual().start(() -> pump(client, upstream, false));
                Thread.ofVirtual().start(() -> pump(upstream, client, true));
            } catch (IOException e) {
                // closed, or the upstream refused: the client's connection ends
            }
        }
    }

    private void pump(Socket from, Socket to, boolean fromServer) {
        byte[] buffer = new byte[16 * 1024];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                long delay = delayMillis;
                if (fromServer && delay > 0) {
                    Thread.sleep(delay);
                }
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // one side went away
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            closeQuietly(from);
            closeQuietly(to);
            open.remove(from);
            open.remove(to);
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    @Override
    public void close() throws IOException {
        cut();
        server.close();
    }
}
