package io.polyrag.core.config;

import io.polyrag.core.ConfigException;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The effective configuration: every declared {@link Setting} resolved from, in rising precedence, its default, the
 * config file, the environment and explicit overrides (command-line flags).
 *
 * <p>Loading validates everything at once and fails with one {@link ConfigException} listing every problem. Unknown
 * keys in the config file are errors (a typo must not be silently ignored); unknown {@code POLYRAG_} environment
 * variables are reported as warnings. Immutable and thread-safe.
 */
public final class Config {
    /** Where a value came from. */
    public enum Origin { DEFAULT, FILE, ENVIRONMENT, OVERRIDE }

    private final Map<Setting<?>, Object> values;
    private final Map<Setting<?>, Origin> origins;
    private final List<String> warnings;
    /** The environment's OpenTelemetry variables ({@code OTEL_*}): the standard's, read by its SDK, not settings. */
    private Map<String, String> otel = Map.of();

    private Config(Map<Setting<?>, Object> values, Map<Setting<?>, Origin> origins, List<String> warnings) {
        this.values = values;
        this.origins = origins;
        this.warnings = List.copyOf(warnings);
    }

    /** Only the defaults, plus overrides: for tests and embedding polyrag in another program. */
    public static Config defaults(Map<String, String> overrides) {
        return load(Map.of(), overrides);
    }

    /** The process's real configuration: its environment, the config file it names, and the given overrides. */
    public static Config fromEnvironment(Map<String, String> overrides) {
        return load(System.getenv(), overrides);
    }

    /**
     * Resolves every setting.
     *
     * @param environment environment variables (only {@code POLYRAG_*} ones are read)
     * @param overrides highest-precedence values, by dotted key or environment name
     */
    public static Config load(Map<String, String> environment, Map<String, String> overrides) {
        List<String> errors = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        Map<String, Setting<?>> byName = index();
        Map<Setting<?>, String> fromOverrides = byKey(overrides, byName, "override", errors);
        Map<Setting<?>, String> fromEnv = environment(environment, byName, warnings);
        Map<Setting<?>, String> fromFile = Map.of();
        String fileRaw = firstNonNull(fromOverrides.get(Settings.CONFIG_FILE), fromEnv.get(Settings.CONFIG_FILE));
        if (fileRaw != null && !fileRaw.isBlank()) {
            fromFile = byKey(readFile(Path.of(fileRaw)), byName, "config file " + fileRaw, errors);
            // The environment wins over the file, silently until now: an image's own POLYRAG_DATA_DIR made a file's
            // data.dir a line nobody read (and the data went to the image's volume).
            for (Map.Entry<Setting<?>, String> e : fromFile.entrySet()) {
                Setting<?> s = e.getKey();
                if (!fromOverrides.containsKey(s) && fromEnv.containsKey(s)
                        && !fromEnv.get(s).strip().equals(e.getValue().strip())) {
                    warnings.add(s.key() + " in config file " + fileRaw + " is overridden by " + s.env()
                            + " from the environment (the environment wins; unset it to use the file's value)");
                }
            }
        }
        Map<Setting<?>, Object> values = new LinkedHashMap<>();
        Map<Setting<?>, Origin> origins = new LinkedHashMap<>();
        for (Setting<?> s : Settings.all()) {
            resolve(s, fromOverrides, fromEnv, fromFile, fileRaw, values, origins, errors);
        }
        if (!errors.isEmpty()) {
            throw new ConfigException("invalid configuration:\n  - " + String.join("\n  - ", errors));
        }
        // One setting turns both arms on: the RDF arm follows the graph arm unless set itself.
        if (origins.get(Settings.RDF_ENABLED) == Origin.DEFAULT) {
            values.put(Settings.RDF_ENABLED, values.get(Settings.GRAPH_ENABLED));
        }
        Config config = new Config(values, origins, warnings);
        Map<String, String> otel = new TreeMap<>();
        environment.forEach((k, v) -> {
            if (k.startsWith("OTEL_")) {
                otel.put(k, v);
            }
        });
        config.otel = Map.copyOf(otel);
        Settings.validate(config);
        return config;
    }

    /**
     * The OpenTelemetry variables ({@code OTEL_*}) of the environment this configuration was loaded from: whether
     * traces are on is decided by them (docs/deploy.md, "Traces").
     */
    public Map<String, String> otel() {
        return otel;
    }

    private static void resolve(Setting<?> s, Map<Setting<?>, String> overrides, Map<Setting<?>, String> env,
            Map<Setting<?>, String> file, String fileName, Map<Setting<?>, Object> values,
            Map<Setting<?>, Origin> origins, List<String> errors) {
        String raw;
        Origin origin;
        String where;
        if (overrides.containsKey(s)) {
            raw = overrides.get(s);
            origin = Origin.OVERRIDE;
            where = "the command line";
        } else if (env.containsKey(s)) {
            raw = env.get(s);
            origin = Origin.ENVIRONMENT;
            where = "the environment";
        } else if (file.containsKey(s)) {
            raw = file.get(s);
            origin = Origin.FILE;
            where = "config file " + fileName;
        } else {
            values.put(s, s.defaultValue());
            origins.put(s, Origin.DEFAULT);
            return;
        }
        try {
            values.put(s, s.parse(raw, where));
            origins.put(s, origin);
        } catch (ConfigException e) {
            errors.add(e.getMessage());
        }
    }

