package io.polyrag.app.wire;

import io.polyrag.app.Keys;
import io.polyrag.app.Usage;
import io.polyrag.app.api.EntityNeighbours;
import io.polyrag.app.api.Formats;
import io.polyrag.app.api.Status;
import io.polyrag.core.model.ApiKey;
import io.polyrag.core.model.CheckReport;
import io.polyrag.core.model.EntityHit;
import io.polyrag.core.port.UsageStore;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/** Health, readiness, the store check, accepted formats and the graph's entities on the wire. */
public final class AdminWire {
    private AdminWire() {
    }

    /** {@code GET /health}: {@code ok}, or {@code degraded} with the problems and their fixes. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Health(String status, String version, List<String> problems, List<String> modalities,
            Long documents, Map<String, Long> stores, String embeddingModel, int dimension, String auth) {
    }

    /** {@code GET /v1/configuration}: what this server runs; no secret, no address. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Configuration(String version, List<String> modalities, Map<String, String> backends,
            String embeddingModel, int dimension, String fusion, Map<String, Double> weights, int rrfK,
            String reranker, String answers, String answerModel, String graphExtractor, int chunkMaxTokens,
            long maxRequestBytes) {
    }

    // style: the wire record and the facade's record it is made from share the simple name Configuration
    public static Configuration of(io.polyrag.app.api.Configuration c) {
        return new Configuration(c.version(), c.modalities(), c.backends(), c.embeddingModel(), c.dimension(),
                c.fusion(), c.weights(), c.rrfK(), c.reranker(), c.answers(), c.answerModel(), c.graphExtractor(),
                c.chunkMaxTokens(), c.maxRequestBytes());
    }

    /** {@code POST /v1/sample-check}: the self-test's steps ({@code ingest}, {@code search}, {@code delete}, {@code gone}). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record SampleCheck(boolean ok, String knowledgeBase, String documentId, List<SampleStep> steps) {
    }

    /** One step of the self-test. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record SampleStep(String name, boolean ok, long tookMs, String detail) {
    }

    // style: the wire record and the facade's self-test share the simple name SampleCheck
    public static SampleCheck of(io.polyrag.app.SampleCheck.Result r) {
        return new SampleCheck(r.ok(), r.knowledgeBase(), r.documentId(), r.steps().stream().map(s -> new SampleStep(
                s.name(), s.ok(), s.tookMs(), s.detail())).toList());
    }

    /** {@code GET /ready}: {@code ready}, or {@code unavailable} (503) naming what is down and the fix. */
    public record Ready(String status, List<String> problems) {
    }

    /** {@code /v1/admin/check}: the catalog against every store. */
    public record Check(long documents, boolean consistent, boolean repaired, List<StoreCheck> stores) {
    }

    /** One store against the catalog (see {@code polyrag check --help}). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record StoreCheck(String store, boolean consistent, long expectedRecords, long records,
            int orphanVersions, long orphanRecords, int lackingVersions, long lackingRecords, int removedVersions,
            int reindexedVersions, List<String> examples) {
    }

    /** {@code GET /v1/formats}: what this server accepts. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record FormatList(SortedSet<String> mediaTypes, SortedSet<String> extensions, int maxFileMb, boolean ocr) {
    }

    /** {@code GET /v1/graph/entities}. */
    public record Entities(List<FoundEntity> entities) {
    }

    /** An entity and how often it is mentioned. */
    public record FoundEntity(String id, String name, String type, List<String> aliases, long mentions) {
    }

    /** {@code GET /v1/graph/entities/{id}/neighbours}. */
    public record Neighbourhood(FoundEntity entity, List<Neighbour> neighbours) {
    }

    /** A relation seen from the entity: {@code out} when it is the subject, {@code in} when the object. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Neighbour(String predicate, String direction, FoundEntity entity, String documentId,
            String chunkId) {
    }

    /** @param counts include the document and record counts (not on a server with tenants: they are everyone's) */
    public static Health health(Status s, boolean counts, String version) {
        return new Health(s.problems().isEmpty() ? "ok" : "degraded", version, s.problems(),
                SearchWire.names(s.modalities()),
                counts ? s.documents() : null, counts ? s.storeRecords() : null, s.embeddingModel(), s.dimension(),
                counts ? "local" : "keys");
    }

