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

    /** Records the address with this process's id: a file left by a server that died is known for what it is. */
    static void write(Path dataDir, String url) {
        try {
            Files.writeString(dataDir.resolve(FILE), url + "\n" + ProcessHandle.current().pid() + "\n",
                    StandardCharsets.UTF_8);
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

    /**
     * The address a server wrote in {@code dataDir}, or null when none did or the process that wrote it has ended
     * (a server killed before it could delete the file: another program may answer on that port now).
     */
    static String written(Path dataDir) {
        try {
            String[] lines = Files.readString(dataDir.resolve(FILE), StandardCharsets.UTF_8).strip().split("\n");
            if (lines.length < 2 || !lines[0].strip().matches("https?://[^\\s]{1,200}")
                    || !lines[1].strip().matches("\\d{1,12}")) {
                return null;
            }
            boolean alive = ProcessHandle.of(Long.parseLong(lines[1].strip())).map(ProcessHandle::isAlive)
                    .orElse(false);
            return alive ? lines[0].strip() : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * The address the server holding {@code dataDir} wrote, or else the configured host and port (a host of
     * 0.0.0.0 or :: answers on loopback too).
     */
    static String read(Path dataDir, String host, int port) {
        try {
            String url = Files.readString(dataDir.resolve(FILE), StandardCharsets.UTF_8).strip().split("\n")[0]
                    .strip();
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
