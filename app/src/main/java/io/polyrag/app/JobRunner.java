package io.polyrag.app;

import io.polyrag.core.StorageProblems;
import io.polyrag.core.StoreException;
import io.polyrag.core.model.JobInfo;
import io.polyrag.core.model.JobProgress;
import io.polyrag.core.model.JobStatus;
import io.polyrag.core.port.JobStore;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.slf4j.MDC;

/**
 * Background workers that claim jobs from the {@link JobStore} and run them. Workers are virtual threads; each
 * polls for work, waking at once when a job is submitted in this process and every second otherwise (jobs submitted
 * by other replicas over a shared database). A job's progress is written at most every quarter second, and on every
 * stage change. Every running job is also heartbeated on its own, a few times per stale timeout, so a long item
 * (a large file, a slow language model) does not make it look abandoned: only a job whose process died or lost its
 * database goes stale and is reclaimed by another worker. Each write is made under the worker's claim (the attempt
 * number): once a job has been reclaimed, the old worker's progress and end are not recorded, it stops at its next
 * item, and it leaves the job's staged files to the new worker.
 *
 * <p>A job ends succeeded when no item failed, partial when some did, failed when all did or the handler threw. Its
 * clean-up (deleting its staged files) runs only once that end is durably recorded: a job whose end could not be
 * recorded (a full disk, a crash) is run again later and still finds its files.
 */
