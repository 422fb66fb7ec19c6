package io.polyrag.core.model;

import java.util.Locale;

/**
 * What a chunk holds; tables and code are chunked by their own rules and never cut mid-row or mid-line. A figure's
 * chunk holds its caption (and the text read from the image); its bytes are in the blob store.
 */
public enum ChunkKind {
    PROSE,
    TABLE,
    CODE,
    FIGURE;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static ChunkKind parse(String wire) {
        return valueOf(wire.toUpperCase(Locale.ROOT));
    }

    /** The wire name, so serialisers and messages show what users type. */
    @Override
    public String toString() {
        return wireName();
    }
}
