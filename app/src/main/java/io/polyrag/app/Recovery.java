package io.polyrag.app;

import io.polyrag.core.config.Config;
import io.polyrag.core.config.Settings;
import io.polyrag.core.model.CheckReport;
import io.polyrag.core.port.Catalog;
import io.polyrag.core.port.JobStore;
import io.polyrag.ingest.IngestPipeline;
import io.polyrag.ingest.StoreCheck;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * What opening a data directory does before it serves, after an unclean stop or not: versions a crash left pending
 * are removed from every store, replaced and deleted versions a crash left in the stores are purged, running jobs
 * are requeued, staged files no job owns are deleted, and each store's record count is compared with the catalog's.
 * A store that lacks records is reported (a problem: {@code /health} names it and the fix, {@code /ready} answers
 * 503 only while no leg is whole); records no
 * visible version owns are removed.
 */
final class Recovery {
    private static final System.Logger LOG = System.getLogger(Recovery.class.getName());

    private Recovery() {
    }

    /**
     * Recovers the data directory; returns the problems found, one line each (empty: consistent). On a catalog
     * shared with other replicas, what is running or pending may be theirs: only versions pending for longer than
     * the stale timeout are discarded, and jobs are left to the stale-job reclaim of {@link JobStore#claim}.
     */
    static List<String> run(Catalog catalog, JobStore jobStore, IngestPipeline pipeline, Config config,
            Path staging, JobEngine jobs) {
        boolean shared = catalog.shared();
        int cleaned = pipeline.recover(shared ? stale(config) : null);
        int requeued = shared ? 0 : jobStore.requeueRunning();
        if (cleaned + requeued > 0) {
            LOG.log(Level.INFO, "recovered from an unclean stop: " + cleaned + " unfinished versions removed, "
                    + requeued + " jobs requeued");
        }
        deleteUnownedStaging(jobStore, staging, jobs);
        StoreCheck check = new StoreCheck(pipeline);
        if (check.countMismatches().isEmpty()) {
            return List.of();
        }
        List<String> problems = problems(check.run(StoreCheck.Repair.ORPHANS));
        problems.forEach(p -> LOG.log(Level.WARNING, p));
        return problems;
    }

    static Duration stale(Config config) {
        return Duration.ofSeconds(config.get(Settings.INGEST_JOB_STALE_SECONDS));
    }

    /**
     * Recovery while serving, every minute (or half the stale timeout, if shorter). With workers: over a shared
     * catalog, versions pending for longer than the stale timeout are discarded (their writer died); then everything
     * discarded, replaced or deleted that a failed write or a dead replica left in the stores is purged, and
     * {@code withWorkers} runs (staged uploads). Always: {@code always} (re-judging incomplete legs, which another
     * replica may have back-filled). Never interrupted mid-write: closing waits for a sweep in progress.
     */
    static final class Sweeper implements AutoCloseable {
        private final CountDownLatch stop = new CountDownLatch(1);
        private final Thread thread;

        /**
         * @param shared the catalog is shared with other replicas
         * @param stale the age past which a pending version is a dead writer's
         */
        Sweeper(IngestPipeline pipeline, boolean shared, Duration stale, boolean workers, Runnable withWorkers,
                Runnable always) {
            long interval = Math.max(1000, Math.min(60_000, stale.toMillis() / 2));
            thread = Thread.ofVirtual().name("polyrag-recovery").start(() -> {
                try {
                    while (!stop.await(interval, TimeUnit.MILLISECONDS)) {
                        try {
                            if (workers) {
                                // One process alone on its catalog has nothing pending but its own writes in
                                // progress: only a shared catalog's old pending versions are a dead writer's.
                                if (shared) {
                                    pipeline.recover(stale);
                                } else {
                                    pipeline.purgeUnpurged();
                                }
                                withWorkers.run();
                            }
                            always.run();
                        } catch (RuntimeException | Error e) {
                            // An out-of-memory error too (its listings are the largest reads): ended, nothing was
                            // swept, purged or expired again until a restart.
                            LOG.log(Level.WARNING, "recovery sweep failed (retried in " + interval / 1000 + " s): "
                                    + e);
                        }
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }

        @Override
        public void close() {
            stop.countDown();
            try {
                thread.join(30_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** How a line of {@link #problems} names orphan records. */
    static final String ORPHANS = "document versions no visible version owns";

    /** One line per store that still differs from the catalog, naming the fix. */
    static List<String> problems(CheckReport r) {
        List<String> out = new ArrayList<>();
        for (CheckReport.StoreCheck s : r.stores()) {
            if (s.lackingVersions() > s.reindexedVersions()) {
                out.add("the " + s.store() + " store lacks " + s.lackingRecords() + " records of "
                        + s.lackingVersions() + " visible document versions (it holds " + s.records()
                        + " records, the catalog expects " + s.expectedRecords() + "): run " + (s.store().equals("vector")
                        || s.store().equals("fulltext") ? "'polyrag reindex --modality " + s.store() + "' (or POST "
                        + "/v1/admin/reindex?modality=" + s.store() + ") to back-fill it in the background, or " : "")
                        + "'polyrag check --repair' (or POST /v1/admin/check?repair=true) to re-index them from the "
                        + "catalog");
            } else if (s.orphanVersions() > s.removedVersions()) {
                out.add("the " + s.store() + " store holds " + s.orphanRecords() + " records of "
                        + s.orphanVersions() + " " + ORPHANS + ": run 'polyrag check --repair' to remove them");
            }
        }
        return out;
    }

    /**
     * Deletes job staging folders that no queued or running job names: left by a crash between staging and
     * submitting, or by a job that gave up. Runs before the job workers start, under the data directory's lock.
     */
    private static void deleteUnownedStaging(JobStore store, Path staging, JobEngine jobs) {
        if (!Files.isDirectory(staging)) {
            return;
        }
        Set<Path> owned = new HashSet<>();
        for (JobStore.Claimed j : store.unfinished()) {
            jobs.stagingDir(j.info().kind(), j.payload()).ifPresent(owned::add);
        }
        try (Stream<Path> s = Files.list(staging)) {
            for (Path dir : s.filter(Files::isDirectory).toList()) {
                if (!dir.getFileName().toString().equals("uploads") && !owned.contains(dir.toAbsolutePath()
                        .normalize())) {
                    Uploads.deleteTree(dir);
                }
            }
        } catch (IOException e) {
            LOG.log(Level.WARNING, "cannot list staged job files in " + staging + ": " + e.getMessage());
        }
    }
}