    /**
     * {@code GET /v1/admin/keys}.
     *
     * @param localOwner the tenant that took over local mode's data ({@code keys create --adopt-local}), or null
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record KeyList(List<Key> keys, String localOwner) {
    }

    /** An API key as stored: never the key itself. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Key(String id, String tenant, String name, boolean active, Instant createdAt,
            Instant revokedAt) {
    }

    /**
     * A new key: {@code key} is shown this once.
     *
     * @param localOwner whether the key's tenant holds local mode's data (adopted now or before)
     * @param warnings local mode's data that no key reads, and how to give it to a tenant
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record NewKey(String key, String id, String tenant, String name, Instant createdAt,
            boolean localOwner, List<String> warnings) {
    }

    public static KeyList keys(List<ApiKey> keys, Optional<String> localOwner) {
        return new KeyList(keys.stream().map(k -> new Key(k.id(), k.tenant(), k.name(), k.active(), k.createdAt(),
                k.revokedAt())).toList(), localOwner.orElse(null));
    }

    public static NewKey created(Keys.Created k) {
        return new NewKey(k.key(), k.info().id(), k.info().tenant(), k.info().name(), k.info().createdAt(),
                k.localOwner(), k.warnings());
    }

    /** {@code POST /v1/admin/reindex}: the back-fill job, queued; poll {@code location}. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Reindex(String jobId, String status, String modality, String location) {
    }

    public static Ready ready(List<String> problems) {
        return new Ready(problems.isEmpty() ? "ready" : "unavailable", problems);
    }

    public static Check of(CheckReport r) {
        return new Check(r.documents(), r.consistent(), r.repaired(), r.stores().stream().map(s -> new StoreCheck(
                s.store(), s.consistent(), s.expectedRecords(), s.records(), s.orphanVersions(), s.orphanRecords(),
                s.lackingVersions(), s.lackingRecords(), s.removedVersions(), s.reindexedVersions(), s.examples()))
                .toList());
    }

    public static FormatList of(Formats f) {
        return new FormatList(f.mediaTypes(), f.extensions(), f.maxFileMb(), f.ocr());
    }

    public static Entities entities(List<EntityHit> hits) {
        return new Entities(hits.stream().map(AdminWire::entity).toList());
    }

    public static Neighbourhood of(EntityNeighbours n) {
        return new Neighbourhood(entity(n.entity()), n.neighbours().stream().map(x -> new Neighbour(x.predicate(),
                x.direction(), entity(x.entity()), x.documentId(), x.chunkId())).toList());
    }

    private static FoundEntity entity(EntityHit h) {
        return new FoundEntity(h.entity().id(), h.entity().name(), h.entity().type(), h.entity().aliases(),
                h.mentions());
    }

    /** One metric of a tenant's usage over the period, on one model ({@code ""}: none). */
    public record UsageCount(String metric, String model, long amount) {
    }

    /** A tenant's limits ({@code null}: none). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Quotas(Long documents, Long storedMb, Long extractionTokensPerDay, Integer searchesPerMinute) {
        public UsageStore.Quotas toPort() {
            return new UsageStore.Quotas(documents, storedMb, extractionTokensPerDay,
                    searchesPerMinute);
        }
    }

    public static Quotas quotas(UsageStore.Quotas q) {
        return new Quotas(q.documents(), q.storedMb(), q.extractionTokensPerDay(), q.searchesPerMinute());
    }

    /**
     * {@code GET /v1/usage}: what a tenant holds now, what it used from {@code from} to {@code to} (UTC days, both
     * included), and its quotas.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record UsageReport(String tenant, String from, String to, long documents, long chunks, long storedBytes,
            List<UsageCount> usage, Quotas quotas) {
    }

    public static UsageReport usage(Usage.Report r) {
        return new UsageReport(r.tenant(), r.from().toString(), r.to().toString(), r.stock().documents(),
                r.stock().chunks(), r.stock().storedBytes(), r.counts().stream().map(c -> new UsageCount(c.metric(),
                        c.model(), c.amount())).toList(), quotas(r.quotas()));
    }

    /** {@code GET /v1/admin/usage}: every tenant's report. */
    public record UsageReports(List<UsageReport> tenants) {
    }
}
