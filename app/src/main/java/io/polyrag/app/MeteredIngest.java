package io.polyrag.app;

import io.polyrag.core.UnavailableException;
import io.polyrag.core.config.Config;
import io.polyrag.core.config.Settings;
import io.polyrag.core.model.IngestReport;
import io.polyrag.core.model.SourceItem;
import io.polyrag.core.port.Embedder;
import io.polyrag.core.port.EntityExtractor;
import io.polyrag.core.port.ProgressListener;
import io.polyrag.ingest.IngestInput;
import io.polyrag.ingest.IngestPipeline;
import io.polyrag.ingest.PartialIngest;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The pipeline as a tenant uses it: each ingest runs within the tenant's extraction budget and stops at its quota,
 * and what it indexed and spent is counted to the tenant's usage. Every ingest of a facet or a job goes through here.
 */
final class MeteredIngest {
    private final IngestPipeline pipeline;
    private final Usage usage;
    private final Config config;
    /** Null when vectors are off. */
    private final Embedder embedder;
    /** Null when no graph or RDF store is on. */
    private final EntityExtractor extractor;
    /**
     * One upload check (a parse inside the request) at a time per tenant with a key: the checks share the process's
     * parse permits with every job, and one tenant's parallel uploads of heavy files took them all.
     */
    private final Map<String, Semaphore> checking = new ConcurrentHashMap<>();

    MeteredIngest(IngestPipeline pipeline, Usage usage, Config config, Embedder embedder, EntityExtractor extractor) {
        this.pipeline = pipeline;
        this.usage = usage;
        this.config = config;
        this.embedder = embedder;
        this.extractor = extractor;
    }

    IngestPipeline pipeline() {
        return pipeline;
    }

    /** The tenant's one upload check at a time (package-private: a test holds it). */
    Semaphore checkSlot(String tenantId) {
        return checking.computeIfAbsent(tenantId, t -> new Semaphore(1));
    }

    /**
     * Checks one uploaded file ({@link IngestPipeline#check}), one at a time per tenant with a key (the local tenant,
     * alone on its server, is not held); a check that cannot start within the parse time limit is refused saying so.
     */
    IngestPipeline.Verdict check(String tenantId, SourceItem item) {
        if (tenantId.isEmpty()) {
            return pipeline.check(item);
        }
        Semaphore mine = checkSlot(tenantId);
        try {
            if (!mine.tryAcquire(config.get(Settings.INGEST_PARSE_TIMEOUT_SECONDS), TimeUnit.SECONDS)) {
                return new IngestPipeline.Verdict(null, item.name() + ": not checked: this tenant's other uploads took "
                        + "the time to check it; upload it again");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UnavailableException("interrupted while waiting to check " + item.name(), e);
        }
        try {
            return pipeline.check(item);
        } finally {
            mine.release();
        }
    }

    /** Whether extraction may spend model tokens (an LLM extractor): an ingest then estimates them first. */
    boolean spendsTokens() {
        return extractor != null && extractor.spendsTokens();
    }

    /** Refuses, naming the quota, when the tenant may not ingest now. */
    void mayIngest(String tenantId) {
        usage.mayIngest(tenantId);
    }

    /**
     * Refuses, naming the quota, when the tenant may not ingest now or when {@code incoming} more bytes beside its
     * uploads still {@code waiting} (and its other requests' bytes not yet stored) would pass its storage quota;
     * else holds {@code incoming} against it until the reservation is closed.
     */
    Usage.Reservation mayIngest(String tenantId, LongSupplier waiting, long incoming) {
        return usage.reserve(tenantId, waiting, incoming);
    }

    /**
     * Ingests {@code inputs} into the knowledge base stored as {@code kb} with the caller's {@code choices} (skip
     * the graph, cancel, figures), within the tenant's extraction budget and stopped at its quota; counts the report.
     */
    IngestReport ingest(String tenantId, List<IngestInput> inputs, String kb, IngestPipeline.Run choices,
            ProgressListener listener) {
        long configured = config.get(Settings.GRAPH_TOKEN_BUDGET);
        Usage.Grant grant = choices.skipGraph() ? new Usage.Grant(tenantId, configured, 0)
                : usage.grantExtraction(tenantId, configured);
        try {
            IngestPipeline.Run run = new IngestPipeline.Run(choices.skipGraph(), grant.tokens(), choices.canceled(),
                    choices.figures(), usage.limit(tenantId));
            IngestReport r;
            try {
                r = pipeline.ingest(inputs, kb, run, listener);
            } catch (RuntimeException e) {
                // What it did before it failed was spent (embeddings, extraction tokens): counted, so a job resumed
                // after a store outage is not granted the day's allowance again for nothing spent.
                PartialIngest.of(e).ifPresent(partial -> counted(tenantId, partial));
                throw e;
            }
            counted(tenantId, r);
            return r;
        } finally {
            usage.release(grant);
        }
    }

    private void counted(String tenantId, IngestReport r) {
        usage.ingested(tenantId, r, embedder == null ? null : embedder.modelId(), extractor == null ? ""
                : extractor.id(), pipeline.contextualizer() == null ? "" : pipeline.contextualizer().modelId());
    }
}
