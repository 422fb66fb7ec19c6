package io.polyrag.cli;

import io.polyrag.app.Polyrag;
import io.polyrag.app.api.Version;
import io.polyrag.core.ConfigException;
import io.polyrag.core.config.Config;
import io.polyrag.core.config.Settings;
import io.polyrag.core.fs.Globs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** The top-level command and the options every sub-command shares. */
@Command(name = "polyrag", mixinStandardHelpOptions = true, versionProvider = PolyragCommand.BuildVersion.class,
        description = "Index documents into vector and full-text stores at once; search them with fused retrieval.",
        subcommands = {ServeCommand.class, IngestCommand.class, SearchCommand.class, AskCommand.class, EvalCommand.class,
            CheckCommand.class, ReindexCommand.class, ConfigCommand.class, KeysCommand.class, TenantsCommand.class, McpCommand.class,
            WarmUpCommand.class, JudgmentsCommand.class, TuneCommand.class, SmokeCommand.class},
        footer = {"", "Settings: environment variables POLYRAG_*, a properties file (--config), or --set key=value.",
            "Exit codes: 0 ok, 1 some inputs failed (check: stores differ), 2 bad usage or configuration (a port in"
                    + " use included), 3 unavailable (the data directory in use, a language model not answering),"
                    + " 4 internal error."})
