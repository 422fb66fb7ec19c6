package io.polyrag.core.http;

import java.util.Locale;

/**
 * An API key given to a client (a flag, a file, an environment variable) made fit for an {@code Authorization}
 * header, or refused by the position of what does not belong, never quoted: the JDK's HTTP client refuses a header
 * value with a line break or a character above 255 with a message quoting the whole header, key and all.
 */
public final class BearerKeys {
    private BearerKeys() {
    }

    /**
     * The key stripped, without a byte-order mark (a key file saved by PowerShell); null when nothing is left.
     *
     * @param what how the key was given, to name in the error ("--api-key", "POLYRAG_MCP_API_KEY")
     * @throws IllegalArgumentException naming {@code what} and the position of a character a key never holds
     */
    public static String checked(String raw, String what) {
        String key = raw == null ? "" : raw.strip();
        key = key.startsWith("\uFEFF") ? key.substring(1).strip() : key;
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c < 0x21 || c > 0x7e) {
                throw new IllegalArgumentException(String.format(Locale.ROOT, "%s holds U+%04X at position %d, which "
                        + "a key never does (a line break, a space or an invisible character pasted with it?): give "
                        + "the key alone", what, (int) c, i));
            }
        }
        return key.isEmpty() ? null : key;
    }
}
