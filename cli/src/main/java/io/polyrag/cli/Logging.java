package io.polyrag.cli;

import java.util.logging.Level;
import java.util.logging.Logger;

/** Routes logs to stderr at the configured level; libraries' start-up chatter is kept to warnings. */
final class Logging {
    /** Held so java.util.logging cannot collect the configured loggers and forget their levels. */
    private static final Logger LUCENE = Logger.getLogger("org.apache.lucene");

    private Logging() {
    }

    static void configure(String level) {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", level);
        System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
        System.setProperty("org.slf4j.simpleLogger.showDateTime", "true");
        System.setProperty("org.slf4j.simpleLogger.dateTimeFormat", "HH:mm:ss.SSS");
        System.setProperty("org.slf4j.simpleLogger.showShortLogName", "true");
        if (!"debug".equals(level)) {
            for (String noisy : new String[] {"org.eclipse.jetty", "io.javalin", "org.h2"}) {
                System.setProperty("org.slf4j.simpleLogger.log." + noisy, "warn");
            }
            // Javalin logs "Failed to start Javalin" before rethrowing; polyrag reports the cause itself, once.
            System.setProperty("org.slf4j.simpleLogger.log.io.javalin.Javalin", "off");
            // The tokenizer library probes for a GPU and warns when there is none; we never use one.
            System.setProperty("org.slf4j.simpleLogger.log.ai.djl", "error");
            LUCENE.setLevel(Level.WARNING);
        }
    }
}
