package io.polyrag.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The address a running {@code polyrag serve} answers on, kept in its data directory ({@code served-url}) while it
 * runs, so that a second command meeting the directory in use can name the real address instead of a guess.
 */
final class ServedUrl {
    static final String FILE = "served-url";

    private ServedUrl() {
    }

    static void write(Path dataDir, String url) {
        try {
            Files.writeString(dataDir.resolve(FILE), url + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            // Only a hint for other commands: serving goes on without it.
        }
    }

    static void delete(Path dataDir) {
        try {
            Files.deleteIfExists(dataDir.resolve(FILE));
        } catch (IOException e) {
            // As above.
        }
    }

    /** The address a running server wrote in {@code dataDir}, or null when none did. */
    static String written(Path dataDir) {
        try {
            String url = Files.readString(dataDir.resolve(FILE), StandardCharsets.UTF_8).strip();
            return url.matches("https?://[^\\s]{1,200}") ? url : null;
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * The address the server holding {@code dataDir} wrote, or else the configured host and port (a host of
     * 0.0.0.0 or :: answers on loopback too).
     */
    static String read(Path dataDir, String host, int port) {
        try {
            String url = Files.readString(dataDir.resolve(FILE), StandardCharsets.UTF_8).strip();
            if (url.matches("https?://[^\\s]{1,200}")) {
                return url;
            }
        } catch (IOException e) {
            // No server wrote one: fall back to the configuration.
        }
        String h = host.equals("0.0.0.0") || host.equals("::") ? "127.0.0.1" : host;
        return "http://" + (h.contains(":") ? "[" + h + "]" : h) + ":" + port;
    }
}
