package io.polyrag.app;

import io.polyrag.core.config.Config;
import io.polyrag.core.config.Settings;
import io.polyrag.core.spi.ProviderContext;
import java.nio.file.Path;
import java.util.List;

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
 *   <li>{@link #admin()} — status, readiness, consistency check and repair</li>
 * </ul>
 *
 * It is safe for concurrent use and must be closed.
 */
public final class Polyrag implements AutoCloseable {
    private final DataDirLock lock;
    private final Path dataDir;
    private final Components components;
    private final Jobs jobs;
    private final Ingest ingest;
    private final Uploads uploads;
    private final Search search;
    private final Documents documents;
    private final Graph graph;
    private final Admin admin;

    private Polyrag(DataDirLock lock, Path dataDir, Components components) {
        this.lock = lock;
        this.dataDir = dataDir;
        this.components = components;
        Path staging = dataDir.resolve("staging");
        this.jobs = new Jobs(components.catalog, List.of(new UploadJob(components, staging)));
        List<String> problems = Recovery.run(components, staging, jobs);
        this.ingest = new Ingest(components);
        this.uploads = new Uploads(components, staging, jobs);
        this.search = new Search(components);
        this.documents = new Documents(components);
        this.graph = new Graph(components);
        this.admin = new Admin(components, problems);
        jobs.start(components.config);
    }

    /** Opens the data directory named by the configuration, locking it for this process. */
    public static Polyrag open(Config config) {
        Path dataDir = config.get(Settings.DATA_DIR).toAbsolutePath().normalize();
        DataDirLock lock = DataDirLock.acquire(dataDir);
        Components components = null;
        try {
            components = new Components(config, new ProviderContext(config, dataDir));
            return new Polyrag(lock, dataDir, components);
        } catch (RuntimeException e) {
            if (components != null) {
                components.close();
            }
            lock.close();
            throw e;
        }
    }

    public Config config() {
        return components.config;
    }

    public Path dataDir() {
        return dataDir;
    }

    public Ingest ingest() {
        return ingest;
    }

    public Uploads uploads() {
        return uploads;
    }

    public Jobs jobs() {
        return jobs;
    }

    public Search search() {
        return search;
    }

    public Documents documents() {
        return documents;
    }

    public Graph graph() {
        return graph;
    }

    public Admin admin() {
        return admin;
    }

    @Override
    public void close() {
        try {
            jobs.close();
            components.close();
        } finally {
            lock.close();
        }
    }
}
