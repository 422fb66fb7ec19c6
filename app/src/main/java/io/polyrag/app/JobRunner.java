package io.polyrag.app;

import io.polyrag.core.model.JobProgress;
import io.polyrag.core.model.JobStatus;
import io.polyrag.core.port.JobStore;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

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
    private final java.util.function.BiConsumer<String, String> changed;
    private final Metrics metrics;
    private final Duration staleAfter;
    private final int maxAttempts;
    private final Semaphore wakeUp = new Semaphore(0);
    private final List<Thread> workers = new ArrayList<>();
    private final java.util.concurrent.ConcurrentMap<String, RunContext> active =
            new java.util.concurrent.ConcurrentHashMap<>();
    private final Thread heartbeat;
    private volatile boolean running = true;

    /**
     * @param handlers the handler of each job kind (throws for a kind nobody runs: the job fails, saying so)
     * @param changed told a job's id and {@code progress} or {@code finished} after each write
     */
    JobRunner(JobStore jobs, Function<String, JobHandler> handlers, java.util.function.BiConsumer<String, String>
            changed, Metrics metrics, int workers, Duration staleAfter, int maxAttempts) {
        this.jobs = jobs;
        this.metrics = metrics;
        this.handlers = handlers;
        this.changed = changed;
        this.staleAfter = staleAfter;
        this.maxAttempts = maxAttempts;
        for (int i = 0; i < workers; i++) {
            this.workers.add(Thread.ofVirtual().name("polyrag-job-worker-" + i).start(this::loop));
        }
        this.heartbeat = workers == 0 ? null : Thread.ofVirtual().name("polyrag-job-heartbeat").start(this::beat);
    }

    /** Heartbeats every job this process runs, four times per stale timeout; a lost claim stops its worker. */
    private void beat() {
        long interval = Math.max(250, staleAfter.toMillis() / 4);
        while (running) {
            try {
                Thread.sleep(interval);
            } catch (InterruptedException e) {
                return;
            }
            for (RunContext c : active.values()) {
                try {
                    if (!jobs.heartbeat(c.id, c.attempt)) {
                        c.lost();
                    }
                } catch (RuntimeException e) {
                    LOG.log(Level.WARNING, "cannot heartbeat job " + c.id + ": " + e.getMessage());
                }
            }
        }
    }

    /** Wakes a worker: a job was just submitted. */
    void poke() {
        wakeUp.release();
    }

    private void loop() {
        while (running) {
            try {
                Optional<JobStore.Claimed> job = jobs.claim(staleAfter, maxAttempts);
                if (job.isPresent()) {
                    run(job.get());
                } else {
                    wakeUp.tryAcquire(1, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                LOG.log(Level.ERROR, "job worker error; retrying in a second", e);
                sleepQuietly();
            }
        }
    }

    private void run(JobStore.Claimed job) {
        String id = job.info().id();
        RunContext context = new RunContext(id, job.info().attempts(), job.info().progress());
        JobHandler handler = null;
        boolean recorded;
        org.slf4j.MDC.put("job", id);
        org.slf4j.MDC.put("tenant", tenantOf(job));
        active.put(id, context);
        try {
            handler = handlers.apply(job.info().kind());
            JobProgress done = handler.run(job, context);
            JobStatus status = context.canceled ? JobStatus.CANCELED : status(done);
            recorded = jobs.finish(id, context.attempt, status, done, context.canceled ? "canceled by request after "
                    + done.processed() + " of " + done.total() + " items; what was indexed before stays indexed"
                    : error(status, done));
            context.stageEnded();
            if (recorded) {
                metrics.jobEnded(job.info().kind(), status, done.added() + done.updated(), done.chunks());
            }
        } catch (RuntimeException e) {
            if (e instanceof io.polyrag.core.StoreException) {
                LOG.log(Level.ERROR, "job " + id + " of tenant " + tenantOf(job) + " failed: " + e.getMessage());
            } else {
                LOG.log(Level.ERROR, "job " + id + " of tenant " + tenantOf(job) + " failed", e);
            }
            recorded = jobs.finish(id, context.attempt, JobStatus.FAILED, context.latest, e.getMessage() == null
                    ? e.getClass().getSimpleName() : e.getMessage());
            if (recorded) {
                metrics.jobEnded(job.info().kind(), JobStatus.FAILED, 0, 0);
            }
        } finally {
            active.remove(id, context);
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
        org.slf4j.MDC.clear();
    }

    /** A running job's progress sink: writes at most every quarter second and on each stage change. */
    private final class RunContext implements JobHandler.Context {
        private final String id;
        private final int attempt;
        private long last;
        private String lastStage = "";
        private long stageStart = System.nanoTime();
        private JobProgress latest;
        private volatile boolean canceled;

        RunContext(String id, int attempt, JobProgress start) {
            this.id = id;
            this.attempt = attempt;
            this.latest = start;
        }

        /** The claim lapsed (another worker runs the job now): stop at the next item. */
        void lost() {
            canceled = true;
        }

        @Override
        public void progress(JobProgress p) {
            latest = p;
            long now = System.nanoTime();
            if (!p.stage().equals(lastStage) || now - last >= PROGRESS_INTERVAL_NANOS) {
                if (!p.stage().equals(lastStage)) {
                    stageEnded();
                }
                last = now;
                lastStage = p.stage();
                if (!jobs.progress(id, attempt, p)) {
                    canceled = true;
                }
                changed.accept(id, "progress");
            }
        }

        @Override
        public boolean canceled() {
            return canceled;
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

    private static String tenantOf(JobStore.Claimed job) {
        return job.info().tenant() == null || job.info().tenant().isEmpty() ? "-" : job.info().tenant();
    }

    static JobStatus status(JobProgress p) {
        if (p.failed() == 0) {
            return JobStatus.SUCCEEDED;
        }
        return p.failed() >= p.total() ? JobStatus.FAILED : JobStatus.PARTIAL;
    }

    static String error(JobStatus status, JobProgress p) {
        return switch (status) {
            case FAILED -> (p.failed() == 1 ? "the file failed" : "all " + p.failed() + " files failed")
                    + (p.errors().isEmpty() ? "" : "; the first: " + p.errors().getFirst().reason());
            case PARTIAL -> p.failed() + " of " + p.total() + " files failed; the others were indexed (see errors)";
            default -> null;
        };
    }

    private void sleepQuietly() {
        try {
            wakeUp.tryAcquire(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Stops taking jobs and waits for running ones. Workers are never interrupted mid-job (an interrupt inside a
     * database or index write can close its file); a job still running when the wait ends is requeued at next start.
     */
    @Override
    public void close() {
        running = false;
        if (heartbeat != null) {
            heartbeat.interrupt();
        }
        wakeUp.release(workers.size());
        for (Thread t : workers) {
            try {
                t.join(TimeUnit.SECONDS.toMillis(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
