package io.polyrag.app;

import java.util.List;
import java.util.ServiceLoader;

/**
 * The HTTP front door as a launcher starts it. Found through {@link ServiceLoader}, so the command line serves the
 * REST API without importing it: front doors never import each other.
 */
public interface HttpFrontDoor extends AutoCloseable {

    /** The port it listens on (the one chosen when 0 was asked for). */
    int port();

    /** Stops listening; idempotent. */
    @Override
    void close();

    /** Starts a front door over a facade. */
    interface Factory {
        /**
         * Starts listening.
         *
         * @param maxRequestBytes largest request body, uploads included
         */
        HttpFrontDoor start(Polyrag polyrag, String host, int port, long maxRequestBytes);
    }

    /** Starts the one front door on the class path; fails naming the problem when there is none or several. */
    static HttpFrontDoor start(Polyrag polyrag, String host, int port, long maxRequestBytes) {
        List<Factory> found = ServiceLoader.load(Factory.class).stream().map(ServiceLoader.Provider::get).toList();
        if (found.size() != 1) {
            throw new IllegalStateException("expected one HTTP front door on the class path, found " + found.size()
                    + ": the polyrag-server module provides it");
        }
        return found.getFirst().start(polyrag, host, port, maxRequestBytes);
    }
}
