package io.polyrag.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.polyrag.core.PolyragException;
import io.polyrag.core.config.Config;
import io.polyrag.core.config.Settings;
import io.polyrag.core.model.ItemError;
import io.polyrag.core.model.JobInfo;
import io.polyrag.core.model.JobProgress;
import io.polyrag.core.model.JobStatus;
import io.polyrag.core.model.Tenant;
import io.polyrag.core.port.JobStore;
import io.polyrag.core.spi.CatalogProvider;
import io.polyrag.core.spi.ProviderContext;
import io.polyrag.core.spi.Providers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The job registry: a new kind of job is one handler class; the workers, statuses and clean-up are shared. */
class JobsTest {
    @TempDir
    Path dir;

    /** A kind of job that counts its payload's words, failing the ones that say "bad". */
    static final class WordJob implements JobHandler {
        final List<String> ended = new CopyOnWriteArrayList<>();

        @Override
        public String kind() {
            return "count-words";
        }

        @Override
        public JobProgress run(JobStore.Claimed job, JobHandler.Context progress) {
            if (job.payload().equals("overflow")) {
                throw new StackOverflowError("a parser recursed too deep");
            }
            String[] words = job.payload().split(" ");
            List<ItemError> bad = java.util.Arrays.stream(words).filter(w -> w.equals("bad"))
                    .map(w -> new ItemError(w, "a bad word")).toList();
            progress.progress(JobProgress.at("counting").total(words.length).build());
            return JobProgress.at("done").total(words.length).processed(words.length).added(words.length - bad.size())
                    .failed(bad.size()).errors(bad).build();
        }

        @Override
        public void ended(JobStore.Claimed job) {
            ended.add(job.info().id());
        }
    }

    @Test
    void a_registered_kind_runs_on_the_shared_workers_and_ends_with_the_status_its_counts_call_for() {
        Config config = Config.defaults(Map.of("POLYRAG_DATA_DIR", dir.toString()));
        try (CatalogProvider.CatalogAndJobs store = Providers.find(CatalogProvider.class, "h2",
                Settings.CATALOG_BACKEND).open(new ProviderContext(config, dir))) {
            WordJob handler = new WordJob();
            try (JobEngine jobs = new JobEngine(store.jobStore(), List.of(handler))) {
                jobs.start(config);
                String ok = jobs.submit(Tenant.LOCAL, "count-words", "three good words");
                String partial = jobs.submit(Tenant.LOCAL, "count-words", "one bad word");
                JobInfo done = await().atMost(Duration.ofSeconds(20)).until(() -> jobs.get(Tenant.LOCAL, ok),
                        j -> j.status().finished());
                assertThat(done.status()).isEqualTo(JobStatus.SUCCEEDED);
                assertThat(done.progress().added()).isEqualTo(3);
                JobInfo half = await().atMost(Duration.ofSeconds(20)).until(() -> jobs.get(Tenant.LOCAL, partial),
                        j -> j.status().finished());
                assertThat(half.status()).isEqualTo(JobStatus.PARTIAL);
                assertThat(half.error()).contains("1 of 3");
                await().atMost(Duration.ofSeconds(5)).until(() -> handler.ended.containsAll(List.of(ok, partial)));
                // An Error fails its job and leaves the worker running (it ended the worker, the job left running).
                String broken = jobs.submit(Tenant.LOCAL, "count-words", "overflow");
                JobInfo failed = await().atMost(Duration.ofSeconds(20)).until(() -> jobs.get(Tenant.LOCAL, broken),
                        j -> j.status().finished());
                assertThat(failed.status()).isEqualTo(JobStatus.FAILED);
                assertThat(failed.error()).contains("StackOverflowError");
                String after = jobs.submit(Tenant.LOCAL, "count-words", "still counting");
                assertThat(await().atMost(Duration.ofSeconds(20)).until(() -> jobs.get(Tenant.LOCAL, after),
                        j -> j.status().finished()).status()).isEqualTo(JobStatus.SUCCEEDED);
                assertThatThrownBy(() -> jobs.submit(Tenant.LOCAL, "re-embed", "x"))
                        .isInstanceOf(PolyragException.class)
                        .hasMessageContaining("unknown job kind 're-embed'").hasMessageContaining("count-words");
                assertThatThrownBy(() -> jobs.get(Tenant.of("other"), ok)).as("another tenant's job is not found")
                        .isInstanceOf(io.polyrag.core.NotFoundException.class);
            }
        }
    }

