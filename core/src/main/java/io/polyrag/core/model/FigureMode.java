package io.polyrag.core.model;

import io.polyrag.core.InvalidInputException;
import java.util.Locale;

/**
 * Which figures an ingest takes from PDFs and Office files: {@code auto} embedded images and vector drawings next to
 * a caption; {@code force} also every other region of vector drawings; {@code skip} none.
 */
public enum FigureMode {
    AUTO,
    FORCE,
    SKIP;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses {@code auto}, {@code force} or {@code skip}, any case; anything else is a clear error. */
    public static FigureMode parse(String wire) {
        String s = wire == null ? "" : wire.strip().toLowerCase(Locale.ROOT);
        return switch (s) {
            case "auto" -> AUTO;
            case "force" -> FORCE;
            case "skip" -> SKIP;
            default -> throw new InvalidInputException("figures must be auto, force or skip, was '"
                    + Ids.abbreviate(s, 20) + "'");
        };
    }

    @Override
    public String toString() {
        return wireName();
    }
}
