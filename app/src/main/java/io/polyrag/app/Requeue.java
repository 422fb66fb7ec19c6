package io.polyrag.app;

import io.polyrag.core.model.JobInfo;
import io.polyrag.core.model.JobProgress;
import io.polyrag.core.model.JobStatus;
import io.polyrag.core.port.JobStore;
import java.lang.System.Logger.Level;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.BiConsumer;

/**
 * Puts the jobs a worker stops without ending (a store to wait for, a yield) back in the queue. One the catalog would
 * not take back (its own disk full, its server gone) is held here and tried again each second by the workers, and
 * until then is shown to readers as it is: queued, with the reason it waits. Left running in the catalog, it stayed
 * hidden until its claim went stale (five minutes by default), shown running at its last stage even once the disk
 * had room again.
 */
final class Requeue {
    private static final System.Logger LOG = System.getLogger(Requeue.class.getName());

    /** A job this process stopped and could not put back yet: its claim, its last counts and its stage. */
    private record Held(int attempt, JobProgress latest, String stage) {
    }

    private final JobStore jobs;
    private final BiConsumer<String, String> changed;
    private final ConcurrentMap<String, Held> held = new ConcurrentHashMap<>();

    /** @param changed told a job's id and {@code progress} once one held here is back in the queue */
    Requeue(JobStore jobs, BiConsumer<String, String> changed) {
        this.jobs = jobs;
        this.changed = changed;
    }

    /**
     * Puts the job back in the queue with its last counts ({@code latest}, null: none), showing {@code stage}.
     *
     * @return whether it went back now ({@code false}: its claim was lost, or it is held to try again)
     */
    boolean release(String id, int attempt, JobProgress latest, String stage, boolean retryLater) {
        try {
            return write(id, attempt, latest, stage);
        } catch (RuntimeException e) {
            if (retryLater) {
                held.put(id, new Held(attempt, latest, stage));
            }
            LOG.log(Level.WARNING, "cannot put job " + id + " back in the queue (" + e.getMessage() + "); it is "
                    + (retryLater ? "tried again each second" : "requeued at the next start or once stale"));
            return false;
        }
    }

    private boolean write(String id, int attempt, JobProgress latest, String stage) {
        if (latest != null) { // its last counts, which the run resuming it adds to
            jobs.progress(id, attempt, latest);
        }
        return jobs.release(id, attempt, stage);
    }

    /** Tries the held jobs again. @return whether one went back in the queue */
    boolean retry() {
        boolean any = false;
        for (Map.Entry<String, Held> e : held.entrySet()) {
            Held h = e.getValue();
            try {
                boolean released = write(e.getKey(), h.attempt(), h.latest(), h.stage());
                held.remove(e.getKey(), h); // put back, or its claim was taken: either way no longer ours
                any |= released;
                LOG.log(Level.INFO, "job " + e.getKey() + (released ? " is back in the queue" : " was taken over"));
                changed.accept(e.getKey(), "progress");
            } catch (RuntimeException x) {
                // Still refused: the next second tries again.
            }
        }
        return any;
    }

    /**
     * At shutdown, after the workers: the held jobs are put back if the catalog now takes them, and those it still
     * refuses are marked stopped on purpose, so the next start's claim does not count the run against them.
     */
    void stop() {
        retry();
        // Each call to a catalog that does not answer may wait its connect timeout: the first refusal ends the try.
        for (Map.Entry<String, Held> e : held.entrySet()) {
            try {
                jobs.excuse(e.getKey(), e.getValue().attempt());
            } catch (RuntimeException x) {
                LOG.log(Level.WARNING, "cannot mark " + held.size() + " held jobs as stopped for shutdown: "
                        + x.getMessage());
                return;
            }
        }
    }

    /** The job as a reader sees it: one held here is queued, at its last counts, whatever the catalog still says. */
    JobInfo shown(JobInfo j) {
        Held h = held.get(j.id());
        if (h == null || j.status() != JobStatus.RUNNING || j.attempts() != h.attempt()) {
            return j;
        }
        JobProgress p = (h.latest() == null ? j.progress() : h.latest()).toBuilder().stage(h.stage()).build();
        return new JobInfo(j.id(), j.kind(), JobStatus.QUEUED, p, j.error(), j.attempts(), j.createdAt(),
                j.updatedAt(), j.tenant(), j.knowledgeBase(), j.source(), j.startedAt());
    }
}
