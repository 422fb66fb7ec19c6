package io.polyrag.cli;

import io.polyrag.app.HttpFrontDoor;
import io.polyrag.app.Polyrag;
import io.polyrag.app.api.PathIngest;
import io.polyrag.app.api.PathIngestReport;
import io.polyrag.app.api.SourceInfo;
import io.polyrag.app.api.SourceRegistration;
import io.polyrag.app.api.Status;
import io.polyrag.app.api.Version;
import io.polyrag.core.ConfigException;
import io.polyrag.core.ConflictException;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.PolyragException;
import io.polyrag.core.config.Config;
import io.polyrag.core.config.Settings;
import io.polyrag.core.model.ApiKey;
import io.polyrag.core.model.IngestReport;
import io.polyrag.core.model.KnowledgeBase;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.BindException;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** {@code polyrag serve [PATH...]}: the REST API; given paths, they are ingested in the background first. */
@Command(name = "serve", mixinStandardHelpOptions = true, description = "Serve the REST API; ingest PATHs in the background if given.")
final class ServeCommand implements Callable<Integer> {
    @ParentCommand
    PolyragCommand parent;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(arity = "0..*", paramLabel = "PATH", description = "Files or directories to ingest at start.")
    List<Path> paths = List.of();

    @Option(names = "--kb", paramLabel = "NAME", description = "Knowledge base for PATHs (default: default).")
    String kb;

    @Option(names = "--host", paramLabel = "ADDRESS", description = "Bind address (POLYRAG_HTTP_HOST).")
    String host;

    @Option(names = "--port", paramLabel = "PORT", description = "Port (POLYRAG_HTTP_PORT; 0 picks a free one).")
    Integer port;

    @Option(names = "--watch", paramLabel = "DIR", description = "Keep DIR in sync: registered as a source (once), "
            + "indexed now, then every change re-indexed and every deletion removed as it happens; repeatable.")
    List<Path> watch = List.of();

