package io.polyrag.app;

import io.polyrag.core.config.Config;
import io.polyrag.core.config.Settings;
import io.polyrag.core.model.ApiKey;
import io.polyrag.core.model.KnowledgeBaseInfo;
import io.polyrag.core.model.Tenant;
import io.polyrag.core.port.KeyStore;
import io.polyrag.core.spi.CatalogProvider;
import io.polyrag.core.spi.CatalogProvider.CatalogAndJobs;
import io.polyrag.core.spi.ProviderContext;
import io.polyrag.core.spi.Providers;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

/**
 * The one facade: every front door (REST, CLI, MCP, UI, sync) calls it and holds no behaviour of its own. It opens a
 * data directory (locking it for this process), recovers what an unclean stop left, and hands out one facet per
 * capability:
 *
 * <ul>
 *   <li>{@link #ingest()} — ingest paths, items or a text now; estimates; accepted formats</li>
 *   <li>{@link #uploads()} — uploaded files: staging, checking, submitting them as jobs</li>
 *   <li>{@link #jobs()} — background jobs, one handler per kind</li>
 *   <li>{@link #search()} — search and answers</li>
 *   <li>{@link #documents()} — list and delete documents</li>
 *   <li>{@link #graph()} — browse entities and relations</li>
 *   <li>{@link #knowledgeBases()} — list, create, read and delete knowledge bases</li>
 *   <li>{@link #admin()} — status, readiness, consistency check and repair</li>
 *   <li>{@link #keys()} — API keys, each acting for one tenant</li>
 * </ul>
 *
 * The data facets above act for the local tenant (a server with no API keys, the CLI). {@link #as(Tenant)} gives the
 * same facets acting for a tenant: everything they read and write is in its namespace, and another tenant's ids are
 * not found. It is safe for concurrent use and must be closed.
 */
public final class Polyrag implements AutoCloseable {
    private final DataDirLock lock;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Path dataDir;
    private final Components components;
    private final Path staging;
    private final JobEngine engine;
    private final SourceWatcher watcher;
    private final SourceConnectors connectors;
    private final TenantFacets local;
    private final Admin admin;
    private final Keys keys;
    private final Recovery.Sweeper sweeper;
    private final Backfill backfill;
    private final KbFusion fusion;
    private final KbJudgments judged;
    /** The pipeline as tenants use it: within their budgets and quotas, counted to their usage. */
    private final MeteredIngest metered;
    private final Retrieval retrieval;
    private final ConcurrentMap<Tenant, TenantFacets> tenants =
            new ConcurrentHashMap<>();

    /**
     * The data facets acting for one tenant.
     *
     * @param tenant whose data they read and write
     */
    public record TenantFacets(Tenant tenant, Ingest ingest, Uploads uploads, Jobs jobs, Search search,
            Documents documents, Graph graph, KnowledgeBases knowledgeBases, Sources sources,
            Conversations conversations) {

        /**
         * The end-to-end self-test: index a small text into a throw-away knowledge base, find it, delete it, check
         * it is gone; each step timed. Leaves nothing behind.
         */
        public SampleCheck.Result sampleCheck() {
            return SampleCheck.run(this);
        }
    }

