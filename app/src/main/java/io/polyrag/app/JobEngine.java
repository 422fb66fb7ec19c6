package io.polyrag.app;

import io.polyrag.core.NotFoundException;
import io.polyrag.core.PolyragException;
import io.polyrag.core.config.Config;
import io.polyrag.core.config.Settings;
import io.polyrag.core.model.Ids;
import io.polyrag.core.model.JobInfo;
import io.polyrag.core.port.JobStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Background jobs: the registry of handlers by kind, the workers, submitting. Each kind is a {@link JobHandler}; the
 * workers ({@link JobRunner}) look the handler up by the job's kind, so a new kind needs no change here. Tenants
 * read their jobs through {@link Jobs}.
 */
final class JobEngine implements AutoCloseable {
    private final JobStore store;
    private final Map<String, JobHandler> handlers = new LinkedHashMap<>();
    private JobRunner runner;

    JobEngine(JobStore store, List<JobHandler> handlers) {
        this.store = store;
        for (JobHandler h : handlers) {
            if (this.handlers.putIfAbsent(h.kind(), h) != null) {
                throw new IllegalArgumentException("two job handlers for kind '" + h.kind() + "'");
            }
        }
    }

    /** Starts the workers (after recovery has requeued what a crash left running). */
    void start(Config config) {
        runner = new JobRunner(store, this::handler, config.get(Settings.INGEST_WORKERS),
                Duration.ofSeconds(config.get(Settings.INGEST_JOB_STALE_SECONDS)),
                config.get(Settings.INGEST_JOB_ATTEMPTS));
    }

    /** Queues a job of {@code tenant} and returns its id at once. */
    String submit(io.polyrag.core.model.Tenant tenant, String kind, String payload) {
        handler(kind);
        String id = store.submit(tenant.id(), kind, payload);
        if (runner != null) {
            runner.poke();
        }
        return id;
    }

    /** The job with this id, if {@code tenant}'s: another tenant's job is not found, like one that never was. */
    JobInfo get(io.polyrag.core.model.Tenant tenant, String id) {
        return store.job(id).filter(j -> j.tenant().equals(tenant.id())).orElseThrow(() -> new NotFoundException(
                "no job with id '" + Ids.abbreviate(String.valueOf(id), 64) + "'"));
    }

    /** The staging folder the unfinished job with this payload still needs, whatever its kind. */
    Optional<Path> stagingDir(String kind, String payload) {
        JobHandler h = handlers.get(kind);
        return h == null ? Optional.empty() : h.stagingDir(payload);
    }

    private JobHandler handler(String kind) {
        JobHandler h = handlers.get(kind);
        if (h == null) {
            throw new PolyragException("unknown job kind '" + kind + "': this server runs " + handlers.keySet());
        }
        return h;
    }

    @Override
    public void close() {
        if (runner != null) {
            runner.close();
        }
    }
}