    // style: a command: its options checked and its output written, top to bottom as the user reads them
    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Map<String, String> flags = new LinkedHashMap<>();
        if (host != null) {
            flags.put(Settings.HTTP_HOST.key(), host);
        }
        if (port != null) {
            flags.put(Settings.HTTP_PORT.key(), port.toString());
        }
        Config config = parent.config(flags);
        // The folders given on the command line may be synced, beside any POLYRAG_SYNC_ALLOWED_ROOTS.
        List<String> roots = new ArrayList<>();
        if (!config.get(Settings.SYNC_ALLOWED_ROOTS).isBlank()) {
            roots.add(config.get(Settings.SYNC_ALLOWED_ROOTS));
        }
        for (Path p : watch) {
            if (!Files.isDirectory(p)) {
                throw new InvalidInputException("--watch " + p + ": not a folder");
            }
        }
        Stream.concat(paths.stream(), watch.stream()).filter(Files::isDirectory)
                .map(p -> p.toAbsolutePath().normalize().toString()).forEach(roots::add);
        if (!roots.isEmpty()) {
            flags.put(Settings.SYNC_ALLOWED_ROOTS.key(), String.join(",", roots));
            config = parent.config(flags);
        }
        // The port is bound first and answers while the stores open (/health 200 "starting", everything else a 503
        // with Retry-After); the REST server takes it over once they are open.
        StartingServer starting;
        try {
            starting = StartingServer.bind(config.get(Settings.HTTP_HOST), config.get(Settings.HTTP_PORT),
                    Version.VERSION);
        } catch (IOException | RuntimeException e) {
            throw cannotListen(config, e);
        }
        Polyrag polyrag;
        try {
            polyrag = Polyrag.open(config);
        } catch (RuntimeException | Error e) {
            starting.close(); // its dispatcher thread would keep the process alive, answering /health
            throw e;
        }
        int port = starting.port();
        starting.close();
        HttpFrontDoor server;
        try {
            server = HttpFrontDoor.start(polyrag, config.get(Settings.HTTP_HOST), port,
                    config.get(Settings.HTTP_MAX_REQUEST_MB) * 1024L * 1024L);
        } catch (RuntimeException e) {
            polyrag.close();
            if (e instanceof ConfigException) {
                throw e;
            }
            throw cannotListen(config, e);
        }
        CountDownLatch stopped = new CountDownLatch(1);
        AtomicBoolean stopping = new AtomicBoolean();
        Runnable stop = () -> {
            if (!stopping.compareAndSet(false, true)) {
                // Begun by a signal: the hook of the exit that follows waits for it, then lets the JVM go.
                awaitQuietly(stopped);
                return;
            }
            try {
                ServedUrl.delete(polyrag.dataDir());
                polyrag.beginStop(); // the jobs wind down while the server drains its requests
                server.close();
                polyrag.close();
            } finally {
                stopped.countDown();
            }
        };
        Runtime.getRuntime().addShutdownHook(new Thread(stop, "polyrag-shutdown"));
        StopSignals.install(stop);
        String host = config.get(Settings.HTTP_HOST);
        // An address a browser and a client can use: a wildcard answers on loopback, an IPv6 address in brackets.
        String shown = host.equals("0.0.0.0") || host.equals("::") ? "127.0.0.1" : host;
        String base = "http://" + (shown.contains(":") && !shown.startsWith("[") ? "[" + shown + "]" : shown) + ":"
                + server.port();
        Status s = polyrag.admin().status();
        out.println("polyrag serving " + base + "  (data " + polyrag.dataDir() + "; modalities "
                + s.modalities().stream().map(Object::toString).collect(Collectors.joining(", ")) + "; "
                + PolyragCommand.plural((int) s.documents(), "document")
                + ("fsync".equals(config.get(Settings.DURABILITY)) ? "; durability fsync" : "") + ")");
        if (polyrag.keys().required()) {
            out.println("  API keys required: send 'Authorization: Bearer KEY' (keys: 'polyrag keys list')");
            if (config.get(Settings.HTTP_REQUIRE_KEYS) && polyrag.keys().list().stream().noneMatch(ApiKey::active)) {
                out.println("  no key exists yet: " + (config.get(Settings.HTTP_ADMIN_KEY).isBlank()
                        ? "set POLYRAG_HTTP_ADMIN_KEY to create keys over POST /v1/admin/keys, or stop the server and "
                                + "run 'polyrag keys create TENANT'"
                        : "create one with the operator key: POST /v1/admin/keys {\"tenant\": \"NAME\"}"));
            }
        } else {
            out.println("  local mode: no API keys, so no authentication; only this machine can connect "
                    + "('polyrag keys create TENANT' turns keys on)");
        }
        if ("h2".equals(config.get(Settings.CATALOG_BACKEND)) && (!config.get(Settings.WORKER_ENABLED)
                || config.get(Settings.INGEST_WORKERS) == 0)) {
            // Its catalog is this process's alone: no replica can run what it queues.
            out.println("  warning: no job worker runs here (POLYRAG_WORKER_ENABLED / POLYRAG_INGEST_WORKERS), and "
                    + "the embedded catalog is this server's alone: uploads and syncs are accepted and wait until a "
                    + "process with workers opens this data directory");
        }
        out.println("  try: " + tryLine(base, polyrag.keys().required()));
        ServedUrl.write(polyrag.dataDir(), base);
        polyrag.warmUp();
        out.flush();
        if (!paths.isEmpty()) {
            Thread.ofVirtual().name("polyrag-initial-ingest").start(() -> ingest(polyrag, out, err));
        }
        for (Path dir : watch) {
            watch(polyrag, dir.toAbsolutePath().normalize(), out);
        }
        if (!watch.isEmpty() || !paths.isEmpty()) {
            out.println("  indexed as " + whose(polyrag));
            out.flush();
        }
        stopped.await();
        return Main.OK;
    }

    /** A port that cannot be listened on: exit 2 (configuration) when another program has it, not 3 (in use). */
    private static RuntimeException cannotListen(Config config, Throwable e) {
        String why = rootMessage(e);
        if (hasCause(e, BindException.class) && why.toLowerCase(Locale.ROOT).contains("in use")) {
            return new ConfigException("cannot listen on " + config.get(Settings.HTTP_HOST) + ":"
                    + config.get(Settings.HTTP_PORT) + " (" + why + "): another program has that port; "
                    + "stop it, or choose another with --port or POLYRAG_HTTP_PORT");
        }
        if (hasCause(e, BindException.class) && why.toLowerCase(Locale.ROOT).contains("permission denied")) {
            return new ConfigException("cannot listen on " + config.get(Settings.HTTP_HOST) + ":"
                    + config.get(Settings.HTTP_PORT) + " (" + why + "): ports below 1024 need root or the "
                    + "CAP_NET_BIND_SERVICE capability; choose another with --port or POLYRAG_HTTP_PORT (8080)");
        }
        if (hasCause(e, SocketException.class)) {
            // An address this machine does not have, or a host name that does not resolve: the setting is wrong.
            return new ConfigException("cannot listen on " + config.get(Settings.HTTP_HOST) + ":"
                    + config.get(Settings.HTTP_PORT) + " (" + why + "): use an address of this machine with --host or "
                    + "POLYRAG_HTTP_HOST (127.0.0.1, or 0.0.0.0 for every address)");
        }
        return new PolyragException("cannot start the HTTP server on " + config.get(Settings.HTTP_HOST)
                + ":" + config.get(Settings.HTTP_PORT) + ": " + rootMessage(e), e);
    }

    /**
     * Whose data the command line's paths and watched folders become: local mode's, which with API keys is the tenant
     * that adopted it, or no key's.
     */
    static String whose(Polyrag polyrag) {
        if (!polyrag.keys().required()) {
            return "local mode's data (no API keys)";
        }
        return polyrag.keys().localOwner().map(o -> "tenant " + o + "'s data (it adopted local mode's)")
                .orElse("local mode's data, which no API key reads: 'polyrag keys create TENANT --adopt-local' "
                        + "gives it to a tenant");
    }

    /**
     * Refuses {@code --kb} naming another knowledge base than the source that already keeps {@code dir} in sync, as
     * {@code ingest --sync} does: the folder was synced into the source's, and a search of the one named found nothing.
     */
    static void sameKnowledgeBase(String kb, SourceInfo existing, Path dir) {
        if (kb != null && !kb.isBlank() && !kb.strip().equals(existing.knowledgeBase())) {
            throw new ConflictException("folder " + dir + " is kept in sync by source '" + existing.id() + "' into "
                    + "knowledge base '" + existing.knowledgeBase() + "', not '" + kb.strip() + "': drop --kb, or "
                    + "delete the source (DELETE /v1/sync/sources/" + existing.id() + ") and watch it again");
        }
    }

    /** Registers DIR as a source unless one reads it already (then syncs it now), and says so. */
    private void watch(Polyrag polyrag, Path dir, PrintWriter out) {
        var sources = polyrag.sources();
        var existing = sources.byRoot(dir);
        if (existing.isPresent()) {
            String id = existing.get().id();
            sameKnowledgeBase(kb, existing.get(), dir);
            if (!existing.get().enabled()) {
                sources.enable(id, true);
            } else {
                sources.sync(id);
            }
            out.println("  watching " + dir + " (source '" + id + "'): syncing what changed while polyrag was down");
        } else {
            String base = dir.getFileName() == null ? "folder" : dir.getFileName().toString()
                    .toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9._-]+", "-").replaceAll("^[^a-z0-9]+", "");
            base = base.isEmpty() ? "folder" : base.substring(0, Math.min(base.length(), 56));
            String stem = base;
            Set<String> taken = new HashSet<>();
            sources.list().forEach(x -> taken.add(x.id()));
            String id = IntStream.range(1, 1000).mapToObj(i -> i == 1 ? stem : stem + "-" + i)
                    .filter(c -> !taken.contains(c)).findFirst().orElseThrow();
            sources.register(new SourceRegistration(id, "filesystem", Map.of("root",
                    dir.toString()), kb, null, true));
            out.println("  watching " + dir + " (source '" + id + "'): indexing it now, then every change as it "
                    + "happens");
        }
        out.flush();
    }

    private void ingest(Polyrag polyrag, PrintWriter out, PrintWriter err) {
        try {
            PathIngestReport r = polyrag.ingest().paths(new PathIngest(paths, KnowledgeBase.of(kb), List.of(), List.of()),
                    new Progress(err, false));
            IngestReport rep = r.report();
            out.printf("ingested %s: %d added, %d updated, %d unchanged, %d failed (%s)%n",
                    PolyragCommand.plural(rep.documents(), "document"), rep.added(), rep.updated(), rep.unchanged(),
                    rep.failed(), PolyragCommand.plural(rep.chunks(), "chunk"));
            rep.errors().forEach(e -> err.println("failed: " + e.reason()));
            out.flush();
        } catch (RuntimeException e) {
            err.println("polyrag: ingest of " + paths + " failed: " + e.getMessage());
        }
    }

    private static boolean hasCause(Throwable t, Class<? extends Throwable> type) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (type.isInstance(c)) {
                return true;
            }
        }
        return false;
    }

    private static String rootMessage(Throwable t) {
        Throwable r = t;
        while (r.getCause() != null) {
            r = r.getCause();
        }
        return r.getMessage();
    }

    /** The start-up's example request: with the key header when keys are on, or it would answer 401. */
    static String tryLine(String base, boolean keysRequired) {
        return "curl " + (keysRequired ? "-H 'Authorization: Bearer KEY' " : "") + "'" + base
                + "/v1/search?q=your+question'";
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
