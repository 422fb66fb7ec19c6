package io.polyrag.core.config;

import io.polyrag.core.ConfigException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;

/**
 * One configuration setting, declared once: its key, environment variable, type, default, valid range and meaning.
 *
 * <p>The key is dotted ({@code vector.backend}); the environment variable is derived from it
 * ({@code POLYRAG_VECTOR_BACKEND}). A config file may use either spelling. Parsing failures and range violations
 * raise {@link ConfigException}s whose message names the setting, the value, the bound and the fix.
 *
 * @param <T> the value's type
 */
public final class Setting<T> {
    private final String key;
    private final String description;
    private final String typeName;
    private final T defaultValue;
    private final Function<String, T> parser;
    private final String range;
    private final boolean secret;

    private Setting(String key, String description, String typeName, T defaultValue, Function<String, T> parser,
            String range, boolean secret) {
        this.key = Objects.requireNonNull(key);
        this.description = Objects.requireNonNull(description);
        this.typeName = typeName;
        this.defaultValue = defaultValue;
        this.parser = parser;
        this.range = range;
        this.secret = secret;
    }

    public static Setting<String> string(String key, String defaultValue, String description) {
        return new Setting<>(key, description, "string", defaultValue, s -> s, "", false);
    }

    /**
     * The name of a backend, provider or parser: stripped and lower-cased as read, as every lookup of one matches it
     * ({@code POLYRAG_CATALOG_BACKEND=H2} was h2 to the catalog and not to a check that compared it with "h2"; a
     * trailing space in the settings file changed the ingest signature and indexed every file again).
     */
    public static Setting<String> name(String key, String defaultValue, String description) {
        return new Setting<>(key, description, "string", defaultValue, s -> s.strip().toLowerCase(Locale.ROOT), "",
                false);
    }

    public static Setting<Path> path(String key, Path defaultValue, String description) {
        return new Setting<>(key, description, "path", defaultValue, Setting::parsePath, "", false);
    }

    public static Setting<Boolean> bool(String key, boolean defaultValue, String description) {
        return new Setting<>(key, description, "boolean", defaultValue, Setting::parseBool, "true | false", false);
    }

    public static Setting<Integer> integer(String key, int defaultValue, int min, int max, String description) {
        return new Setting<>(key, description, "integer", defaultValue, raw -> {
            int v;
            try {
                v = Integer.parseInt(raw.trim());
            } catch (NumberFormatException e) {
                throw new ConfigException("not a whole number");
            }
            if (v < min || v > max) {
                throw new ConfigException("out of range [" + min + ", " + max + "]");
            }
            return v;
        }, "[" + min + ", " + max + "]", false);
    }

    public static Setting<Double> decimal(String key, double defaultValue, double min, double max,
            String description) {
        return new Setting<>(key, description, "number", defaultValue, raw -> {
            double v;
            try {
                v = Double.parseDouble(raw.trim());
            } catch (NumberFormatException e) {
                throw new ConfigException("not a number");
            }
            if (!(v >= min && v <= max)) {
                throw new ConfigException("out of range [" + fmt(min) + ", " + fmt(max) + "]");
            }
            return v;
        }, "[" + fmt(min) + ", " + fmt(max) + "]", false);
    }

    /** A string that must be one of {@code choices} (compared case-insensitively, stored lower-case). */
    public static Setting<String> choice(String key, String defaultValue, List<String> choices, String description) {
        List<String> allowed = List.copyOf(choices);
        return new Setting<>(key, description, "choice", defaultValue, raw -> {
            String v = raw.trim().toLowerCase(Locale.ROOT);
            if (!allowed.contains(v)) {
                throw new ConfigException("not one of " + String.join(", ", allowed));
            }
            return v;
        }, String.join(" | ", allowed), false);
    }

    /**
     * The same setting, masked wherever it is printed, and read stripped: a secret made from a file
     * ({@code kubectl create secret --from-file}, a CRLF env file) ends in a line break, which a database reported as
     * a wrong password (pointing at its URL) and S3 as a bad signature. A control character left inside is refused,
     * naming the setting, never the value.
     */
    public Setting<T> secret() {
        return new Setting<>(key, description, typeName, defaultValue, raw -> {
            String stripped = raw.strip();
            if (stripped.chars().anyMatch(Character::isISOControl)) {
                throw new ConfigException("holding a control character (a line break inside it?)");
            }
            return parser.apply(stripped);
        }, range, true);
    }

    /** Parses a raw value; the exception's message is complete (setting, value, bound, fix). */
    T parse(String raw, String origin) {
        try {
            return parser.apply(raw);
        } catch (ConfigException e) {
            String shown = secret ? "****" : "'" + raw + "'";
            String fix = defaultValue == null ? "" : " (default " + render(defaultValue) + ")";
            throw new ConfigException(env() + "=" + shown + " from " + origin + " is " + e.getMessage()
                    + ": set it to " + expected() + fix + ", or unset it");
        }
    }

    private String expected() {
        return switch (typeName) {
            case "integer" -> "a whole number in " + range;
            case "number" -> "a number in " + range;
            case "boolean" -> "true or false";
            case "choice" -> "one of " + range;
            default -> "a valid " + typeName;
        };
    }

    public String key() {
        return key;
    }

    public String env() {
        return "POLYRAG_" + key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    public String description() {
        return description;
    }

    public String typeName() {
        return typeName;
    }

    public T defaultValue() {
        return defaultValue;
    }

    public String range() {
        return range;
    }

    public boolean isSecret() {
        return secret;
    }

    /** The group a setting is listed under in docs: the first segment of its key. */
    public String group() {
        int dot = key.indexOf('.');
        return dot < 0 ? key : key.substring(0, dot);
    }

    static String render(Object value) {
        if (value == null) {
            return "";
        }
        if (value instanceof Double d) {
            return fmt(d);
        }
        return value.toString();
    }

    private static String fmt(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
    }

    private static Boolean parseBool(String raw) {
        return switch (raw.trim().toLowerCase(Locale.ROOT)) {
            case "true", "yes", "on", "1" -> true;
            case "false", "no", "off", "0" -> false;
            default -> throw new ConfigException("not a boolean");
        };
    }

    private static Path parsePath(String raw) {
        if (raw.isBlank()) {
            throw new ConfigException("an empty path");
        }
        String path = raw.trim();
        // A shell expands ~ only in a word of its own: --data-dir=~/x, --set data.dir=~/x and the settings file
        // kept it, and the data went to a folder named "~" under the working directory.
        if (path.equals("~") || path.startsWith("~/")) {
            path = System.getProperty("user.home") + path.substring(1);
        }
        try {
            return Path.of(path);
        } catch (InvalidPathException e) {
            throw new ConfigException("not a valid path (" + e.getReason() + ")");
        }
    }

    @Override
    public String toString() {
        return key;
    }
}
