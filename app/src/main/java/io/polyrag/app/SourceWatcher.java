package io.polyrag.app;

import io.polyrag.core.NotFoundException;
import io.polyrag.core.fs.Globs;
import io.polyrag.core.model.JobStatus;
import io.polyrag.core.model.Source;
import io.polyrag.core.model.Tenant;
import io.polyrag.core.port.JobStore;
import io.polyrag.core.port.SourceStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileVisitResult;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Keeps enabled sources syncing: a scan when its interval has passed since the last, and — for sources whose connector names a local folder (filesystem) —
 * a scan within a second or two of a change the JDK WatchService reports (recursive: folders created later are
 * watched too). A live event never ingests anything itself: it only asks for a scan, and the scan classifies every
 * item against the recorded state, so an item is ingested by one mechanism only and never twice. At most one sync
 * per source is queued or running at a time.
 */
final class SourceWatcher implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(SourceWatcher.class.getName());
    private static final long DEBOUNCE_MS = 1000;
    private final SourceStore sources;
    private final SourceConnectors connectors;
    private final JobEngine engine;
    private final boolean watch;
    /** Polyrag's own folders (data, blobs): never watched, their changes never a source's. */
    private final List<Path> forbidden;
    /** The queued or running sync of each source, by source key: its job id. */
    private final Map<String, String> pending = new ConcurrentHashMap<>();
    /** The sync each source's schedule queued (its interval's), by source key: a cancel of that one skips it. */
    private final Map<String, String> scheduled = new ConcurrentHashMap<>();
    private final Map<String, Long> dirty = new ConcurrentHashMap<>();
    private final Set<String> lostRoots = ConcurrentHashMap.newKeySet();
    /**
     * The sources each watched folder belongs to: the file system gives one key per folder however many register it,
     * so two sources over one folder (or one nested in the other) share it. With one source per key, the second took
     * the first's live watch, and deleting it cancelled the key the first still needed.
     */
    private final Map<WatchKey, Set<String>> keys = new ConcurrentHashMap<>();
    /** Each watched source's root and globs: folders every path below which it excludes are not watched. */
    private final Map<String, Map.Entry<Path, Globs>> watched = new ConcurrentHashMap<>();
    private WatchService service;
    /**
     * Walks of folder trees to watch, off the callers' and the scheduler's threads, each on a thread of its own (one
     * walk stuck on a hung mount held every other source's behind it).
     */
    private final ExecutorService walks = Executors.newCachedThreadPool(Thread.ofPlatform().daemon()
            .name("polyrag-watch-walk-", 0).factory());
    /** Lost roots being looked at on a walk thread: one look at a time each (a hung mount holds its look). */
    private final Set<String> looking = ConcurrentHashMap.newKeySet();
    private volatile boolean running;
    private Thread thread;

    private final Supplier<Set<String>> keyed;

    SourceWatcher(SourceStore sources, SourceConnectors connectors, JobEngine engine, boolean watch) {
        this(sources, connectors, engine, watch, null);
    }

    /**
     * @param keyed the tenants that hold an active API key, asked at each scheduling tick; null schedules every
     *     tenant's sources
     */
    SourceWatcher(SourceStore sources, SourceConnectors connectors, JobEngine engine, boolean watch,
            Supplier<Set<String>> keyed) {
        this.keyed = keyed;
        this.sources = sources;
        this.connectors = connectors;
        this.engine = engine;
        this.watch = watch;
        this.forbidden = connectors.forbiddenFolders();
    }

    void start() {
        if (watch) {
            try {
                service = FileSystems.getDefault().newWatchService();
            } catch (IOException e) {
                LOG.log(System.Logger.Level.WARNING, "cannot watch folders (" + e.getMessage() + "): sources sync on "
                        + "their interval only");
            }
        }
        running = true;
        for (Source s : sources.sources(null)) {
            changed(s);
        }
        thread = Thread.ofPlatform().daemon().name("polyrag-sources").start(this::loop);
    }

    /**
     * A source was registered or changed: (re)watch it. The folder tree is walked on a thread of its own, not the
     * caller's: a registration's request (and the server's start, for every source) waited for the walk of a whole
     * tree, indefinitely on a hung network mount; on the scheduler's thread it would stop every source's schedule.
     */
    void changed(Source s) {
        if (service == null || !s.enabled()) {
            return;
        }
        Map<String, Object> config = Sources.config(s.config());
        connectors.get(s.type()).flatMap(c -> c.watched(config)).ifPresent(given -> {
            String key = key(s);
            Map.Entry<Path, Globs> entry = Map.entry(given, Globs.of(config.get("include"), config.get("exclude")));
            watched.put(key, entry);
            walk(() -> {
                Path root = real(given);
                Map.Entry<Path, Globs> resolved = Map.entry(root, entry.getValue());
                // Changed again or removed meanwhile: that call's own walk (if any) watches it.
                if (watched.computeIfPresent(key, (k, v) -> v == entry ? resolved : v) != resolved) {
                    return;
                }
                if (Files.isDirectory(root)) {
                    register(key, root);
                } else {
                    lostRoots.add(key); // not there yet (a share mounted after the start): watched once it is
                }
            });
        });
    }

    private void walk(Runnable task) {
        try {
            walks.execute(() -> {
                try {
                    task.run();
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "cannot watch a source's folders: " + e.getMessage());
                }
            });
        } catch (RejectedExecutionException e) {
            // closing
        }
    }

    /** A source was deleted: stop watching it. */
    void removed(Source s) {
        String key = key(s);
        // First, so that a walk of it still going sees it gone and takes back what it registers after the sweep.
        watched.remove(key);
        List.copyOf(keys.keySet()).forEach(k -> unwatch(k, key));
        dirty.remove(key);
        lostRoots.remove(key);
        scheduled.remove(key);
    }

    /** Takes {@code key}'s source off a watched folder; the folder's watch ends with its last source. */
    private void unwatch(WatchKey k, String key) {
        keys.computeIfPresent(k, (x, owners) -> {
            if (owners.remove(key) && owners.isEmpty()) {
                x.cancel();
                return null;
            }
            return owners;
        });
    }

    /** A sync of this source was queued by hand: the scheduler adds none until it ends. */
    void submitted(String key, String jobId) {
        pending.put(key, jobId);
    }

    /** A sync of this source ended: another may be scheduled. */
    void ended(String key) {
        pending.remove(key);
        scheduled.remove(key);
    }

    /**
     * Watches {@code from} and every folder below it the source reads: not hidden ones (a project's .git changed with
     * every git command and set off a full rescan, about once a second), nor those its exclude globs take whole (a
     * node_modules tree used up the system's watches, folder by folder). A folder that cannot be read is passed
     * over, not the end of the walk: the folders after it were left unwatched.
     */
    /**
     * A root reached through a link, watched at its target: the walk does not enter a link (a root that was one,
     * ~/notes pointing into a synced folder, was never watched, its changes found only by the interval's scans).
     */
    private static Path real(Path root) {
        try {
            return root.toRealPath();
        } catch (IOException | RuntimeException e) {
            return root;
        }
    }

    private void register(String key, Path from) {
        Map.Entry<Path, Globs> source = watched.get(key);
        if (source == null) {
            return; // removed meanwhile
        }
        Path root = source.getKey();
        Globs globs = source.getValue();
        try {
            Files.walkFileTree(from, new SimpleFileVisitor<>() {
                private boolean warned;

                @Override
                public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes a) {
                    if (watched.get(key) != source) {
                        return FileVisitResult.TERMINATE; // removed or changed: its own walk, if any, goes on
                    }
                    Path rel = root.relativize(d);
                    if (!rel.toString().isEmpty() && (Globs.hidden(rel) || globs.excludesAllBelow(rel)
                            || forbidden(d))) {
                        return FileVisitResult.SKIP_SUBTREE;
                    }
                    try {
                        WatchKey k = d.register(service, StandardWatchEventKinds.ENTRY_CREATE,
                                StandardWatchEventKinds.ENTRY_MODIFY, StandardWatchEventKinds.ENTRY_DELETE);
                        keys.computeIfAbsent(k, x -> ConcurrentHashMap.newKeySet()).add(key);
                        if (watched.get(key) != source) {
                            unwatch(k, key); // removed while this folder was being added: after its sweep
                            return FileVisitResult.TERMINATE;
                        }
                    } catch (IOException | ClosedWatchServiceException e) {
                        // Once a walk (the system's watches used up fails every folder after): then at debug level.
                        LOG.log(warned ? System.Logger.Level.DEBUG : System.Logger.Level.WARNING, "cannot watch " + d
                                + " (" + e.getMessage() + "): changes there are found by the source's scheduled scans");
                        warned = true;
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path f, IOException e) {
                    LOG.log(System.Logger.Level.DEBUG, "cannot watch " + f + ": " + e.getMessage());
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException | UncheckedIOException e) {
            LOG.log(System.Logger.Level.WARNING, "cannot watch " + from + ": " + e.getMessage());
        }
    }

    private void loop() {
        long lastSchedule = 0;
        while (running) {
            try {
                if (service != null) {
                    WatchKey k = service.poll(250, TimeUnit.MILLISECONDS);
                    if (k != null) {
                        handle(k);
                    }
                } else {
                    Thread.sleep(250);
                }
                long now = System.currentTimeMillis();
                dirty.forEach((key, since) -> {
                    if (now - since >= DEBOUNCE_MS && dirty.remove(key, since)) {
                        try {
                            submit(key, true);
                        } catch (RuntimeException e) {
                            dirty.putIfAbsent(key, now); // the catalog did not answer: the change is not forgotten
                            throw e;
                        }
                    }
                });
                if (now - lastSchedule >= 5000) {
                    lastSchedule = now;
                    watchReturnedRoots();
                    scheduleDue(Instant.now());
                }
            } catch (InterruptedException | ClosedWatchServiceException e) {
                return;
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "source scheduling failed; trying again", e);
            }
        }
    }

    private void handle(WatchKey k) {
        Set<String> owners = keys.getOrDefault(k, Set.of());
        Path dir = (Path) k.watchable();
        for (WatchEvent<?> e : k.pollEvents()) {
            for (String key : List.copyOf(owners)) {
                if (e.context() instanceof Path name && !concerns(key, dir.resolve(name), e.kind())) {
                    continue;
                }
                if (e.kind() == StandardWatchEventKinds.ENTRY_CREATE && e.context() instanceof Path name) {
                    Path created = dir.resolve(name);
                    if (Files.isDirectory(created) && !name.toString().startsWith(".")) {
                        register(key, created);
                    }
                }
                dirty.put(key, System.currentTimeMillis());
            }
        }
        if (!k.reset()) {
            keys.remove(k);
            for (String key : owners) {
                Map.Entry<Path, Globs> source = watched.get(key);
                if (source != null && source.getKey().equals(dir)) {
                    lostRoots.add(key); // deleted (or unmounted): watched again once it is back
                }
            }
        }
    }

    /** Sources whose root folder went away: watched again, and scanned, once it is back. */
    private void watchReturnedRoots() {
        for (String key : List.copyOf(lostRoots)) {
            Map.Entry<Path, Globs> source = watched.get(key);
            if (source == null) {
                lostRoots.remove(key);
            } else if (looking.add(key)) {
                // Looked at off the scheduler's thread: a lost root is often a hung mount, and a stat of one blocks.
                walk(() -> {
                    try {
                        if (!Files.isDirectory(source.getKey()) || !lostRoots.remove(key)) {
                            return;
                        }
                        Path root = real(source.getKey());
                        Map.Entry<Path, Globs> resolved = Map.entry(root, source.getValue());
                        if (watched.computeIfPresent(key, (k, v) -> v == source ? resolved : v) == resolved) {
                            register(key, root);
                            dirty.put(key, System.currentTimeMillis());
                        }
                    } finally {
                        looking.remove(key);
                    }
                });
            }
        }
    }

    /**
     * Whether a change to {@code path} can change what the source indexes: not one to a hidden file (an editor's
     * swap file, written every few seconds), to a file its globs leave out (a log beside the notes), or inside
     * polyrag's own folders; each set off a whole scan. A deleted name may have been a folder: only hidden ones and
     * polyrag's are passed over then.
     */
    private boolean concerns(String key, Path path, WatchEvent.Kind<?> kind) {
        Map.Entry<Path, Globs> source = watched.get(key);
        if (source == null || !path.startsWith(source.getKey())) {
            return true;
        }
        Path rel = source.getKey().relativize(path);
        if (Globs.hidden(rel) || forbidden(path)) {
            return false;
        }
        return kind == StandardWatchEventKinds.ENTRY_DELETE || Files.isDirectory(path)
                || source.getValue().selects(rel);
    }

    /** Whether {@code p} lies in polyrag's own folders, as written or through a link (a root named by a link). */
    private boolean forbidden(Path p) {
        Path abs = p.toAbsolutePath().normalize();
        if (forbidden.stream().anyMatch(abs::startsWith)) {
            return true;
        }
        Path existing = Files.exists(p, LinkOption.NOFOLLOW_LINKS) ? p : p.getParent();
        try {
            Path real = existing == null ? abs : existing.toRealPath();
            return forbidden.stream().anyMatch(real::startsWith);
        } catch (IOException e) {
            return false;
        }
    }

    private void scheduleDue(Instant now) {
        for (Source s : dueNow(sources.sources(null), now, keyed)) {
            submit(key(s), false);
        }
    }

    /**
     * The sources due at {@code now}, but those of a tenant whose keys were all revoked (offboarded: its web and S3
     * sources went on fetching, and spending extraction tokens, every interval). Local mode's own sources are the
     * operator's. {@code keyed} (the tenants holding an active key) is asked once, and only when needed.
     */
    static List<Source> dueNow(List<Source> all, Instant now, Supplier<Set<String>> keyed) {
        Set<String> active = null;
        List<Source> out = new ArrayList<>();
        for (Source s : all) {
            if (!due(s, now)) {
                continue;
            }
            if (!s.tenant().isEmpty() && keyed != null) {
                active = active != null ? active : keyed.get();
                if (!active.contains(s.tenant())) {
                    continue;
                }
            }
            out.add(s);
        }
        return out;
    }

    /**
     * Whether a source's interval has passed since its last scan (its creation, before one). A last scan more than an
     * interval in the future means the clock was set back (a snapshot restored, a wrong clock corrected): due now,
     * not after the clock catches up, which stopped its syncs for as long as the clock had been ahead.
     */
    static boolean due(Source s, Instant now) {
        Instant last = s.lastScanAt() == null ? s.createdAt() : s.lastScanAt();
        return s.enabled() && (last.plusSeconds(s.intervalSeconds()).isBefore(now)
                || last.isAfter(now.plusSeconds(s.intervalSeconds())));
    }

    /**
     * Queues a sync of the source unless one is queued or running. For a {@code change} seen in its folder, a running
     * one may have listed past it, so the source stays marked until it ends; a source merely due is not marked (it
     * stays due while its sync runs, and marking it queued a second whole sync after every one longer than the
     * scheduler's five-second tick).
     */
    private void submit(String key, boolean change) {
        int slash = key.indexOf('/');
        String tenant = key.substring(0, slash);
        if (change && !tenant.isEmpty() && keyed != null && !keyed.get().contains(tenant)) {
            return; // an offboarded tenant's watched folder changed: no sync, as none is scheduled (dueNow)
        }
        Tenant t = tenant.isEmpty() ? Tenant.LOCAL : Tenant.of(tenant);
        String queued = pending.get(key);
        JobStatus status = queued == null ? null : status(t, queued);
        if (queued != null && (change ? waitFor(key, status) : status == JobStatus.QUEUED
                || status == JobStatus.RUNNING)) {
            return;
        }
        var source = sources.source(tenant, key.substring(slash + 1));
        if (!change && status == JobStatus.CANCELED && source.isPresent() && queued.equals(scheduled.get(key))) {
            // A user canceled the sync the schedule queued for this interval: it counts as that interval's scan (its
            // last error kept), or the next tick, five seconds on, queued the same sync again. Not one queued by a
            // request or a change: canceled, it was no interval's scan.
            sources.sourceScanned(tenant, source.get().id(), Instant.now(), source.get().lastError());
            pending.remove(key);
            scheduled.remove(key);
            return;
        }
        if (source.isEmpty() || !source.get().enabled()) {
            pending.remove(key);
            return;
        }
        JobStore.Queued q = engine.submitForSource(t, SyncJob.KIND, SyncPayload.of(source.get(), false));
        pending.put(key, q.id());
        if (!change && q.created()) {
            scheduled.put(key, q.id());
        }
        if (!q.created() && change) {
            // An unfinished sync started elsewhere (a request, another replica) answered for it. One this call queued
            // lists the change whether it is queued or already running: marking it again here chained a scan a
            // second after every scan that had started by the time its status was read.
            waitFor(key, status(t, q.id()));
        }
    }

    /**
     * Whether a sync of the source already covers a change: one still queued will list it. One running may have
     * listed the changed file already: the source stays marked changed, asked again until that sync has ended (a
     * change made during a sync waited for the next interval, up to a week).
     */
    private boolean waitFor(String key, JobStatus status) {
        if (status == JobStatus.RUNNING) {
            dirty.putIfAbsent(key, System.currentTimeMillis());
        }
        return status == JobStatus.QUEUED || status == JobStatus.RUNNING;
    }

    /** A sync's status; null for one gone (a sync that ended without its handler never blocks the next). */
    private JobStatus status(Tenant t, String jobId) {
        try {
            return engine.get(t, jobId).status();
        } catch (NotFoundException e) {
            return null;
        }
    }

    static String key(Source s) {
        return s.tenant() + "/" + s.id();
    }

    @Override
    public void close() {
        running = false;
        walks.shutdownNow();
        if (thread != null) {
            thread.interrupt();
        }
        if (service != null) {
            try {
                service.close();
            } catch (IOException e) {
                // closing
            }
        }
    }
}