    /** The value of a declared setting; null only for an optional setting that is unset. */
    @SuppressWarnings("unchecked")
    public <T> T get(Setting<T> setting) {
        if (!values.containsKey(setting)) {
            throw new IllegalArgumentException("setting " + setting.key() + " is not declared in Settings");
        }
        return (T) values.get(setting);
    }

    /** This configuration with one setting changed (for a component that needs another value than the rest). */
    public <T> Config with(Setting<T> setting, T value) {
        get(setting);
        Map<Setting<?>, Object> v = new HashMap<>(values);
        v.put(setting, value);
        Map<Setting<?>, Origin> o = new HashMap<>(origins);
        o.put(setting, Origin.OVERRIDE);
        Config c = new Config(v, o, warnings);
        c.otel = otel;
        return c;
    }

    public Origin origin(Setting<?> setting) {
        return origins.get(setting);
    }

    /** Problems that did not stop loading, such as unknown {@code POLYRAG_} environment variables. */
    public List<String> warnings() {
        return warnings;
    }

    /** One line per setting: name, value (secrets masked) and where it came from. */
    public String describe() {
        StringBuilder sb = new StringBuilder();
        int width = Settings.all().stream().mapToInt(s -> s.env().length()).max().orElse(0);
        for (Setting<?> s : Settings.all()) {
            Object v = values.get(s);
            String shown = v == null ? "(unset)" : "".equals(v) ? "(empty)" : s.isSecret() ? "****"
                    : masked(Setting.render(v));
            sb.append(String.format(Locale.ROOT, "%-" + width + "s  %s  [%s]%n", s.env(), shown,
                    origins.get(s).name().toLowerCase(Locale.ROOT)));
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return describe();
    }

    /**
     * A value with the secrets a URL may carry masked: a {@code password=} parameter (a JDBC URL's) and the password
     * of {@code user:password@} (a connection string's) — settings not secret themselves that may hold one.
     */
    static String masked(String value) {
        return PostgresConnection.redact(value).replaceAll("(://[^/@:\\s]*:)[^/@\\s]*@", "$1***@");
    }

    private static Map<String, Setting<?>> index() {
        Map<String, Setting<?>> byName = new HashMap<>();
        for (Setting<?> s : Settings.all()) {
            byName.put(s.key(), s);
            byName.put(s.env(), s);
        }
        return byName;
    }

    private static Map<Setting<?>, String> byKey(Map<String, String> raw, Map<String, Setting<?>> byName,
            String origin, List<String> errors) {
        Map<Setting<?>, String> out = new HashMap<>();
        raw.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
            Setting<?> s = byName.get(e.getKey().trim());
            if (s == null) {
                errors.add("unknown setting '" + e.getKey() + "' in " + origin + suggestion(e.getKey()));
            } else {
                out.put(s, e.getValue());
            }
        });
        return out;
    }

    private static Map<Setting<?>, String> environment(Map<String, String> env, Map<String, Setting<?>> byName,
            List<String> warnings) {
        Map<Setting<?>, String> out = new HashMap<>();
        // POLYRAG_TEST_* belong to the test harness (which servers the tests use), not to polyrag's settings.
        env.keySet().stream().filter(k -> k.startsWith("POLYRAG_") && !k.startsWith("POLYRAG_TEST_")).sorted()
                .forEach(k -> {
            Setting<?> s = byName.get(k);
            if (s == null) {
                warnings.add("ignoring unknown environment variable " + k + suggestion(k));
            } else {
                out.put(s, env.get(k));
            }
        });
        return out;
    }

    private static Map<String, String> readFile(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new ConfigException(Settings.CONFIG_FILE.env() + "=" + file
                    + " does not name a readable file: create it or unset " + Settings.CONFIG_FILE.env());
        }
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (IOException | IllegalArgumentException e) {
            throw new ConfigException("cannot read config file " + file + ": " + e.getMessage(), e);
        }
        Map<String, String> out = new HashMap<>();
        p.stringPropertyNames().forEach(k -> out.put(k, p.getProperty(k)));
        return out;
    }

    /** "did you mean" by edit distance over both spellings of every setting. */
    private static String suggestion(String name) {
        String wanted = bare(name.toUpperCase(Locale.ROOT).replace('.', '_'));
        return Settings.all().stream()
                .min(Comparator.comparingInt(s -> distance(bare(s.env()), wanted)))
                .filter(s -> distance(bare(s.env()), wanted) <= Math.max(2, wanted.length() / 5))
                .map(s -> ": did you mean " + (name.contains(".") ? s.key() : s.env()) + "?")
                .orElse(": see docs/configuration.md for the settings that exist");
    }

    private static String bare(String env) {
        return env.startsWith("POLYRAG_") ? env.substring(8) : env;
    }

    private static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    private static String firstNonNull(String a, String b) {
        return a != null ? a : b;
    }
}