    private Polyrag(DataDirLock lock, Path dataDir, Components components) {
        this.lock = lock;
        this.dataDir = dataDir;
        this.components = components;
        this.staging = dataDir.resolve("staging");
        CatalogAndJobs catalog = components.catalog;
        // What this constructor opens is closed again if it fails part way (a store unreachable during recovery, the
        // watcher's first read): the connectors' clients, a previous model's index (its write lock held), the
        // watcher's inotify instance and the workers stayed open, and opening the directory again in this JVM failed.
        AutoCloseable[] opened = new AutoCloseable[4];
        try {
            this.metered = new MeteredIngest(components.pipeline, components.usage, components.config,
                    components.embedder, components.extractor);
            this.retrieval = new Retrieval(components.searcher, components.answers, components.condenser);
            Backfill backfill = new Backfill(components.pipeline, components.searcher, components.embedder,
                    components.vectorProvider, components.context, components.metrics);
            this.backfill = backfill;
            opened[0] = backfill::close;
            this.fusion = new KbFusion(catalog, catalog.judgmentStore(), components.searcher, components.config,
                    components.usage);
            this.judged = new KbJudgments(catalog, catalog.judgmentStore(), components.config);
            this.connectors = new SourceConnectors(components.context, catalog.sourceStore(), components.blobs,
                    components.parser);
            opened[1] = connectors::close;
            this.engine = new JobEngine(catalog.jobStore(), List.of(new UploadJob(metered, catalog, components.blobs,
                    staging), new SyncJob(catalog.sourceStore(), components.blobs, connectors, this::as,
                            key -> this.watcherEnded(key), components.config.get(Settings.SYNC_MAX_DELETE_PERCENT)),
                    backfill, fusion),
                    components.metrics, catalog.shared());
            opened[2] = engine::close;
            engine.onSubmit(components.indexing::changed);
            KeyStore keyStore = catalog.keyStore();
            this.watcher = new SourceWatcher(catalog.sourceStore(), connectors, engine, components.config.get(
                    Settings.SYNC_WATCH), new Recent<>(Duration.ofSeconds(30), () -> keyStore.keys().stream()
                            .filter(ApiKey::active).map(ApiKey::tenant).collect(Collectors.toSet())));
            opened[3] = watcher::close;
            List<String> problems = Recovery.run(catalog, catalog.jobStore(), components.pipeline, components.config,
                    staging, engine);
            this.local = facets(Tenant.LOCAL);
            sweepUploads(components, engine);
            backfill.evaluate();
            this.admin = new Admin(catalog, components.searcher, components.pipeline, components.model,
                    components.config, problems, engine, backfill);
            this.keys = new Keys(components.catalog.keyStore(), () -> localData(components.catalog), t -> hasOwnData(
                    components.catalog, t), components.config.get(Settings.HTTP_REQUIRE_KEYS));
            engine.start(components.config);
            boolean workers = components.config.get(Settings.WORKER_ENABLED);
            startWatcher(components.config, workers);
            this.sweeper = new Recovery.Sweeper(components.pipeline, catalog.shared(),
                    Recovery.stale(components.config), workers, () -> sweepUploads(components, engine),
                    () -> sweepAlways(components, backfill));
        } catch (RuntimeException | Error e) {
            closeAll(opened, e);
            throw e;
        }
    }

    /** Closes what {@code opened} holds, last first, each whatever the others do; their failures go with {@code e}. */
    private static void closeAll(AutoCloseable[] opened, Throwable e) {
        for (int i = opened.length - 1; i >= 0; i--) {
            try {
                if (opened[i] != null) {
                    opened[i].close();
                }
            } catch (Exception x) {
                e.addSuppressed(x);
            }
        }
    }

    /** What the recovery sweep always does: incomplete legs judged again, old conversations and jobs deleted. */
    private static void sweepAlways(Components components, Backfill backfill) {
        if (!components.searcher.incomplete().isEmpty()) {
            backfill.evaluate();
        }
        int days = components.config.get(Settings.CONVERSATIONS_RETENTION_DAYS);
        if (days > 0) {
            components.catalog.conversationStore().deleteConversationsBefore(Instant.now().minus(Duration
                    .ofDays(days)));
        }
        int jobDays = components.config.get(Settings.INGEST_JOB_RETENTION_DAYS);
        if (jobDays > 0) {
            components.catalog.jobStore().deleteFinishedBefore(Instant.now().minus(Duration.ofDays(jobDays)));
        }
    }

    private static void sweepUploads(Components components, JobEngine engine) {
        try {
            Uploads.sweep(components.blobs, components.config, engine);
        } catch (RuntimeException e) {
            System.getLogger(Polyrag.class.getName()).log(System.Logger.Level.WARNING, "cannot sweep staged uploads "
                    + "(tried again in a minute): " + e.getMessage());
        }
    }

    /**
     * Whether a tenant holds data that adopting local mode's would hide: knowledge bases, sources, a job not finished
     * (an upload queued into a knowledge base not made yet ran as a tenant no key acts for any more), conversations.
     */
    private static boolean hasOwnData(CatalogAndJobs catalog, String t) {
        // Every job queued or running, however many finished ones are newer (the newest 500 missed an old one).
        return !catalog.knowledgeBases(t).isEmpty() || !catalog.sourceStore().sources(t).isEmpty()
                || catalog.jobStore().pending(t).jobs() > 0
                || !catalog.conversationStore().conversations(t, 0, 1).isEmpty();
    }