public final class PolyragCommand implements Runnable {
    /** {@code --version}: the release and the commit it was built from. */
    static final class BuildVersion implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {Version.describe()};
        }
    }

    @Option(names = "--data-dir", scope = ScopeType.INHERIT, paramLabel = "DIR",
            description = "Data directory (POLYRAG_DATA_DIR; default ./data).")
    Path dataDir;

    @Option(names = "--config", scope = ScopeType.INHERIT, paramLabel = "FILE",
            description = "Properties file with settings (POLYRAG_CONFIG_FILE).")
    Path configFile;

    @Option(names = "--set", scope = ScopeType.INHERIT, paramLabel = "KEY=VALUE",
            description = "Set any setting, e.g. --set fusion.method=weighted (repeatable).")
    Map<String, String> settings = new LinkedHashMap<>();

    @Override
    public void run() {
        // The command line running it (its error stream is the caller's), not a new one writing to System.err.
        CommandLine cl = spec.commandLine();
        throw new CommandLine.ParameterException(cl, "name a command: " + String.join(", ", cl.getSubcommands()
                .entrySet().stream().filter(e -> !e.getValue().getCommandSpec().usageMessage().hidden())
                .map(Map.Entry::getKey).toList()) + " (polyrag COMMAND --help says what one does)");
    }

    /** The configuration: environment, file, then these flags. */
    private boolean warned;

    @Spec
    CommandLine.Model.CommandSpec spec;

    Config config(Map<String, String> more) {
        Map<String, String> overrides = new LinkedHashMap<>(settings);
        if (dataDir != null) {
            overrides.put(Settings.DATA_DIR.key(), dataDir.toString());
        }
        if (configFile != null) {
            overrides.put(Settings.CONFIG_FILE.key(), configFile.toString());
        }
        overrides.putAll(more);
        Config config = Config.fromEnvironment(overrides);
        Logging.configure(config.get(Settings.LOG_LEVEL), config.get(Settings.LOG_FORMAT), config.get(Settings.JIT));
        // Under JSON logs a warning is a log line like any other (a log shipper reads standard error as JSON);
        // otherwise the plain sentence a person reads.
        boolean json = "json".equalsIgnoreCase(config.get(Settings.LOG_FORMAT).strip());
        // Once per command: one that reads the configuration twice (serve with a folder, eval, ingest --sync)
        // printed each warning twice.
        List<String> warnings = warned ? List.of() : config.warnings();
        warned = true;
        warnings.forEach(w -> {
            if (json) {
                System.getLogger(PolyragCommand.class.getName()).log(System.Logger.Level.WARNING, w);
            } else {
                System.err.println("polyrag: warning: " + w);
            }
        });
        return config;
    }

    Polyrag open(Map<String, String> more) {
        return closedOnSignal(Polyrag.open(config(more)));
    }

    /**
     * Ctrl-C or SIGTERM closes {@code polyrag} (its model sessions, once their runs end) before the JVM's shutdown
     * hooks start: ONNX Runtime's own hook freed its environment under an embedding still running, and a stopped
     * {@code polyrag ingest} or {@code reindex} crashed in native code (exit 134, an hs_err file).
     */
    static Polyrag closedOnSignal(Polyrag polyrag) {
        StopSignals.install(polyrag::close);
        return polyrag;
    }

    /**
     * Opens for a command that reads or works on what is indexed ({@code search}, {@code ask}, {@code check},
     * {@code reindex}, {@code tune}, {@code judgments}, {@code eval --kb}): an embedded data directory that holds no
     * index is refused, not created empty. A typo in {@code --data-dir} answered "No hits" (or a consistent check)
     * and left a new, empty data directory behind.
     */
    Polyrag openIndexed(Map<String, String> more) {
        return closedOnSignal(Polyrag.open(indexed(config(more))));
    }

    /**
     * The configuration for a command that reads or changes what a data directory already holds ({@code keys
     * list|revoke}, {@code tenants quota|usage}): refused, as for {@link #openIndexed}, where no index is. A quota
     * set in a mistyped directory was stored there, printed and never enforced.
     */
    Config configIndexed() {
        return indexed(config(Map.of()));
    }

    private static Config indexed(Config config) {
        Path dir = config.get(Settings.DATA_DIR).toAbsolutePath().normalize();
        // A file in its place is said by the open ("is not a folder").
        boolean noIndex = !Files.exists(dir) || Files.isDirectory(dir) && !Files.isDirectory(dir.resolve("catalog"));
        // A folder a server is serving is asked through it, whatever catalog that server was started with.
        if ("h2".equals(config.get(Settings.CATALOG_BACKEND)) && noIndex && ServedUrl.written(dir) == null) {
            throw new ConfigException("no index in " + dir + " (" + (Files.exists(dir) ? "it holds no catalog"
                    : "it does not exist") + "): name the data directory that holds one with --data-dir or "
                    + "POLYRAG_DATA_DIR, or index something first with 'polyrag ingest PATH'");
        }
        return config;
    }

    /**
     * Opens for a command that submits a job and waits for it ({@code reindex}, {@code tune}): with the embedded
     * catalog nothing but this process can run it, so its workers are on whatever the configuration says for the
     * server (a setting of "ingest.workers=0" for a serving-only replica made the command wait for ever).
     */
    Polyrag openToRunJobs() {
        // No source scheduling: it queued every tenant's due syncs (and watched their folders) for a command that
        // exits once its own job is done, leaving them cut short.
        Map<String, String> more = Map.of(Settings.SYNC_SCHEDULE.key(), "false");
        Config c = indexed(config(more));
        if (!"h2".equals(c.get(Settings.CATALOG_BACKEND))
                || c.get(Settings.WORKER_ENABLED) && c.get(Settings.INGEST_WORKERS) > 0) {
            return closedOnSignal(Polyrag.open(c));
        }
        return closedOnSignal(Polyrag.open(config(Map.of(Settings.SYNC_SCHEDULE.key(), "false",
                Settings.WORKER_ENABLED.key(), "true", Settings.INGEST_WORKERS.key(), "1"))));
    }

    static String plural(int n, String word) {
        return n + " " + word + (n == 1 ? "" : "s");
    }

    /**
     * Globs as given, checked: repeated, or comma-separated outside braces and brackets ({@code *.md,*.txt} is two,
     * {@code *.{md,txt}} one: split at its comma it matched nothing); {@code \\,} is a comma of a name.
     */
    static List<String> globs(List<String> values) {
        List<String> out = new ArrayList<>();
        for (String v : values == null ? List.<String>of() : values) {
            int depth = 0;
            int from = 0;
            for (int i = 0; i <= v.length(); i++) {
                char c = i < v.length() ? v.charAt(i) : ',';
                if (c == '\\') {
                    i++; // an escaped character ('\\,' a comma in a name) splits nothing
                    continue;
                }
                depth += c == '{' || c == '[' ? 1 : c == '}' || c == ']' ? -1 : 0;
                if (c == ',' && (depth <= 0 || i == v.length())) { // the end takes the rest, braces unclosed or not
                    String g = v.substring(from, i).strip();
                    if (!g.isEmpty()) {
                        out.add(g);
                    }
                    from = i + 1;
                    depth = 0;
                }
            }
        }
        return Globs.checked(out, "include/exclude");
    }

    static List<String> split(List<String> values) {
        return values == null ? List.of() : values.stream().flatMap(v -> Arrays.stream(v.split(",")))
                .map(String::strip).filter(s -> !s.isEmpty()).toList();
    }
}
