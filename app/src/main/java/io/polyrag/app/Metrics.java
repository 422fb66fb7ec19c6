package io.polyrag.app;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.polyrag.core.model.JobStatus;
import io.polyrag.core.model.Modality;
import io.polyrag.core.model.SearchRequest;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.StoreHit;
import io.polyrag.core.port.JobStore;
import io.polyrag.retrieval.QueryVectorCache;
import io.polyrag.retrieval.Retriever;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * What the server measures, in Prometheus's text format at {@code /metrics} (Micrometer): retriever latency and
 * errors per modality, ingest stage timings, documents and chunks ingested, jobs by kind and outcome, the job queue's
 * depth and its oldest job's age, and the JVM. The HTTP front door adds its request latencies per route and status
 * and its authentication failures to the same registry.
 */
public final class Metrics implements AutoCloseable {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final JvmGcMetrics gc = new JvmGcMetrics();

    private final Tracing tracing;

    Metrics(JobStore jobs) {
        this(jobs, Tracing.off());
    }

    private volatile Queued lastQueued;

    /** @param tracing the process's traces, which the job runner's spans go to */
    Metrics(JobStore jobs, Tracing tracing) {
        this.tracing = tracing;
        new JvmMemoryMetrics().bindTo(registry);
        gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        // Not ProcessorMetrics: its names (process_cpu_time_ns_total, system_cpu_count) fail promtool's lint.
        Gauge.builder("polyrag_jobs_queued", jobs, j -> queued(j).queued())
                .description("jobs waiting for a worker").register(registry);
        // Since it was queued last: a job that yields its worker between slices, or is put back at a restart, is
        // queued again then; its creation time made a long job's every pause look like hours of waiting.
        Gauge.builder("polyrag_jobs_oldest_queued_age_seconds", jobs, j -> {
            Instant oldest = queued(j).oldestQueuedAt();
            return oldest == null ? 0.0 : (double) Duration.between(oldest, Instant.now()).toMillis() / 1000;
        }).description("how long the oldest queued job has waited").register(registry);
    }

    /**
     * The queue, read once for both gauges of a scrape: counted in the catalog (every unfinished job's payload, a
     * thousand files' names each, was read and decoded at every scrape).
     */
    private JobStore.Queue queued(JobStore jobs) {
        Queued q = lastQueued;
        long now = System.nanoTime();
        if (q == null || now - q.at() > 1_000_000_000L) {
            q = new Queued(now, jobs.queue());
            lastQueued = q;
        }
        return q.queue();
    }

    private record Queued(long at, JobStore.Queue queue) {
    }

    @Override
    public void close() {
        gc.close();
        registry.close();
    }

    /** The traces beside these metrics. */
    Tracing tracing() {
        return tracing;
    }

    /** The registry, for front doors that measure their own (HTTP requests, authentication). */
    public MeterRegistry registry() {
        return registry;
    }

    /** Everything, in the Prometheus text exposition format (version 0.0.4). */
    public String scrape() {
        return registry.scrape();
    }

    /** How often a query's vector came from memory rather than the model. */
    void queryVectors(QueryVectorCache cache) {
        FunctionCounter.builder("polyrag_query_vector_cache_hits", cache,
                QueryVectorCache::hits).description("queries whose vector was remembered")
                .register(registry);
        FunctionCounter.builder("polyrag_query_vector_cache_misses", cache,
                QueryVectorCache::misses).description("queries the model embedded")
                .register(registry);
    }

    /** A retriever that records its latency, and its failures, under its modality. */
    Retriever timed(Retriever r) {
        String modality = r.modality().wireName();
        Timer timer = Timer.builder("polyrag_retriever_seconds").description("one retriever's search")
                .tag("modality", modality).publishPercentileHistogram().register(registry);
        Counter errors = Counter.builder("polyrag_retriever_errors_total").description("retriever searches that "
                + "failed").tag("modality", modality).register(registry);
        return new Retriever() {
            @Override
            public Modality modality() {
                return r.modality();
            }

            @Override
            public boolean calibrated() {
                return r.calibrated();
            }

            @Override
            public boolean patient() {
                return r.patient();
            }

            @Override
            public List<StoreHit> retrieve(String query, SearchScope scope, int limit) {
                return run(query, scope, limit).hits();
            }

            @Override
            public Leg run(String query, SearchScope scope, int limit) {
                return run(query, scope, limit, SearchRequest.Tuning.CONFIGURED);
            }

            @Override
            public Leg run(String query, SearchScope scope, int limit, SearchRequest.Tuning tuning) {
                long start = System.nanoTime();
                try {
                    return r.run(query, scope, limit, tuning);
                } catch (RuntimeException e) {
                    errors.increment();
                    throw e;
                } finally {
                    timer.record(Duration.ofNanos(System.nanoTime() - start));
                }
            }
        };
    }

    /** An ingest stage (parsing, embedding, writing, …) took this long. */
    void stage(String stage, Duration took) {
        Timer.builder("polyrag_ingest_stage_seconds").description("time spent in an ingest stage")
                .tag("stage", stage).register(registry).record(took);
    }

    /** A job ended: its kind, status, and the documents and chunks it indexed. */
    void jobEnded(String kind, JobStatus status, int documents, int chunks) {
        Counter.builder("polyrag_jobs_finished_total").description("jobs that ended, by kind and status")
                .tag("kind", kind).tag("status", status.wireName()).register(registry).increment();
        Counter.builder("polyrag_ingest_documents_total").description("documents added or updated by jobs")
                .register(registry).increment(documents);
        Counter.builder("polyrag_ingest_chunks_total").description("chunks written by jobs (their rate is the "
                + "embedding and indexing throughput)").register(registry).increment(chunks);
    }
}