    /** A job that works until it is asked to stop. */
    static final class Patient implements JobHandler {
        @Override
        public String kind() {
            return "patient";
        }

        @Override
        public JobProgress run(JobStore.Claimed job, JobHandler.Context context) {
            int done = 0;
            while (!context.canceled() && done < 10_000) {
                context.progress(JobProgress.at("waiting").total(10_000).processed(++done).added(done).build());
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            return JobProgress.at("done").total(10_000).processed(done).added(done).build();
        }
    }

    /**
     * A job read back in an older state than one already published (a cancel that read it running, its worker then
     * finishing it) is not published after it: subscribers kept showing the job running.
     */
    @Test
    void an_older_state_read_after_a_newer_one_is_not_published() throws Exception {
        Config config = Config.defaults(Map.of("POLYRAG_DATA_DIR", dir.toString()));
        try (CatalogProvider.CatalogAndJobs store = Providers.find(CatalogProvider.class, "h2",
                Settings.CATALOG_BACKEND).open(new ProviderContext(config, dir))) {
            JobStore real = store.jobStore();
            java.util.concurrent.atomic.AtomicReference<JobInfo> stale = new java.util.concurrent.atomic.AtomicReference<>();
            JobStore reading = (JobStore) java.lang.reflect.Proxy.newProxyInstance(JobStore.class.getClassLoader(),
                    new Class<?>[] {JobStore.class}, (proxy, method, args) -> {
                        if (method.getName().equals("job") && stale.get() != null) {
                            return java.util.Optional.of(stale.get());
                        }
                        try {
                            return method.invoke(real, args);
                        } catch (java.lang.reflect.InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
            try (JobEngine jobs = new JobEngine(reading, List.of(new Patient()))) {
                jobs.start(config);
                String id = jobs.submit(Tenant.LOCAL, "patient", "");
                await().atMost(Duration.ofSeconds(20)).until(() -> jobs.get(Tenant.LOCAL, id).progress()
                        .processed() > 0);
                JobInfo running = real.job(id).orElseThrow();
                jobs.cancel(Tenant.LOCAL, id);
                await().atMost(Duration.ofSeconds(20)).until(() -> jobs.get(Tenant.LOCAL, id).status().finished());
                stale.set(running);
                jobs.changed(id, "progress");
                List<JobEvents.Event> events = jobs.events().after(Tenant.LOCAL, 0, Duration.ofMillis(100));
                assertThat(events.stream().filter(e -> e.job().id().equals(id)).toList().getLast().type())
                        .isEqualTo("finished");
            }
        }
    }

    /**
     * Before a step that deletes, a run asks the store whether it still holds its job: once its claim lapsed (here put
     * back in the queue, as another process's sweep of a stale job does) it stops there, where it deleted on until
     * its next progress write or heartbeat.
     */
    @Test
    void a_run_whose_claim_lapsed_knows_it_before_deleting() {
        Config config = Config.defaults(Map.of("POLYRAG_DATA_DIR", dir.toString()));
        try (CatalogProvider.CatalogAndJobs store = Providers.find(CatalogProvider.class, "h2",
                Settings.CATALOG_BACKEND).open(new ProviderContext(config, dir))) {
            List<Boolean> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
            JobHandler lapsing = new JobHandler() {
                @Override
                public String kind() {
                    return "lapsing";
                }

                @Override
                public JobProgress run(JobStore.Claimed job, JobHandler.Context context) {
                    if (seen.isEmpty()) {
                        seen.add(context.stillClaimed());
                        store.jobStore().requeueRunning();
                        seen.add(context.stillClaimed());
                        seen.add(context.canceled());
                    }
                    return JobProgress.at("done").build();
                }
            };
            try (JobEngine jobs = new JobEngine(store.jobStore(), List.of(lapsing))) {
                jobs.start(config);
                jobs.submit(Tenant.LOCAL, "lapsing", "");
                await().atMost(Duration.ofSeconds(20)).until(() -> seen.size() == 3);
                assertThat(seen).as("claimed, then lapsed (and so stopped)").containsExactly(true, false, true);
            }
        }
    }

    /** A job whose end the catalog refuses once (a lock timeout) is recorded as it ended, not failed. */
    @Test
    void an_end_the_catalog_refuses_once_is_written_again() {
        Config config = Config.defaults(Map.of("POLYRAG_DATA_DIR", dir.toString()));
        try (CatalogProvider.CatalogAndJobs store = Providers.find(CatalogProvider.class, "h2",
                Settings.CATALOG_BACKEND).open(new ProviderContext(config, dir))) {
            JobStore real = store.jobStore();
            java.util.concurrent.atomic.AtomicInteger finishes = new java.util.concurrent.atomic.AtomicInteger();
            JobStore flaky = (JobStore) java.lang.reflect.Proxy.newProxyInstance(JobStore.class.getClassLoader(),
                    new Class<?>[] {JobStore.class}, (proxy, method, args) -> {
                        if (method.getName().equals("finish") && finishes.incrementAndGet() == 1) {
                            throw new io.polyrag.core.StoreException("lock timeout on the jobs table");
                        }
                        try {
                            return method.invoke(real, args);
                        } catch (java.lang.reflect.InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
            WordJob words = new WordJob();
            try (JobEngine jobs = new JobEngine(flaky, List.of(words))) {
                jobs.start(config);
                String id = jobs.submit(Tenant.LOCAL, "count-words", "one two three");
                JobInfo done = await().atMost(Duration.ofSeconds(20)).until(() -> jobs.get(Tenant.LOCAL, id),
                        j -> j.status().finished());
                assertThat(done.status()).as(String.valueOf(done.error())).isEqualTo(JobStatus.SUCCEEDED);
                assertThat(finishes.get()).isEqualTo(2);
            }
        }
    }

    @Test
    void a_queued_job_cancels_at_once_and_a_running_one_stops_at_its_next_progress() throws Exception {
        Config config = Config.defaults(Map.of("POLYRAG_DATA_DIR", dir.toString()));
        try (CatalogProvider.CatalogAndJobs store = Providers.find(CatalogProvider.class, "h2",
                Settings.CATALOG_BACKEND).open(new ProviderContext(config, dir))) {
            try (JobEngine queuedOnly = new JobEngine(store.jobStore(), List.of(new Patient()))) {
                String id = queuedOnly.submit(Tenant.LOCAL, "patient", "");
                assertThat(queuedOnly.cancel(Tenant.LOCAL, id).status()).isEqualTo(JobStatus.CANCELED);
                // Its end is a "finished" event, as any job's: it was "progress", and a client waited for ever.
                assertThat(queuedOnly.events().after(Tenant.LOCAL, 0, Duration.ofMillis(100))).last()
                        .satisfies(e -> assertThat(e.type()).isEqualTo("finished"));
                assertThat(queuedOnly.get(Tenant.LOCAL, id).error()).isEqualTo("canceled before it started");
                assertThatThrownBy(() -> queuedOnly.cancel(Tenant.LOCAL, id))
                        .isInstanceOf(io.polyrag.core.ConflictException.class);
                assertThatThrownBy(() -> queuedOnly.cancel(Tenant.of("other"), id))
                        .isInstanceOf(io.polyrag.core.NotFoundException.class);
            }
            try (JobEngine jobs = new JobEngine(store.jobStore(), List.of(new Patient()))) {
                jobs.start(config);
                String id = jobs.submit(Tenant.LOCAL, "patient", "");
                await().atMost(Duration.ofSeconds(20)).until(() -> jobs.get(Tenant.LOCAL, id).progress()
                        .processed() > 0);
                jobs.cancel(Tenant.LOCAL, id);
                JobInfo done = await().atMost(Duration.ofSeconds(20)).until(() -> jobs.get(Tenant.LOCAL, id),
                        j -> j.status().finished());
                assertThat(done.status()).isEqualTo(JobStatus.CANCELED);
                assertThat(done.error()).contains("canceled by request");
                assertThat(done.progress().processed()).isLessThan(10_000);
                assertThat(jobs.list(Tenant.LOCAL, 0, 10)).extracting(JobInfo::id).contains(id);
            }
        }
    }

    /** A job on one long item: it writes no progress while it works, and looks for a cancel now and then. */
    static final class Silent implements JobHandler {
        @Override
        public String kind() {
            return "silent";
        }

        @Override
        public JobProgress run(JobStore.Claimed job, JobHandler.Context context) {
            context.progress(JobProgress.at("thinking").total(1).build());
            long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (!context.canceled() && System.nanoTime() < end) {
                sleep(20);
            }
            return JobProgress.at("done").total(1).processed(1).added(1).build();
        }
    }

    /**
     * A cancel reaches a job that writes no progress (one long item: a model call per chunk of a large file): asked of
     * the process running it, at its next check; asked through another replica, at its next heartbeat. It waited for
     * the item's end, and a knowledge base's delete gave up on it.
     */
    @Test
    void a_cancel_reaches_a_job_on_one_long_item() throws Exception {
        Config config = Config.defaults(Map.of("POLYRAG_DATA_DIR", dir.toString(),
                "POLYRAG_INGEST_JOB_STALE_SECONDS", "5"));
        try (CatalogProvider.CatalogAndJobs store = Providers.find(CatalogProvider.class, "h2",
                Settings.CATALOG_BACKEND).open(new ProviderContext(config, dir));
                JobEngine jobs = new JobEngine(store.jobStore(), List.of(new Silent()));
                JobEngine elsewhere = new JobEngine(store.jobStore(), List.of(new Silent()))) {
            jobs.start(config);
            for (JobEngine asking : List.of(jobs, elsewhere)) {
                String id = jobs.submit(Tenant.LOCAL, "silent", "");
                await().atMost(Duration.ofSeconds(20)).until(() -> jobs.get(Tenant.LOCAL, id).status()
                        == JobStatus.RUNNING);
                long asked = System.nanoTime();
                asking.cancel(Tenant.LOCAL, id);
                JobInfo done = await().atMost(Duration.ofSeconds(20)).until(() -> jobs.get(Tenant.LOCAL, id),
                        j -> j.status().finished());
                assertThat(done.status()).isEqualTo(JobStatus.CANCELED);
                assertThat((System.nanoTime() - asked) / 1_000_000).as(asking == jobs ? "asked here" : "asked "
                        + "elsewhere").isLessThan(asking == jobs ? 1_000 : 4_000);
            }
        }
    }

    /**
     * A job of many items that resumes cheaply: what it finished is remembered (as an ingest finds its documents
     * unchanged), and it stops at its next item when asked to yield.
     */
    static final class Batch implements JobHandler {
        final Map<String, Integer> done = new java.util.concurrent.ConcurrentHashMap<>();
        final Map<String, Integer> runs = new java.util.concurrent.ConcurrentHashMap<>();

        @Override
        public String kind() {
            return "batch";
        }

        @Override
        public boolean resumable(String payload) {
            return true;
        }

        @Override
        public JobProgress run(JobStore.Claimed job, JobHandler.Context context) {
            String id = job.info().id();
            runs.merge(id, 1, Integer::sum);
            int items = Integer.parseInt(job.payload());
            while (done.getOrDefault(id, 0) < items) {
                if (context.canceled()) {
                    break;
                }
                if (context.yieldRequested()) {
                    throw new Yielded();
                }
                sleep(20);
                int n = done.merge(id, 1, Integer::sum);
                context.progress(JobProgress.at("working").total(items).processed(n).added(n).build());
            }
            int n = done.getOrDefault(id, 0);
            return JobProgress.at("done").total(items).processed(n).added(n).build();
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void one_tenants_long_job_yields_its_worker_to_another_tenants_small_one_and_still_finishes() {
        Config config = Config.defaults(Map.of("POLYRAG_DATA_DIR", dir.toString(), "POLYRAG_INGEST_WORKERS", "1",
                "POLYRAG_INGEST_JOB_SLICE_SECONDS", "1"));
        try (CatalogProvider.CatalogAndJobs store = Providers.find(CatalogProvider.class, "h2",
                Settings.CATALOG_BACKEND).open(new ProviderContext(config, dir))) {
            Batch batch = new Batch();
            try (JobEngine jobs = new JobEngine(store.jobStore(), List.of(batch, new WordJob()))) {
                jobs.start(config);
                Tenant alpha = Tenant.of("alpha");
                Tenant beta = Tenant.of("beta");
                String big = jobs.submit(alpha, "batch", "300");
                await().atMost(Duration.ofSeconds(20)).until(() -> jobs.get(alpha, big).progress().processed() > 10);
                String small = jobs.submit(beta, "count-words", "a one line note");
                JobInfo smallDone = await().atMost(Duration.ofSeconds(20)).until(() -> jobs.get(beta, small),
                        j -> j.status().finished());
                assertThat(smallDone.status()).isEqualTo(JobStatus.SUCCEEDED);
                assertThat(jobs.get(alpha, big).status().finished()).as("beta's one-line job did not wait for "
                        + "alpha's 300 items").isFalse();
                JobInfo bigDone = await().atMost(Duration.ofSeconds(60)).until(() -> jobs.get(alpha, big),
                        j -> j.status().finished());
                assertThat(bigDone.status()).isEqualTo(JobStatus.SUCCEEDED);
                assertThat(batch.done.get(big)).as("every item once").isEqualTo(300);
                assertThat(batch.runs.get(big)).as("it yielded and resumed").isGreaterThan(1);
            }
        }
    }

    /**
     * A resumed run re-walks what it finished before it reaches anything new (an upload reads and hashes each file
     * again): it is not asked to yield until it did new work, or it never got further while others kept waiting.
     */
    @Test
    void a_resumed_job_does_new_work_before_it_yields_again() {
        Config config = Config.defaults(Map.of("POLYRAG_DATA_DIR", dir.toString(), "POLYRAG_INGEST_WORKERS", "1",
                "POLYRAG_INGEST_JOB_SLICE_SECONDS", "1"));
        java.util.concurrent.atomic.AtomicInteger wasted = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger done = new java.util.concurrent.atomic.AtomicInteger();
        JobHandler rewalk = resumable("rewalk", context -> {
            // Finding what it finished unchanged, one item after the other as an upload does (asked before
            // each whether to yield): 2.5 s, longer than the slice.
            for (int k = 0; done.get() > 0 && k < 25; k++) {
                if (context.yieldRequested()) {
                    wasted.incrementAndGet();
                    throw new JobHandler.Yielded();
                }
                sleep(100);
                // Processed carries the earlier runs' high-water mark, as a real job's does (JobOutcome).
                context.progress(JobProgress.at("checking").total(120).processed(Math.max(k, done.get()))
                        .unchanged(k).build());
            }
            int fresh = 0;
            while (done.get() < 120) {
                if (context.yieldRequested()) {
                    wasted.addAndGet(fresh == 0 ? 1 : 0);
                    throw new JobHandler.Yielded();
                }
                sleep(20);
                fresh++;
                context.progress(JobProgress.at("working").total(120).processed(done.incrementAndGet())
                        .added(fresh).build());
            }
            return JobProgress.at("done").total(120).processed(120).added(fresh).build();
        });
        JobHandler nap = new JobHandler() {
            @Override
            public String kind() {
                return "nap";
            }

            @Override
            public JobProgress run(JobStore.Claimed job, JobHandler.Context context) {
                sleep(1_200);
                return JobProgress.at("done").total(1).processed(1).added(1).build();
            }
        };
        try (CatalogProvider.CatalogAndJobs store = Providers.find(CatalogProvider.class, "h2",
                Settings.CATALOG_BACKEND).open(new ProviderContext(config, dir))) {
            try (JobEngine jobs = new JobEngine(store.jobStore(), List.of(rewalk, nap))) {
                jobs.start(config);
                Tenant alpha = Tenant.of("alpha");
                String long_ = jobs.submit(alpha, "rewalk", "x");
                await().atMost(Duration.ofSeconds(20)).until(() -> done.get() > 5);
                for (int i = 0; i < 3; i++) {
                    jobs.submit(Tenant.of("beta"), "nap", "x");
                }
                JobInfo finished = await().atMost(Duration.ofSeconds(60)).until(() -> jobs.get(alpha, long_),
                        j -> j.status().finished());
                assertThat(finished.status()).isEqualTo(JobStatus.SUCCEEDED);
                assertThat(wasted).as("runs that yielded before doing anything new").hasValue(0);
            }
        }
    }

    /**
     * A job that walks items and finds them all unchanged (a sync of files whose times moved) did no "work" by its
     * counts, and never yielded: another tenant's job waited for the whole walk. Items walked count as progress, but
     * only past the stored mark: two tenants' all-unchanged syncs, each walking from its start at every run (as a sync
     * does), handed the worker to each other every slice before reaching new ground, and neither ever finished.
     */
    @Test
    void jobs_finding_only_unchanged_items_yield_to_each_other_and_still_finish() {
        Config config = Config.defaults(Map.of("POLYRAG_DATA_DIR", dir.toString(), "POLYRAG_INGEST_WORKERS", "1",
                "POLYRAG_INGEST_JOB_SLICE_SECONDS", "1"));
        java.util.concurrent.atomic.AtomicInteger yields = new java.util.concurrent.atomic.AtomicInteger();
        JobHandler walk = resumable("walk", context -> {
            for (int n = 1; n <= 60; n++) {
                if (context.yieldRequested()) {
                    yields.incrementAndGet();
                    throw new JobHandler.Yielded();
                }
                sleep(50);
                context.progress(JobProgress.at("scanning").total(60).processed(n).unchanged(n).build());
            }
            return JobProgress.at("done").total(60).processed(60).unchanged(60).build();
        });
        try (CatalogProvider.CatalogAndJobs store = Providers.find(CatalogProvider.class, "h2",
                Settings.CATALOG_BACKEND).open(new ProviderContext(config, dir))) {
            try (JobEngine jobs = new JobEngine(store.jobStore(), List.of(walk))) {
                jobs.start(config);
                Tenant alpha = Tenant.of("alpha");
                Tenant beta = Tenant.of("beta");
                String a = jobs.submit(alpha, "walk", "x");
                sleep(300);
                String b = jobs.submit(beta, "walk", "x");
                for (var id : List.of(Map.entry(alpha, a), Map.entry(beta, b))) {
                    assertThat(await().atMost(Duration.ofSeconds(90)).until(() -> jobs.get(id.getKey(),
                            id.getValue()), j -> j.status().finished()).status()).isEqualTo(JobStatus.SUCCEEDED);
                }
                assertThat(yields).as("alpha's walk yielded to beta's").hasPositiveValue();
            }
        }
    }

    @Test
    void a_job_running_at_shutdown_is_requeued_uncharged_and_runs_on_at_the_next_start() {
        Config config = Config.defaults(Map.of("POLYRAG_DATA_DIR", dir.toString(), "POLYRAG_INGEST_JOB_ATTEMPTS",
                "1"));
        try (CatalogProvider.CatalogAndJobs store = Providers.find(CatalogProvider.class, "h2",
                Settings.CATALOG_BACKEND).open(new ProviderContext(config, dir))) {
            Batch batch = new Batch();
            String id;
            for (int restart = 0; restart < 3; restart++) {
                try (JobEngine jobs = new JobEngine(store.jobStore(), List.of(batch))) {
                    jobs.start(config);
                    if (restart == 0) {
                        id = jobs.submit(Tenant.LOCAL, "batch", "200");
                    }
                    await().atMost(Duration.ofSeconds(20)).until(() -> batch.runs.values().stream().mapToInt(x -> x)
                            .sum() > 0 && !batch.done.isEmpty());
                }
            }
            id = batch.done.keySet().iterator().next();
            assertThat(store.jobStore().job(id).orElseThrow().status())
                    .as("stopped for shutdown: queued, not canceled or "
                    + "failed").isIn(JobStatus.QUEUED, JobStatus.SUCCEEDED);
            try (JobEngine jobs = new JobEngine(store.jobStore(), List.of(batch))) {
                jobs.start(config);
                String job = id;
                JobInfo done = await().atMost(Duration.ofSeconds(60)).until(() -> jobs.get(Tenant.LOCAL, job),
                        j -> j.status().finished());
                assertThat(done.status()).as("three stops with one attempt allowed: none was charged")
                        .isEqualTo(JobStatus.SUCCEEDED);
            }
        }
    }

    /**
     * A job still winding down when a graceful stop stops waiting (an extraction batch cannot be cut mid-way) was
     * charged as a crash at the next start: three rolling restarts gave an upload up and deleted its files.
     */
    @Test
    void a_job_still_running_when_the_stop_stops_waiting_is_not_charged() {
        Config config = Config.defaults(Map.of("POLYRAG_DATA_DIR", dir.toString(), "POLYRAG_INGEST_JOB_ATTEMPTS",
                "1"));
        java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(1);
        JobHandler stubborn = new JobHandler() {
            @Override
            public String kind() {
                return "stubborn";
            }

            @Override
            public JobProgress run(JobStore.Claimed job, JobHandler.Context context) {
                started.countDown();
                try {
                    Thread.sleep(1500); // ignores the stop, as a model's batch does
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return JobProgress.at("done").build();
            }
        };
        long wait = JobRunner.stopWaitMs;
        JobRunner.stopWaitMs = 100;
        try (CatalogProvider.CatalogAndJobs store = Providers.find(CatalogProvider.class, "h2",
                Settings.CATALOG_BACKEND).open(new ProviderContext(config, dir))) {
            String id;
            try (JobEngine jobs = new JobEngine(store.jobStore(), List.of(stubborn))) {
                jobs.start(config);
                id = jobs.submit(Tenant.LOCAL, "stubborn", "");
                await().atMost(Duration.ofSeconds(20)).until(() -> started.getCount() == 0);
            }
            store.jobStore().requeueRunning(); // as the next start finds it
            JobStore.Claimed again = store.jobStore().claim(Duration.ofMinutes(5), 1).orElseThrow();
            assertThat(again.info().id()).isEqualTo(id);
            assertThat(again.gaveUp()).as("one attempt allowed, and the stop was not counted").isFalse();
        } finally {
            JobRunner.stopWaitMs = wait;
        }
    }

    /**
     * A job stopped to wait for a full disk, where the catalog's own disk is full too, cannot be put back in the queue
     * at once: it is shown queued and waiting meanwhile, and goes back, and runs, within seconds of the disk's room
     * (not once its claim went stale, five minutes later).
     */
    @Test
    void a_waiting_job_the_full_catalog_would_not_requeue_is_shown_waiting_and_resumes_once_it_can() throws Exception {
        Config config = Config.defaults(Map.of("POLYRAG_DATA_DIR", dir.toString()));
        java.util.concurrent.atomic.AtomicBoolean full = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicInteger runs = new java.util.concurrent.atomic.AtomicInteger();
        JobHandler filling = new JobHandler() {
            @Override
            public String kind() {
                return "filling";
            }

            @Override
            public boolean resumable(String payload) {
                return true;
            }

            @Override
            public JobProgress run(JobStore.Claimed job, JobHandler.Context context) {
                if (runs.incrementAndGet() == 1) {
                    context.progress(JobProgress.at("writing").total(1).build());
                    full.set(true);
                    throw new io.polyrag.core.StoreException("no space left on device at /data/catalog");
                }
                return JobProgress.at("done").total(1).processed(1).added(1).build();
            }
        };
        try (CatalogProvider.CatalogAndJobs store = Providers.find(CatalogProvider.class, "h2",
                Settings.CATALOG_BACKEND).open(new ProviderContext(config, dir))) {
            JobStore real = store.jobStore();
            JobStore fillable = (JobStore) java.lang.reflect.Proxy.newProxyInstance(JobStore.class.getClassLoader(),
                    new Class<?>[] {JobStore.class}, (proxy, method, args) -> {
                        if (full.get() && List.of("progress", "release", "claim", "heartbeat")
                                .contains(method.getName())) {
                            throw new io.polyrag.core.StoreException("no space left on device at /data/catalog");
                        }
                        try {
                            return method.invoke(real, args);
                        } catch (java.lang.reflect.InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
            try (JobEngine jobs = new JobEngine(fillable, List.of(filling))) {
                jobs.start(config);
                String id = jobs.submit(Tenant.LOCAL, "filling", "");
                JobInfo waiting = await().atMost(Duration.ofSeconds(20)).until(() -> jobs.get(Tenant.LOCAL, id),
                        j -> j.status() == JobStatus.QUEUED);
                assertThat(real.job(id).orElseThrow().status()).as("the catalog took nothing").isEqualTo(
                        JobStatus.RUNNING);
                assertThat(waiting.progress().stage()).isEqualTo(JobProgress.WAITING);
                assertThat(waiting.progress().warnings()).anySatisfy(w -> assertThat(w).contains("no space left"));
                assertThat(jobs.list(Tenant.LOCAL, 0, 10)).singleElement().extracting(JobInfo::status)
                        .isEqualTo(JobStatus.QUEUED);
                assertThat(jobs.events().after(Tenant.LOCAL, 0, Duration.ofMillis(10)).getLast().job().status())
                        .as("what event readers (the UI) were last told").isEqualTo(JobStatus.QUEUED);
                full.set(false);
                JobInfo done = await().atMost(Duration.ofSeconds(20)).until(() -> jobs.get(Tenant.LOCAL, id),
                        j -> j.status().finished());
                assertThat(done.status()).as(String.valueOf(done.error())).isEqualTo(JobStatus.SUCCEEDED);
                assertThat(runs.get()).isEqualTo(2);
            }
        }
    }

    /** Memory run out in a resumable job is a crash's outcome, not a failure: an upload lost its unread files. */
    @Test
    void a_resumable_job_that_runs_out_of_memory_is_tried_again() {
        Config config = Config.defaults(Map.of("POLYRAG_DATA_DIR", dir.toString(), "POLYRAG_INGEST_JOB_ATTEMPTS",
                "3"));
        java.util.concurrent.atomic.AtomicInteger runs = new java.util.concurrent.atomic.AtomicInteger();
        JobHandler hungry = new JobHandler() {
            @Override
            public String kind() {
                return "hungry";
            }

            @Override
            public boolean resumable(String payload) {
                return true;
            }

            @Override
            public JobProgress run(JobStore.Claimed job, JobHandler.Context context) {
                runs.incrementAndGet();
                throw new OutOfMemoryError("Java heap space");
            }
        };
        try (CatalogProvider.CatalogAndJobs store = Providers.find(CatalogProvider.class, "h2",
                Settings.CATALOG_BACKEND).open(new ProviderContext(config, dir))) {
            String id;
            try (JobEngine jobs = new JobEngine(store.jobStore(), List.of(hungry))) {
                jobs.start(config);
                id = jobs.submit(Tenant.LOCAL, "hungry", "");
                await().atMost(Duration.ofSeconds(20)).until(() -> runs.get() == 1);
                Thread.sleep(300);
                assertThat(store.jobStore().job(id).orElseThrow().status()).as("not failed").isEqualTo(
                        JobStatus.RUNNING);
            }
            JobStore.Claimed again = store.jobStore().claim(Duration.ZERO, 3).orElseThrow();
            assertThat(again.info().id()).isEqualTo(id);
            assertThat(again.gaveUp()).isFalse();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void a_job_given_up_after_runs_without_progress_releases_what_it_held() {
        Config config = Config.defaults(Map.of("POLYRAG_DATA_DIR", dir.toString(), "POLYRAG_INGEST_JOB_ATTEMPTS",
                "2"));
        try (CatalogProvider.CatalogAndJobs store = Providers.find(CatalogProvider.class, "h2",
                Settings.CATALOG_BACKEND).open(new ProviderContext(config, dir))) {
            String id = store.jobStore().submit("count-words", "poison");
            for (int crash = 0; crash < 2; crash++) {
                assertThat(store.jobStore().claim(Duration.ofMinutes(5), 2)).isPresent(); // the process dies in it
                store.jobStore().requeueRunning(); // and the next start finds it running
            }
            WordJob handler = new WordJob();
            try (JobEngine jobs = new JobEngine(store.jobStore(), List.of(handler))) {
                jobs.start(config);
                JobInfo failed = await().atMost(Duration.ofSeconds(20)).until(() -> jobs.get(Tenant.LOCAL, id),
                        j -> j.status().finished());
                assertThat(failed.status()).isEqualTo(JobStatus.FAILED);
                assertThat(failed.error()).contains("gave up after 2 runs");
                await().atMost(Duration.ofSeconds(5)).until(() -> handler.ended.contains(id));
            }
        }
    }

    @Test
    void an_api_only_replica_queues_jobs_and_a_replica_with_workers_runs_them() {
        Config apiOnly = Config.defaults(Map.of("POLYRAG_DATA_DIR", dir.toString(), "POLYRAG_WORKER_ENABLED", "false",
                "POLYRAG_INGEST_WORKERS", "4"));
        try (CatalogProvider.CatalogAndJobs store = Providers.find(CatalogProvider.class, "h2",
                Settings.CATALOG_BACKEND).open(new ProviderContext(apiOnly, dir))) {
            String id;
            try (JobEngine api = new JobEngine(store.jobStore(), List.of(new WordJob()))) {
                api.start(apiOnly);
                id = api.submit(Tenant.LOCAL, "count-words", "three good words");
                await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3)).until(() -> api.get(Tenant.LOCAL,
                        id).status() == JobStatus.QUEUED);
            }
            try (JobEngine worker = new JobEngine(store.jobStore(), List.of(new WordJob()))) {
                worker.start(Config.defaults(Map.of("POLYRAG_DATA_DIR", dir.toString())));
                await().atMost(Duration.ofSeconds(20)).until(() -> worker.get(Tenant.LOCAL, id).status()
                        == JobStatus.SUCCEEDED);
            }
        }
    }

    @Test
    void two_handlers_cannot_claim_one_kind() {
        assertThatThrownBy(() -> new JobEngine(null, List.of(new WordJob(), new WordJob())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("count-words");
    }

    /** A resumable handler of {@code kind}: a job that may yield its worker, running {@code run}. */
    private static JobHandler resumable(String kind, java.util.function.Function<JobHandler.Context, JobProgress> run) {
        return new JobHandler() {
            @Override
            public String kind() {
                return kind;
            }

            @Override
            public boolean resumable(String payload) {
                return true;
            }

            @Override
            public JobProgress run(JobStore.Claimed job, JobHandler.Context context) {
                return run.apply(context);
            }
        };
    }
}