    private void startWatcher(Config config, boolean workers) {
        // No watcher without a worker to run what it asks for: a short command (search, ask: no workers) walked
        // every watched folder tree at start and queued syncs for the next command to run.
        if (workers && config.get(Settings.INGEST_WORKERS) > 0 && config.get(Settings.SYNC_SCHEDULE)) {
            try {
                watcher.start();
            } catch (RuntimeException e) {
                // The open fails: its workers must not go on looping over stores about to be closed.
                engine.close();
                throw e;
            }
        }
    }

    private void watcherEnded(String key) {
        if (watcher != null) {
            watcher.ended(key);
        }
    }

    /** Opens the data directory named by the configuration, locking it for this process. */
    public static Polyrag open(Config config) {
        Path dataDir = config.get(Settings.DATA_DIR).toAbsolutePath().normalize();
        DataDirLock lock = DataDirLock.acquire(dataDir);
        Components components = null;
        try {
            components = new Components(config, new ProviderContext(config, dataDir));
            return new Polyrag(lock, dataDir, components);
        } catch (RuntimeException | Error e) {
            // An Error too (a native library missing at run time): the stores and the lock are let go either way.
            try {
                if (components != null) {
                    components.close();
                }
            } catch (RuntimeException x) {
                e.addSuppressed(x);
            } finally {
                lock.close();
            }
            throw e;
        }
    }

    /**
     * The API keys of a data directory, with only its catalog opened (no store, model or parser): what
     * {@code polyrag keys} needs, in a third of the time {@link #open} takes.
     */
    public static KeyAdmin openKeys(Config config) {
        Path dataDir = config.get(Settings.DATA_DIR).toAbsolutePath().normalize();
        DataDirLock lock = DataDirLock.acquire(dataDir);
        try {
            CatalogProvider.CatalogAndJobs catalog = Providers.find(
                    CatalogProvider.class, config.get(Settings.CATALOG_BACKEND),
                    Settings.CATALOG_BACKEND).open(new ProviderContext(config, dataDir));
            // The same check as a server's: `keys create --adopt-local` refused nothing a server would refuse.
            return new KeyAdmin(lock, catalog, new Keys(catalog.keyStore(), () -> localData(catalog),
                    t -> hasOwnData(catalog, t), config.get(Settings.HTTP_REQUIRE_KEYS)));
        } catch (RuntimeException e) {
            lock.close();
            throw e;
        }
    }

    /** A data directory's keys, its catalog open and the directory locked until closed. */
    public static final class KeyAdmin implements AutoCloseable {
        private final DataDirLock lock;
        private final CatalogProvider.CatalogAndJobs catalog;
        private final Keys keys;

        private KeyAdmin(DataDirLock lock, CatalogProvider.CatalogAndJobs catalog, Keys keys) {
            this.lock = lock;
            this.catalog = catalog;
            this.keys = keys;
        }

        public Keys keys() {
            return keys;
        }

        /** Quotas and usage from the catalog alone (the command line, while no server holds the directory). */
        public Usage usage() {
            return new Usage(catalog.usageStore(), null, Clock.systemUTC());
        }

        @Override
        public void close() {
            try {
                catalog.close();
            } finally {
                lock.close();
            }
        }
    }

    /** What local mode holds, read from the catalog alone. */
    private static Keys.LocalData localData(CatalogProvider.CatalogAndJobs catalog) {
        List<KnowledgeBaseInfo> kbs = catalog.knowledgeBases("").stream()
                .flatMap(n -> catalog.knowledgeBase(n).stream()).filter(k -> k.documents() > 0).toList();
        return new Keys.LocalData(kbs.size(), kbs.stream().mapToLong(KnowledgeBaseInfo::documents)
                .sum(), catalog.sourceStore().sources("").size(), (int) catalog.jobStore().unfinished("", 1000)
                .stream().filter(j -> !j.kind().equals(Backfill.KIND)).count(), // the operator's, as local mode
                !catalog.conversationStore().conversations("", 0, 1).isEmpty());
    }

    public Config config() {
        return components.config;
    }

    public Path dataDir() {
        return dataDir;
    }

    /** The pipeline as tenants use it, for tests in this package. */
    MeteredIngest metered() {
        return metered;
    }

    /** The composition root, for tests in this package that look at what was stored. */
    Components components() {
        return components;
    }

