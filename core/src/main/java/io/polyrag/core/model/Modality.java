package io.polyrag.core.model;

import io.polyrag.core.InvalidInputException;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The kinds of retrieval; {@link #wireName()} is the name used everywhere users see one (CLI, JSON, API, config). */
public enum Modality {
    VECTOR("vector"),
    FULLTEXT("fulltext"),
    GRAPH("graph"),
    RDF("rdf");

    private final String wireName;

    Modality(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /** Parses a wire name, case-insensitively; an unknown name fails with the list of valid ones. */
    public static Modality parse(String name) {
        String wanted = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
        for (Modality m : values()) {
            if (m.wireName.equals(wanted)) {
                return m;
            }
        }
        throw new InvalidInputException("unknown modality '" + name + "': use one of "
                + Arrays.stream(values()).map(Modality::wireName).collect(Collectors.joining(", ")));
    }

    @Override
    public String toString() {
        return wireName;
    }
}
