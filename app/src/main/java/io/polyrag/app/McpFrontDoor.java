package io.polyrag.app;

import io.polyrag.core.config.Config;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.util.List;
import java.util.ServiceLoader;

/**
 * The MCP front door as a launcher starts it: tools for agents, each one request to the REST API at {@code backend}.
 * Found through {@link ServiceLoader}, so the command line starts it without importing it.
 */
public interface McpFrontDoor extends AutoCloseable {

    /** The port a networked transport listens on; -1 for stdio. */
    int port();

    /** Blocks until the transport ends: standard input closed (stdio), or {@link #close()}. */
    void await() throws InterruptedException;

    /** Stops; idempotent. */
    @Override
    void close();

    /**
     * How to start it.
     *
     * @param transport {@code stdio}, {@code sse} or {@code streamable-http}
     * @param backend the REST API's base URL
     * @param apiKey the key sent to the REST API, or null (local mode)
     * @param host the address a networked transport binds to
     * @param port its port; 0 picks a free one
     * @param in standard input (stdio)
     * @param out standard output (stdio): nothing else may write to it
     * @param config the settings (JWT verification, allowed origins and hosts, timeouts)
     */
    record Options(String transport, URI backend, String apiKey, String host, int port, InputStream in,
            OutputStream out, Config config) {
    }

    /** Starts an MCP front door. */
    interface Factory {
        McpFrontDoor start(Options options);
    }

    /** Starts the one MCP front door on the class path; fails naming the problem when there is none or several. */
    static McpFrontDoor start(Options options) {
        List<Factory> found = ServiceLoader.load(Factory.class).stream().map(ServiceLoader.Provider::get).toList();
        if (found.size() != 1) {
            throw new IllegalStateException("expected one MCP front door on the class path, found " + found.size()
                    + ": the polyrag-mcp module provides it");
        }
        return found.getFirst().start(options);
    }
}