    private TenantFacets facets(Tenant t) {
        CatalogAndJobs catalog = components.catalog;
        Documents documents = new Documents(catalog, components.pipeline, components.blobs, t, catalog.sourceStore());
        Sources sources = new Sources(catalog, catalog.sourceStore(), connectors, documents, t, engine, watcher,
                components.config.get(Settings.SYNC_MAX_SOURCES));
        return new TenantFacets(t, new Ingest(metered, components.parser, components.config, t),
                new Uploads(metered, catalog, components.blobs, components.config, staging, engine, t),
                new Jobs(engine, t), new Search(retrieval, catalog, components.indexing, components.usage,
                        components.tracing, components.config, t, fusion, components.categories),
                documents,
                new Graph(components.catalog, components.graph, components.rdf, t),
                new KnowledgeBases(components.catalog, components.catalog.sourceStore(), documents, t, engine,
                        sources, fusion, judged), sources,
                new Conversations(components.catalog.conversationStore(), t));
    }


    /**
     * Loads the parts that otherwise load on first use (the embedding model, the parsers) in the background: a
     * server calls it once it serves, so its first search does not wait for the model.
     */
    public void warmUp() {
        Thread.ofVirtual().name("polyrag-warm-up").start(components::warmUp);
    }

    /** Whether the embedding model has been loaded (a full-text search, keys or check load none). */
    public boolean modelLoaded() {
        return components.modelLoaded();
    }

    /** Whether the parsers have been loaded (only reading a file needs them). */
    public boolean parsersLoaded() {
        return components.parsersLoaded();
    }

    /** The data facets acting for {@code tenant}. */
    public TenantFacets as(Tenant tenant) {
        // Local mode's own facets; a key's tenant that adopted local mode's data gets facets of its own (the same
        // rows, but the tenant's folders and not the operator's jobs). Tenants are equal by stored id, so the
        // adopter (id "") is the one such key the map can hold.
        return tenant.isLocal() && tenant.name().isEmpty() ? local : tenants.computeIfAbsent(tenant, this::facets);
    }

    public Ingest ingest() {
        return local.ingest();
    }

    public Uploads uploads() {
        return local.uploads();
    }

    public Jobs jobs() {
        return local.jobs();
    }

    public Search search() {
        return local.search();
    }

    /** The embedding model called directly, for evaluation and benchmarks (not tenant-scoped: it holds no data). */
    public Embeddings embeddings() {
        return new Embeddings(components.embedder);
    }

    public Documents documents() {
        return local.documents();
    }

    public Graph graph() {
        return local.graph();
    }

    public KnowledgeBases knowledgeBases() {
        return local.knowledgeBases();
    }

    public Sources sources() {
        return local.sources();
    }

    public Admin admin() {
        return admin;
    }

    public Keys keys() {
        return keys;
    }

    /** Every tenant's usage and the quotas on it (the operator's), and each tenant's own report. */
    public Usage usage() {
        return components.usage;
    }

    /** The process's traces (off unless the OTEL_* variables ask for them), for the front doors' request spans. */
    public Tracing tracing() {
        return components.tracing;
    }

    /** What the server measures (Prometheus text at {@code /metrics}). */
    public Metrics metrics() {
        return components.metrics;
    }

    /**
     * Begins a stop without waiting, for a front door that then waits for its requests in flight: every job event
     * stream ends (they wait for events until the server closes, and would hold that wait to its end), and running
     * jobs are asked to stop at their next file, so their wind-down overlaps the front door's. {@link #close()}
     * then waits for the jobs and closes the stores.
     */
    public void beginStop() {
        engine.beginStop();
    }

    /** Stops the jobs, closes every store and releases the data directory; closing again does nothing. */
    @Override
    public void close() {
        if (closed.getAndSet(true)) {
            // A second close (the shutdown hook while the main thread closes) returns once the first has ended:
            // returning at once let the JVM halt under the first, H2 left unclosed and a job cut off mid-file.
            try {
                closedDone.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return;
        }
        try {
            closeParts();
        } finally {
            closedDone.countDown();
        }
    }

    private final CountDownLatch closedDone = new CountDownLatch(1);

    private void closeParts() {
        // Each part closed whatever the one before did: a stand-in store failing to close skipped the jobs' drain
        // and the stores' close, and the lock was let go under workers still writing.
        RuntimeException failed = null;
        for (Runnable part : new Runnable[] {() -> {
            if (sweeper != null) {
                sweeper.close();
            }
        }, backfill::close, watcher::close, engine::close, connectors::close, components::close, lock::close}) {
            try {
                part.run();
            } catch (RuntimeException e) {
                if (failed == null) {
                    failed = e;
                } else {
                    failed.addSuppressed(e);
                }
            }
        }
        if (failed != null) {
            throw failed;
        }
    }
}
