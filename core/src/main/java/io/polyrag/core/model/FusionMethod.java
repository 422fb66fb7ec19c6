package io.polyrag.core.model;

import io.polyrag.core.InvalidInputException;
import java.util.Locale;

/** How per-modality rankings become one: reciprocal rank fusion, or a weighted sum of normalised scores. */
public enum FusionMethod {
    RRF,
    WEIGHTED;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static FusionMethod parse(String name) {
        String wanted = name == null ? "" : name.trim().toUpperCase(Locale.ROOT);
        for (FusionMethod f : values()) {
            if (f.name().equals(wanted)) {
                return f;
            }
        }
        throw new InvalidInputException("unknown fusion method '" + name + "': use rrf or weighted");
    }

    /** The wire name, so serialisers and messages show what users type. */
    @Override
    public String toString() {
        return wireName();
    }
}
