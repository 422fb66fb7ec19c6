package io.polyrag.app.api;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * The build this code came from: its version and the commit it was built from, written into the jar by the build
 * ({@code version.properties}); "unknown" for what the build could not tell (a source tree that is no git checkout).
 */
public final class Version {
    /** The release version, e.g. {@code 0.1.0-SNAPSHOT}. */
    public static final String VERSION;
    /** The commit the build was made from, abbreviated, or {@code unknown}. */
    public static final String COMMIT;

    static {
        Properties p = new Properties();
        try (InputStream in = Version.class.getResourceAsStream("/io/polyrag/app/version.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            // the defaults below
        }
        VERSION = value(p, "version");
        COMMIT = value(p, "commit");
    }

    private Version() {
    }

    private static String value(Properties p, String key) {
        String v = p.getProperty(key, "").strip();
        return v.isEmpty() || v.startsWith("${") ? "unknown" : v;
    }

    /** {@code polyrag 0.1.0 (commit 1a2b3c4d5e6f)}. */
    public static String describe() {
        return "polyrag " + VERSION + " (commit " + COMMIT + ")";
    }
}
