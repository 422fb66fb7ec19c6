package io.polyrag.app;

import io.polyrag.core.ConflictException;
import io.polyrag.core.NotFoundException;
import io.polyrag.core.PolyragException;
import io.polyrag.core.QuotaExceededException;
import io.polyrag.core.config.Config;
import io.polyrag.core.config.Settings;
import io.polyrag.core.model.Ids;
import io.polyrag.core.model.JobInfo;
import io.polyrag.core.model.JobStatus;
import io.polyrag.core.model.Tenant;
import io.polyrag.core.port.JobStore;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Background jobs: the registry of handlers by kind, the workers, submitting. Each kind is a {@link JobHandler}; the
 * workers ({@link JobRunner}) look the handler up by the job's kind, so a new kind needs no change here. Tenants
 * read their jobs through {@link Jobs}.
 */
final class JobEngine implements AutoCloseable {
    private final JobStore store;
    private final Map<String, JobHandler> handlers = new LinkedHashMap<>();
    private final JobEvents events = new JobEvents();
    private JobRunner runner;
    /** The last write of each job published as an event (its time and status), so none is published twice. */
    private final Map<String, JobInfo> published = new LinkedHashMap<>(1024, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, JobInfo> eldest) {
            return size() > JobEvents.CAPACITY;
        }
    };
    private final CountDownLatch closing = new CountDownLatch(1);
    private Thread feed;
    private final boolean shared;
    /** Jobs a tenant may have queued or running; unbounded until {@link #start}. */
    private volatile int maxPending = Integer.MAX_VALUE;
    private static final int FEED_BATCH = 1000;
    private static final Duration FEED_OVERLAP = Duration.ofSeconds(5);

    private final Metrics metrics;

    JobEngine(JobStore store, List<JobHandler> handlers) {
        this(store, handlers, null, false);
    }

    /**
     * @param metrics where stage timings and job outcomes are recorded; null records them nowhere visible
     * @param shared whether other replicas write the same job store (a shared catalog): then this engine follows
     *     their jobs' changes too, so its events report every job, whichever replica runs it
     */
    JobEngine(JobStore store, List<JobHandler> handlers, Metrics metrics, boolean shared) {
        this.store = store;
        this.shared = shared;
        this.metrics = metrics != null ? metrics : store == null ? null : new Metrics(store);
        for (JobHandler h : handlers) {
            if (this.handlers.putIfAbsent(h.kind(), h) != null) {
                throw new IllegalArgumentException("two job handlers for kind '" + h.kind() + "'");
            }
        }
    }

    /** Starts the workers (after recovery has requeued what a crash left running). */
    void start(Config config) {
        maxPending = config.get(Settings.INGEST_JOB_MAX_PENDING);
        int workers = config.get(Settings.WORKER_ENABLED) ? config.get(Settings.INGEST_WORKERS) : 0;
        runner = new JobRunner(store, this::handler, this::changed, metrics, workers,
                Duration.ofSeconds(config.get(Settings.INGEST_JOB_STALE_SECONDS)),
                config.get(Settings.INGEST_JOB_ATTEMPTS), Duration.ofSeconds(config.get(Settings.INGEST_JOB_SLICE_SECONDS)));
        if (shared) {
            feed = Thread.ofVirtual().name("polyrag-job-feed").start(this::follow);
        }
    }

    /**
     * Over a shared catalog: publishes the jobs other replicas write, read from the catalog every second while
     * someone listens. Reads overlap by a few seconds (a write's time is taken before it commits, and clocks of
     * replicas differ a little); what was published already is not published again.
     */
    private void follow() {
        Instant cursor = Instant.now();
        try {
            while (!closing.await(1, TimeUnit.SECONDS)) {
                if (!events.read(Duration.ofSeconds(30))) {
                    cursor = Instant.now();
                    continue;
                }
                try {
                    Instant started = Instant.now();
                    List<JobInfo> changed = store.changedSince(cursor.minus(FEED_OVERLAP), FEED_BATCH);
                    for (JobInfo j : changed) {
                        publishIfNew(j);
                    }
                    cursor = changed.size() == FEED_BATCH ? changed.getLast().updatedAt().plus(FEED_OVERLAP)
                            : started;
                } catch (RuntimeException | Error e) {
                    // An out-of-memory error too (the workers survive one): ended, no other replica's job was ever
                    // published here again.
                    System.getLogger(JobEngine.class.getName()).log(System.Logger.Level.WARNING, "cannot read "
                            + "other replicas' job changes (tried again in a second): " + e);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Whether {@code now} is the end of a job {@code last} showed unfinished: published whatever its time says. Each
     * replica stamps its writes with its own clock; a job run in under two seconds on a replica two seconds behind
     * the one that created it ended "before" it was created, and its "finished" was dropped everywhere.
     */
    private static boolean ends(JobInfo last, JobInfo now) {
        return now.status().finished() && !last.status().finished();
    }

    /** Publishes a job read from the catalog unless this write of it (its time and status) was published. */
    private void publishIfNew(JobInfo j) {
        synchronized (published) {
            JobInfo last = published.get(j.id());
            if (last != null && !ends(last, j) && (!j.updatedAt().isAfter(last.updatedAt())
                    && last.status() == j.status() || j.updatedAt().isBefore(last.updatedAt()))) {
                return; // this write, or a newer one, was published (a row read before a local worker claimed it)
            }
            if (last != null && last.status().finished() && !j.status().finished()) {
                return;
            }
            published.put(j.id(), j);
            events.publish(j.status().finished() ? "finished" : j.status() == JobStatus.QUEUED
                    && j.attempts() == 0 ? "created" : "progress", j);
        }
    }

    /** Told of each job submitted here, with its tenant (searches' "still being indexed" warning). */
    private volatile Consumer<Tenant> onSubmit = t -> { };

    void onSubmit(Consumer<Tenant> listener) {
        this.onSubmit = listener;
    }

    /**
     * Queues a job of {@code tenant} for a sync source unless one of that source is already queued or running, whose
     * id is returned instead: two syncs of one source at once each deleted what the other had just marked as seen
     * (with two workers or two replicas, a sync asked for during a scheduled one). The catalog checks and queues in
     * one transaction holding the source's row, so replicas asked at once queue one. Says whether it queued a new one.
     */
    JobStore.Queued submitForSource(Tenant tenant, String kind, String payload) {
        JobHandler h = handler(kind);
        String source = h.source(payload).orElse(null);
        if (source == null) {
            return new JobStore.Queued(submit(tenant, kind, payload), true);
        }
        JobStore.Queued q = store.submitForSource(tenant.id(), kind, payload, h.knowledgeBase(payload).orElse(null),
                source);
        if (q.created()) {
            queued(tenant, q.id());
        }
        return q;
    }

    /**
     * Queues a job of {@code tenant} and returns its id at once; refused (429) while the tenant has
     * {@code ingest.job.max.pending} jobs queued or running (exactly within one process; replicas each count).
     */
    String submit(Tenant tenant, String kind, String payload) {
        // Counted and written together, one tenant's submissions at a time in this process: uploads at once each
        // counted the others' jobs before any was written, and all passed the cap.
        // A lock, not a monitor: a virtual thread waiting on it for a catalog write unmounts (on JDK 21 one blocked
        // in a monitor pinned its carrier, and a few such uploads stalled every request).
        ReentrantLock lock = queueLocks.computeIfAbsent(tenant.id(), t -> new ReentrantLock());
        lock.lock();
        try {
            mayQueue(tenant);
            return submitUncapped(tenant, kind, payload);
        } finally {
            lock.unlock();
        }
    }

    private final Map<String, ReentrantLock> queueLocks = new ConcurrentHashMap<>();

    /**
     * Queues a job past the tenant's cap on queued jobs: the operator's back-fill, which runs under the local
     * tenant's name and was refused while the tenant that adopted local mode had its queue full.
     */
    String submitUncapped(Tenant tenant, String kind, String payload) {
        JobHandler h = handler(kind);
        String id = store.submit(tenant.id(), kind, payload, h.knowledgeBase(payload).orElse(null),
                h.source(payload).orElse(null), h.stagedBytes(payload));
        queued(tenant, id);
        return id;
    }

    /** Refuses (429) while the tenant has {@code ingest.job.max.pending} jobs queued or running. */
    void mayQueue(Tenant tenant) {
        int max = maxPending;
        if (max < Integer.MAX_VALUE && store.pending(tenant.id()).jobs() >= max) {
            throw new QuotaExceededException("pending_jobs", 10, String.format(Locale.ROOT, "this tenant has %,d jobs "
                    + "queued or running, the most it may (POLYRAG_INGEST_JOB_MAX_PENDING): retry when some have "
                    + "finished, or cancel some (GET /v1/jobs lists them)", max));
        }
    }

    /** The tenant's jobs queued or running, and the uploaded bytes they hold. */
    JobStore.Pending pending(Tenant tenant) {
        return store.pending(tenant.id());
    }

    private void queued(Tenant tenant, String id) {
        onSubmit.accept(tenant);
        changed(id, "created");
        if (runner != null) {
            runner.poke();
        }
    }

    /** A job was written: publish it as an event. A failure to read it back costs the event, never the job. */
    void changed(String id, String type) {
        try {
            store.job(id).map(this::shown).ifPresent(j -> {
                synchronized (published) {
                    // Never an older state after a newer one: a cancel that read the job running, published after
                    // its worker's "finished", left subscribers showing it running until they reloaded.
                    JobInfo last = published.get(j.id());
                    if (last != null && (last.status().finished() && !j.status().finished()
                            || j.updatedAt().isBefore(last.updatedAt()) && !ends(last, j))) {
                        return;
                    }
                    published.put(j.id(), j);
                    // A job that has ended is "finished", whoever saw it end: a queued job canceled was published as
                    // "progress", and a client waiting for its upload's "finished" waited for ever.
                    events.publish(j.status().finished() ? "finished" : type, j);
                }
            });
        } catch (RuntimeException e) {
            System.getLogger(JobEngine.class.getName()).log(System.Logger.Level.WARNING, "cannot publish an event "
                    + "for job " + id + ": " + e.getMessage());
        }
    }

    JobEvents events() {
        return events;
    }

    /** {@code tenant}'s jobs, newest first. */
    List<JobInfo> list(Tenant tenant, int offset, int limit) {
        return list(tenant, offset, limit, null);
    }

    /** {@code tenant}'s jobs, newest first, without those of kind {@code hidden} (null: none hidden). */
    List<JobInfo> list(Tenant tenant, int offset, int limit, String hidden) {
        return store.jobs(tenant.id(), offset, limit, hidden).stream().map(this::shown).toList();
    }

    /** A job this process stopped to wait but could not put back in the queue yet is queued, whatever is stored. */
    private JobInfo shown(JobInfo j) {
        return runner == null ? j : runner.shown(j);
    }

    /** Cancels {@code tenant}'s job; another tenant's, or an unknown one, is not found. */
    JobInfo cancel(Tenant tenant, String id) {
        JobInfo j = get(tenant, id);
        if (!store.cancel(id)) {
            throw new ConflictException("job " + id + " has finished (" + j.status() + "): "
                    + "nothing to cancel");
        }
        canceledHere(id);
        changed(id, "progress");
        return get(tenant, id);
    }

    /** Tells this process's worker running the job, if one is: it stops at its next check, not its next progress. */
    private void canceledHere(String id) {
        if (runner != null) {
            runner.canceled(id);
        }
    }

    /** Cancels any tenant's job by id (the operator's): as {@link #cancel}, whoever's it is. */
    JobInfo cancelAny(String id) {
        JobInfo j = anyJob(id).orElseThrow(() -> new NotFoundException("no job with id '" + Ids.abbreviate(
                String.valueOf(id), 64) + "'"));
        if (!store.cancel(id)) {
            throw new ConflictException("job " + id + " has finished (" + j.status() + "): nothing to cancel");
        }
        canceledHere(id);
        changed(id, "progress");
        return anyJob(id).orElse(j);
    }

    /** Any tenant's job by id (the operator's view). */
    Optional<JobInfo> anyJob(String id) {
        return store.job(id).map(this::shown);
    }

    /** The job with this id, if {@code tenant}'s: another tenant's job is not found, like one that never was. */
    JobInfo get(Tenant tenant, String id) {
        return store.job(id).filter(j -> j.tenant().equals(tenant.id())).map(this::shown).orElseThrow(() -> new NotFoundException(
                "no job with id '" + Ids.abbreviate(String.valueOf(id), 64) + "'"));
    }

    /** The id of {@code tenant}'s queued or running job of {@code kind} for the knowledge base {@code storedName}. */
    Optional<String> unfinished(Tenant tenant, String kind, String storedName) {
        JobHandler h = handlers.get(kind);
        return store.unfinished().stream().filter(j -> j.info().tenant().equals(tenant.id())
                && j.info().kind().equals(kind) && h != null && writesInto(j, h, storedName))
                .map(j -> j.info().id()).findFirst();
    }

    /**
     * Whether the job writes into the knowledge base: by its payload as read now, or by the knowledge base recorded
     * when it was submitted (a sync's payload names its source, which a forced delete of the knowledge base has
     * already removed: read by the payload alone, the running sync went on and recreated the knowledge base).
     */
    private static boolean writesInto(JobStore.Claimed j, JobHandler h, String storedName) {
        return storedName.equals(j.info().knowledgeBase())
                || h.knowledgeBase(j.payload()).filter(storedName::equals).isPresent();
    }

    /**
     * Cancels {@code tenant}'s queued and running jobs that write into the knowledge base {@code storedName} and waits
     * up to {@code wait} for the running ones to stop (they stop at their next item).
     *
     * @return the ids of those still running when the wait ended (empty: none writes into it any more)
     */
    List<String> stopWritersInto(Tenant tenant, String storedName, Duration wait) {
        return stop(j -> {
            JobHandler h = handlers.get(j.info().kind());
            return j.info().tenant().equals(tenant.id()) && h != null && writesInto(j, h, storedName);
        }, wait);
    }

    /**
     * Cancels {@code tenant}'s queued and running syncs of the source {@code sourceId} and waits up to {@code wait}
     * for the running ones to stop.
     *
     * @return the ids of those still running when the wait ended
     */
    List<String> stopSyncsOf(Tenant tenant, String sourceId, Duration wait) {
        return stop(j -> j.info().tenant().equals(tenant.id()) && sourceId.equals(j.info().source()), wait);
    }

    private List<String> stop(Predicate<JobStore.Claimed> which, Duration wait) {
        List<String> ids = new ArrayList<>();
        for (JobStore.Claimed j : store.unfinished()) {
            if (which.test(j)) {
                if (store.cancel(j.info().id())) {
                    canceledHere(j.info().id());
                    changed(j.info().id(), "progress");
                }
                ids.add(j.info().id());
            }
        }
        long deadline = System.nanoTime() + wait.toNanos();
        List<String> running = ids;
        while (!running.isEmpty()) {
            running = running.stream().filter(id -> store.job(id).map(j -> !j.status().finished()).orElse(false))
                    .toList();
            if (running.isEmpty() || System.nanoTime() > deadline) {
                break;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return running;
    }

    /** The staging folder the unfinished job with this payload still needs, whatever its kind. */
    Optional<Path> stagingDir(String kind, String payload) {
        JobHandler h = handlers.get(kind);
        return h == null ? Optional.empty() : h.stagingDir(payload);
    }

    /** The staged blobs that queued and running jobs still need. */
    Set<String> ownedBlobs() {
        Set<String> owned = new HashSet<>();
        for (JobStore.Claimed j : store.unfinished()) {
            JobHandler h = handlers.get(j.info().kind());
            if (h != null) {
                owned.addAll(h.stagedBlobs(j.payload()));
            }
        }
        return owned;
    }

    private JobHandler handler(String kind) {
        JobHandler h = handlers.get(kind);
        if (h == null) {
            throw new PolyragException("unknown job kind '" + kind + "': this server runs " + handlers.keySet());
        }
        return h;
    }

    /** Ends the event streams and asks running jobs to stop at their next file, without waiting ({@link #close}). */
    void beginStop() {
        events.close();
        if (runner != null) {
            runner.stopTakingWork();
        }
    }

    @Override
    public void close() {
        closing.countDown();
        if (feed != null) {
            try {
                feed.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        events.close();
        if (runner != null) {
            runner.close();
        }
    }
}
