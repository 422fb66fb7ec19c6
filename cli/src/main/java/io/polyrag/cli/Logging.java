package io.polyrag.cli;

import java.util.logging.Level;
import java.util.logging.Logger;
import org.slf4j.bridge.SLF4JBridgeHandler;

/**
 * Routes logs to stderr at the configured level and format ({@code logback.xml} reads the properties set here);
 * libraries' start-up chatter is kept to warnings unless the level is {@code debug}.
 */
final class Logging {
    /** Held so java.util.logging cannot collect the configured loggers and forget their levels. */
    private static final Logger LUCENE = Logger.getLogger("org.apache.lucene");
    private static final Logger VECTORIZATION = Logger.getLogger("org.apache.lucene.internal.vectorization");

    private Logging() {
    }

    /** @param jit how the launcher set the JIT ({@code quick}: its first tier only) */
    private static volatile boolean json;

    /** Whether the configuration asked for JSON logs (POLYRAG_LOG_FORMAT=json); false before it is read. */
    static boolean json() {
        return json;
    }

    static void configure(String level, String format, String jit) {
        json = "json".equalsIgnoreCase(format.strip());
        System.setProperty("polyrag.log.level", level);
        System.setProperty("polyrag.log.format", format);
        // java.util.logging's lines go through the same output and format as the rest.
        if (!SLF4JBridgeHandler.isInstalled()) {
            SLF4JBridgeHandler.removeHandlersForRootLogger();
            SLF4JBridgeHandler.install();
        }
        if ("debug".equals(level)) {
            System.setProperty("polyrag.log.libraries", "debug");
            System.setProperty("polyrag.log.javalin", "debug");
            System.setProperty("polyrag.log.djl", "debug");
        } else {
            LUCENE.setLevel(Level.WARNING);
            if ("quick".equals(jit)) {
                // A short command runs with the JIT's first tier only (the launcher's choice): Lucene then warns that
                // its vector code needs the second; for one search the plain code is as fast.
                VECTORIZATION.setLevel(Level.SEVERE);
            }
        }
    }
}
