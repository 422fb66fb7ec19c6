package io.polyrag.app;

import io.polyrag.core.model.JobProgress;
import io.polyrag.core.port.JobStore;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;

/**
 * Background workers that claim jobs from the {@link JobStore} and run them. Workers are virtual threads; each
 * polls for work, waking at once when a job is submitted in this process and every second otherwise (jobs submitted
 * by other replicas over a shared database). A job's progress is written at most every quarter second, and on every
 * stage change; that write is also the heartbeat that keeps other workers from reclaiming it.
 */
final class JobRunner implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(JobRunner.class.getName());
    private static final long PROGRESS_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

    /** Runs one job: receives the claimed job and a progress sink, returns the final progress or throws. */
    interface Handler extends BiFunction<JobStore.Claimed, java.util.function.Consumer<JobProgress>, JobProgress> {
    }

    private final JobStore jobs;
    private final Handler handler;
    private final Duration staleAfter;
    private final int maxAttempts;
    private final Semaphore wakeUp = new Semaphore(0);
    private final List<Thread> workers = new ArrayList<>();
    private volatile boolean running = true;

    JobRunner(JobStore jobs, Handler handler, int workers, Duration staleAfter, int maxAttempts) {
        this.jobs = jobs;
        this.handler = handler;
        this.staleAfter = staleAfter;
        this.maxAttempts = maxAttempts;
        for (int i = 0; i < workers; i++) {
            this.workers.add(Thread.ofVirtual().name("polyrag-job-worker-" + i).start(this::loop));
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
        long[] last = {0};
        String[] lastStage = {""};
        JobProgress[] latest = {job.info().progress()};
        try {
            JobProgress done = handler.apply(job, p -> {
                latest[0] = p;
                long now = System.nanoTime();
                if (!p.stage().equals(lastStage[0]) || now - last[0] >= PROGRESS_INTERVAL_NANOS) {
                    last[0] = now;
                    lastStage[0] = p.stage();
                    jobs.progress(id, p);
                }
            });
            jobs.finish(id, done, null);
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, "job " + id + " failed", e);
            jobs.finish(id, latest[0], e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
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
     * Stops taking jobs and waits for running ones. Workers are never interrupted mid-job (an interrupt inside a
     * database or index write can close its file); a job still running when the wait ends is requeued at next start.
     */
    @Override
    public void close() {
        running = false;
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