final class JobRunner implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(JobRunner.class.getName());
    private static final long PROGRESS_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

    private final JobStore jobs;
    private final Function<String, JobHandler> handlers;
    private final BiConsumer<String, String> changed;
    private final Metrics metrics;
    private final Duration staleAfter;
    private final int maxAttempts;
    private final Semaphore wakeUp = new Semaphore(0);
    private final Requeue requeue;
    private final List<Thread> workers = new ArrayList<>();
    private final ConcurrentMap<String, RunContext> active = new ConcurrentHashMap<>();
    private final Thread heartbeat;
    private final Thread fairness;
    private final Duration slice;
    private volatile boolean running = true;
    private volatile boolean beating = true;

    /** Kinds no job yields to: they cannot yield back, and may run for hours (an upload waited for a back-fill). */
    private static final Set<String> HOLDING = Set.of(Backfill.KIND);

    /**
     * @param handlers the handler of each job kind (throws for a kind nobody runs: the job fails, saying so)
     * @param changed told a job's id and {@code progress} or {@code finished} after each write
     * @param slice how long a resumable job may keep a worker while another tenant's job waits for one
     */
    JobRunner(JobStore jobs, Function<String, JobHandler> handlers, BiConsumer<String, String>
            changed, Metrics metrics, int workers, Duration staleAfter, int maxAttempts, Duration slice) {
        this.jobs = jobs;
        this.requeue = new Requeue(jobs, changed);
        this.slice = slice;
        this.metrics = metrics;
        this.handlers = handlers;
        this.changed = changed;
        this.staleAfter = staleAfter;
        this.maxAttempts = maxAttempts;
        for (int i = 0; i < workers; i++) {
            this.workers.add(Thread.ofVirtual().name("polyrag-job-worker-" + i).start(this::loop));
        }
        this.heartbeat = workers == 0 ? null : Thread.ofVirtual().name("polyrag-job-heartbeat").start(this::beat);
        this.fairness = workers == 0 ? null : Thread.ofVirtual().name("polyrag-job-fairness").start(this::share);
    }

    /**
     * Once a second, while every worker is busy: the resumable job that has run longest past its slice is asked to
     * yield when another tenant's job waits, so one tenant's large job cannot keep another's small one queued. Only
     * one job yields per second: the freed worker then claims the waiting tenant's job first (fair claiming).
     */
    private void share() {
        while (running) {
            try {
                Thread.sleep(1000);
            } catch (InterruptedException e) {
                return;
            }
            if (active.size() < workers.size()) {
                continue;
            }
            long now = System.nanoTime();
            RunContext longest = null;
            for (RunContext c : active.values()) {
                // Only once this run did new work: a resumed run re-walks what it finished (each file read and found
                // unchanged), and asked to yield before it reached anything new, it never got further while another
                // tenant kept a job queued.
                if (c.resumable && !c.yieldAsked && c.progressed && now - c.started >= slice.toNanos()
                        && (longest == null || c.started < longest.started)) {
                    longest = c;
                }
            }
            try {
                if (longest != null && jobs.othersWaiting(longest.tenant, HOLDING)) {
                    LOG.log(Level.INFO, "job " + longest.id + " yields its worker to another tenant's job; it "
                            + "resumes after it");
                    longest.yieldAsked = true;
                }
            } catch (RuntimeException | Error e) {
                LOG.log(Level.WARNING, "cannot look for waiting jobs: " + e);
            }
        }
    }

    /** A cancel of a job this process may be running, asked here: seen at its next check, not its next progress. */
    void canceled(String id) {
        RunContext c = active.get(id);
        if (c != null) {
            c.cancelAsked();
        }
    }

    /** Heartbeats every job this process runs, four times per stale timeout; a lost claim stops its worker. */
    private void beat() {
        long interval = Math.max(250, staleAfter.toMillis() / 4);
        // Until close() has waited for the jobs (another replica claimed one gone stale as it wound down).
        while (beating) {
            try {
                Thread.sleep(interval);
            } catch (InterruptedException e) {
                return;
            }
            for (RunContext c : active.values()) {
                try {
                    if (!jobs.heartbeat(c.id, c.attempt)) {
                        c.lost();
                    } else if (!c.canceled && jobs.cancelRequested(c.id)) {
                        // Asked through another replica: a long item writes no progress, which reads the cancel.
                        c.cancelAsked();
                    }
                } catch (RuntimeException | Error e) {
                    LOG.log(Level.WARNING, "cannot heartbeat job " + c.id + ": " + e);
                }
            }
        }
    }

    private static final Duration STORE_WAIT_FIRST = Duration.ofSeconds(2);
    private static final Duration STORE_WAIT_MAX = Duration.ofSeconds(60);
    /** The pause after the last job that stopped because a store could not be reached; zero after a job ends. */
    private final AtomicReference<Duration> storeWait = new AtomicReference<>(Duration.ZERO);
    private volatile long storeWaitUntil = System.nanoTime();

    /** Wakes a worker: a job was just submitted. */
    void poke() {
        wakeUp.release();
    }

    private void loop() {
        while (running) {
            try {
                long wait = storeWaitUntil - System.nanoTime();
                if (wait > 0) {
                    // A store could not be reached: give it time before the next claim retries the job.
                    Thread.sleep(Math.min(TimeUnit.NANOSECONDS.toMillis(wait) + 1, 1000));
                    continue;
                }
                if (requeue.retry()) {
                    continue;
                }
                Optional<JobStore.Claimed> job = jobs.claim(staleAfter, maxAttempts);
                if (job.isPresent() && job.get().gaveUp()) {
                    gaveUp(job.get());
                } else if (job.isPresent()) {
                    run(job.get());
                } else {
                    wakeUp.tryAcquire(1, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException | Error e) {
                // An Error escaping here would end this worker for good: it is logged and the loop goes on.
                LOG.log(Level.ERROR, "job worker error; retrying in a second", e);
                sleepQuietly();
            }
        }
    }

    /** A job the claim gave up on (failed): tell its readers, and release what it held. */
    private void gaveUp(JobStore.Claimed job) {
        LOG.log(job.info().status() == JobStatus.CANCELED ? Level.INFO : Level.ERROR, "job " + job.info().id() + " of tenant "
                + JobOutcome.tenantOf(job) + " " + job.info().status().wireName() + ": " + job.info().error());
        metrics.jobEnded(job.info().kind(), job.info().status(), 0, 0);
        changed.accept(job.info().id(), "finished");
        try {
            handlers.apply(job.info().kind()).ended(job);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "cannot release what job " + job.info().id() + " held: " + e.getMessage());
        }
    }

    // style: one job's life in order: claim, run, the outcomes (done, yielded, canceled, shut down, failed) and release
    private void run(JobStore.Claimed job) {
        String id = job.info().id();
        RunContext context = new RunContext(id, job.info().attempts(), job.info().progress(), job.info().tenant());
        JobHandler handler = null;
        boolean recorded;
        MDC.put("job", id);
        MDC.put("tenant", JobOutcome.tenantOf(job));
        active.put(id, context);
        context.trace = (metrics == null ? Tracing.off() : metrics.tracing()).job(id, job.info().kind(),
                JobOutcome.tenantOf(job));
        if (context.trace.traceId() != null) {
            MDC.put("trace_id", context.trace.traceId());
        }
        String outcome = "released";
        try {
            handler = handlers.apply(job.info().kind());
            context.resumable = handler.resumable(job.payload());
            if (!running) {
                context.shutdown = true;
            }
            JobProgress done;
            try (Tracing.Entered traced = context.trace.enter()) {
                done = handler.run(job, context);
            } catch (JobHandler.Yielded y) {
                done = null;
            }
            done = done == null && context.canceledByRequest ? context.latest : done; // canceled as it yielded: ends
            if (done == null || context.shutdown && !context.canceledByRequest) {
                release(context, done == null ? "yielded to another tenant's job" : "stopped for shutdown");
                return;
            }
            storeWait.set(Duration.ZERO);
            JobStatus status = context.canceledByRequest ? JobStatus.CANCELED : JobOutcome.status(done);
            outcome = status.wireName();
            String said = context.canceledByRequest ? "canceled by request after " + done.processed() + " of "
                    + done.total() + " items; what was indexed before stays indexed"
                    : JobOutcome.error(status, done, handler.item());
            JobProgress result = done;
            recorded = ended(() -> jobs.finish(id, context.attempt, status, result, said));
            context.stageEnded();
            if (recorded) {
                metrics.jobEnded(job.info().kind(), status, done.added() + done.updated(), done.chunks());
            }
        } catch (EndNotRecorded e) {
            // Its work is done; only the catalog did not take its end. Recorded failed (with the catalog's words), a
            // finished reindex made its operator run it again: left running, it is claimed again once stale.
            LOG.log(Level.WARNING, "job " + id + " finished but its end could not be recorded (" + e.getMessage()
                    + "); it is run again once its claim is stale");
            outcome = "end not recorded";
            MDC.clear();
            return;
        } catch (RuntimeException e) {
            if (context.shutdown && !context.canceledByRequest) {
                // A store or model closing under it: the job is not at fault.
                release(context, "stopped for shutdown (" + e.getMessage() + ")");
                return;
            }
            boolean noRoom = StorageProblems.kind(e) == StorageProblems.Kind.DISK_FULL
                    || StorageProblems.kind(e) == StorageProblems.Kind.NOT_WRITABLE;
            if (context.resumable && !context.canceledByRequest && (StorageProblems.unreachable(e) || noRoom)) {
                // A server down or restarting, or a full disk, is not the job's fault either: it goes back in the
                // queue, uncharged, and resumes (its finished items found unchanged) once the store answers or space
                // is freed, after a growing pause. Failed, it lost the accepted files it had not reached yet.
                Duration pause = storeWait.updateAndGet(d -> d.isZero() ? STORE_WAIT_FIRST
                        : d.multipliedBy(2).compareTo(STORE_WAIT_MAX) > 0 ? STORE_WAIT_MAX : d.multipliedBy(2));
                storeWaitUntil = System.nanoTime() + pause.toNanos();
                String why = e.getMessage() + "; it resumes once " + (noRoom ? "the store can write again (free "
                        + "space, or make it writable)" : "the store answers") + " (next try in " + pause.toSeconds()
                        + " s), or cancel it";
                // Kept as the run's last counts too: release writes them, and wrote over the reason.
                context.latest = (context.latest == null ? JobProgress.queued() : context.latest).waiting(why);
                release(context, "waits " + pause.toSeconds() + " s for a store that cannot "
                        + (noRoom ? "write" : "be reached") + " (" + e.getMessage() + ")", JobProgress.WAITING);
                return;
            }
            if (e instanceof StoreException) {
                LOG.log(Level.ERROR, "job " + id + " of tenant " + JobOutcome.tenantOf(job) + " failed: " + e.getMessage());
            } else {
                LOG.log(Level.ERROR, "job " + id + " of tenant " + JobOutcome.tenantOf(job) + " failed", e);
            }
            outcome = "failed";
            recorded = jobs.finish(id, context.attempt, JobStatus.FAILED, context.latest, e.getMessage() == null
                    ? e.getClass().getSimpleName() : e.getMessage());
            if (recorded) {
                metrics.jobEnded(job.info().kind(), JobStatus.FAILED, 0, 0);
            }
        } catch (Error e) {
            if (e instanceof OutOfMemoryError && context.resumable && !context.canceledByRequest) {
                // Memory run out (a moment's, often, beside other work): a resumable job is left as a crash leaves
                // it, to be claimed again once stale, each run that gets no further counted, so a job that always
                // runs out is given up in the end. Failed at once, an upload lost every file it had not reached.
                LOG.log(Level.ERROR, "job " + id + " of tenant " + JobOutcome.tenantOf(job) + " ran out of memory; it is tried "
                        + "again once its claim is stale (a run that gets no further counts against it)", e);
                outcome = "out of memory";
                changed.accept(id, "progress");
                MDC.clear();
                return;
            }
            // A stack overflow in a parser, a class that would not link: the job fails, saying so, and this worker
            // goes on. Escaping, it ended the worker's thread with the job left 'running' (with one worker, nothing
            // ran again until a restart, which ran the same job into the same Error).
            LOG.log(Level.ERROR, "job " + id + " of tenant " + JobOutcome.tenantOf(job) + " failed with " + e, e);
            outcome = "failed";
            boolean ended;
            try {
                ended = jobs.finish(id, context.attempt, JobStatus.FAILED, context.latest, "it stopped on an internal "
                        + "error (" + e.getClass().getSimpleName() + "); the server log has the details");
            } catch (RuntimeException x) {
                ended = false;
            }
            recorded = ended;
            if (recorded && metrics != null) {
                metrics.jobEnded(job.info().kind(), JobStatus.FAILED, 0, 0);
            }
        } finally {
            active.remove(id, context);
            context.trace.end(outcome);
        }
        if (!recorded) {
            LOG.log(Level.WARNING, "job " + id + " was taken over by another worker while this one ran it (attempt "
                    + context.attempt + "); its end is theirs to record");
        }
        // A lost claim's job runs on elsewhere: its readers see that job, not an end.
        changed.accept(id, recorded ? "finished" : "progress");
        if (handler != null && recorded) {
            handler.ended(job);
        }
        MDC.clear();
    }

    /** A job's end the catalog would not take, after three tries. */
    private static final class EndNotRecorded extends RuntimeException {
        EndNotRecorded(RuntimeException cause) {
            super(cause.getMessage(), cause);
        }
    }

    /** Writes a job's end, tried three times: a lock timeout of a moment is not the job's failure. */
    private static boolean ended(BooleanSupplier write) {
        RuntimeException last = null;
        for (int attempt = 0; attempt < 3; attempt++) {
            try {
                return write.getAsBoolean();
            } catch (RuntimeException e) {
                last = e;
                try {
                    Thread.sleep(250L << attempt);
                } catch (InterruptedException x) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        throw new EndNotRecorded(last);
    }

    /** Puts a job stopped on purpose (a yield, shutdown) back in the queue: not ended, not charged. */
    private void release(RunContext context, String why) {
        release(context, why, "queued");
    }

    /** Like {@link #release(RunContext, String)}; the queued job shows {@code stage} until it runs again. */
    private void release(RunContext context, String why, String stage) {
        // Refused (the catalog's disk full too): held and tried again each second, unless this process is stopping.
        boolean released = requeue.release(context.id, context.attempt, context.latest, stage, running);
        LOG.log(Level.INFO, "job " + context.id + " " + why + (released ? "; it resumes later, its finished items "
                + "found unchanged" : ""));
        changed.accept(context.id, "progress");
        MDC.clear();
        if (released && running) {
            poke();
        }
    }

    /** The job as a reader sees it: one this process stopped but could not put back yet is shown queued. */
    JobInfo shown(JobInfo j) {
        return requeue.shown(j);
    }

    /** A running job's progress sink: writes at most every quarter second and on each stage change. */
    private final class RunContext implements JobHandler.Context {
        private final String id;
        private final int attempt;
        private final String tenant;
        private final long started = System.nanoTime();
        private long last;
        private String lastStage = "";
        private long stageStart = System.nanoTime();
        private JobProgress latest;
        private int firstWork = -1;
        private int firstProcessed = -1;
        private volatile boolean canceled; // a cancel was requested, or the claim was lost
        private volatile boolean canceledByRequest; // by a user (not a lost claim)
        private volatile boolean shutdown;
        private volatile boolean yieldAsked;
        /** This run has done new work (added, updated or failed an item), not only found finished ones unchanged. */
        private volatile boolean progressed;
        private volatile boolean resumable;
        private Tracing.Job trace = Tracing.Job.NONE; // a span per stage

        RunContext(String id, int attempt, JobProgress start, String tenant) {
            this.id = id;
            this.attempt = attempt;
            this.latest = start;
            this.tenant = tenant == null ? "" : tenant;
            // The stored mark, not this run's first report: a resumed sync finding all unchanged counts from 0 again.
            this.firstProcessed = start == null ? -1 : start.processed();
        }

        /** The claim lapsed (another worker runs the job now): stop at the next item. */
        void lost() {
            canceled = true;
        }

        /** A cancel was asked: stop at the next check, and end the job canceled. */
        void cancelAsked() {
            canceledByRequest = true;
            canceled = true;
        }

        @Override
        public void progress(JobProgress p) {
            latest = p;
            // Past the run's first counts: a resumed upload's carry its earlier runs' work.
            int work = p.added() + p.updated() + p.failed();
            firstWork = firstWork < 0 ? work : firstWork;
            // Or items walked past the stored mark: a sync of 50,000 unchanged files held the worker for all of it.
            firstProcessed = firstProcessed < 0 ? p.processed() : firstProcessed;
            progressed |= work > firstWork || p.processed() > firstProcessed;
            long now = System.nanoTime();
            if (!p.stage().equals(lastStage) || now - last >= PROGRESS_INTERVAL_NANOS) {
                if (!p.stage().equals(lastStage)) {
                    stageEnded();
                    trace.stage(p.stage());
                }
                last = now;
                lastStage = p.stage();
                if (!jobs.progress(id, attempt, p)) {
                    canceled = true;
                    canceledByRequest = true;
                }
                changed.accept(id, "progress");
            }
        }

        @Override
        public boolean canceled() {
            return canceled || shutdown;
        }

        @Override
        public boolean yieldRequested() {
            return yieldAsked;
        }

        @Override
        public boolean canceledByRequest() {
            return canceledByRequest;
        }

        @Override
        public boolean stillClaimed() {
            if (!canceled() && !jobs.heartbeat(id, attempt)) {
                lost();
            }
            return !canceled();
        }

        /** The stage that was running has ended: record how long it took. */
        void stageEnded() {
            long now = System.nanoTime();
            if (!lastStage.isEmpty()) {
                metrics.stage(lastStage, Duration.ofNanos(now - stageStart));
            }
            stageStart = now;
        }
    }

    private void sleepQuietly() {
        try {
            wakeUp.tryAcquire(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Asks every running job to stop at its next file and takes no new one, without waiting: a stop overlaps the
     * jobs' wind-down with the HTTP server's drain. {@link #close()} then waits for them.
     */
    void stopTakingWork() {
        running = false;
        active.values().forEach(c -> c.shutdown = true);
        wakeUp.release(workers.size());
    }

    /** How long {@link #close()} waits for running jobs (a test's is shorter). */
    static volatile long stopWaitMs = 30_000;

    /**
     * Stops taking jobs, asks running ones to stop at their next item (requeued, uncharged, resumed at the next start
     * or on another replica), and waits up to half a minute in all. Workers are never interrupted mid-job (an
     * interrupt in a database or index write can close its file); one still running then is requeued at the next
     * start, and its model runs finish before the models close.
     */
    @Override
    public void close() {
        running = false;
        active.values().forEach(c -> c.shutdown = true);
        if (fairness != null) {
            fairness.interrupt();
        }
        wakeUp.release(workers.size());
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(stopWaitMs);
        for (Thread t : workers) {
            try {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0 || !t.join(Duration.ofMillis(left))) {
                    LOG.log(Level.WARNING, "a job is still running at shutdown; it is requeued at the next start");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        beating = false;
        if (heartbeat != null) {
            heartbeat.interrupt();
        }
        // Stopped on purpose, not crashed: a run still winding down is not counted against its job when it is
        // claimed again (three rolling restarts during one extraction batch gave an upload up, its files deleted).
        requeue.stop();
        for (RunContext c : active.values()) {
            try {
                jobs.excuse(c.id, c.attempt);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "cannot mark job " + c.id + " as stopped for shutdown: " + e.getMessage());
            }
        }
    }
}
