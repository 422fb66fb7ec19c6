package io.polyrag.app.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.polyrag.app.JobEvents;
import io.polyrag.app.api.SourceInfo;
import io.polyrag.app.api.StagingReport;
import io.polyrag.app.api.StoreCoverage;
import io.polyrag.core.model.DocumentInfo;
import io.polyrag.core.model.IndexedDocument;
import io.polyrag.core.model.IngestEstimate;
import io.polyrag.core.model.IngestReport;
import io.polyrag.core.model.ItemError;
import io.polyrag.core.model.JobInfo;
import io.polyrag.core.model.JobProgress;
import io.polyrag.core.model.JobStatus;
import io.polyrag.core.model.KnowledgeBaseInfo;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/** Ingest reports, jobs, staged uploads and documents on the wire. */
public final class IngestWire {
    private IngestWire() {
    }

    /**
     * What an ingest did. For one inline text, {@code document_id} and {@code version} name the document it made
     * (or found unchanged); otherwise they are null and 0. {@code indexed} lists the first 1,000 documents; the
     * counts cover them all.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Report(int documents, int added, int updated, int unchanged, int failed, int chunks, long tookMs,
            int relations, long extractionTokens, List<String> warnings, List<Problem> errors,
            List<Indexed> indexed, String documentId, long version, long contextTokens) {
    }

    /** An input that was not indexed, and why. */
    public record Problem(String source, String reason) {
    }

    /** What became of one input: {@code added}, {@code updated}, {@code unchanged} or {@code duplicate of URI}. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Indexed(String uri, String documentId, long version, String outcome) {
    }

    /** A queued job: poll {@code location}. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Accepted(String jobId, String status, int files, String location) {
    }

    /**
     * {@code GET /v1/jobs/{id}}: {@code percentage} of items done, and {@code eta_seconds} (null until one item is
     * done, and once finished) from the pace so far.
     *
     * @param knowledgeBase the knowledge base it writes into, or null (a reindex)
     * @param sourceId the sync source it runs, or null
     * @param startedAt when a worker last took it up (a long job yields and resumes), or null while queued
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Job(String id, String kind, String status, String error, int attempts, Instant createdAt,
            Instant updatedAt, int percentage, Long etaSeconds, Progress progress, String knowledgeBase,
            String sourceId, Instant startedAt) {
    }

    /** {@code GET /v1/jobs}: the tenant's jobs, newest first. */
    public record JobPage(List<Job> jobs, int offset, int limit) {
    }

    /** One event of {@code GET /v1/events}: {@code created}, {@code progress} or {@code finished}, with the job. */
    public record JobEvent(long id, String type, Job job) {
    }

    public static JobPage jobs(List<JobInfo> jobs, int offset, int limit) {
        return new JobPage(jobs.stream().map(IngestWire::of).toList(), offset, limit);
    }

    public static JobEvent of(JobEvents.Event e) {
        return new JobEvent(e.id(), e.type(), of(e.job()));
    }

    /**
     * How far a job has come: {@code processed} of {@code total} items, counted as each completes; a sync's
     * {@code added} are new items, {@code updated} changed ones, {@code deleted} the documents of items gone.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Progress(String stage, int total, int processed, int added, int updated, int unchanged, int deleted,
            int failed, int chunks, int relations, long extractionTokens, long estimatedCalls, long estimatedTokens,
            List<String> storesWritten, List<String> warnings, List<Problem> errors) {
    }

    /** {@code POST /v1/ingest/upload}: what was staged, what was refused and why. */
    public record Staged(List<StagedFile> accepted, List<Problem> skipped) {
    }

    /** A staged file, to ingest by {@code id}. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record StagedFile(String id, String name, long size, String mediaType) {
    }

    /** A page of documents, and how many the filters admit in all. */
    public record DocumentPage(List<Document> documents, int offset, int limit, long total) {
    }

    /**
     * A document: its status ({@code indexing}, {@code indexed}, {@code updating}), visible version (0 while
     * indexing), size, chunk count and description.
     *
     * @param original whether its original is kept for {@code GET /v1/documents/{id}/content}: uploaded files,
     *     synced web pages and bucket objects keep theirs; text, paths and folders do not (their original is the
     *     caller's file)
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Document(String id, String knowledgeBase, String uri, String title, String mediaType,
            String contentHash, long sizeBytes, String status, long version, int chunks, Instant updatedAt,
            List<String> categories, String subcategory, String externalRef, boolean original) {
    }

    /**
     * What one store holds of the visible version, read live ({@code held}), beside what the catalog expects;
     * {@code state}: {@code complete}, {@code incomplete}, {@code unreadable} or {@code unchecked}.
     */
    public record StoreState(long expected, long held, String state) {
    }

    /**
     * {@code GET /v1/documents/{id}}: the document, and per enabled store what it holds of the visible version
     * (empty while the document is still being indexed).
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record DocumentDetail(Document document, Map<String, StoreState> stores) {
    }

    public static DocumentDetail detail(DocumentInfo d, Map<String, StoreCoverage> stores) {
        Map<String, StoreState> out = new TreeMap<>();
        stores.forEach((k, v) -> out.put(k, new StoreState(v.expected(), v.held(), v.state())));
        return new DocumentDetail(of(d), out);
    }

    /** {@code POST /v1/documents}: the job that indexes it, and the id the document will have. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record DocumentAccepted(String jobId, String documentId, String status, String location) {
    }

    /** A source kept in sync: its settings, when it was last scanned and what that could not do, its item count. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Source(@JsonProperty("source_id") String id, String type, Map<String, Object> config, String knowledgeBase,
            int intervalSeconds, boolean enabled, Instant createdAt, Instant lastScanAt, String lastError, int items) {
    }

    /** {@code GET /v1/sync/sources}. */
    public record SourceList(List<Source> sources) {
    }

    /** A source registered or changed, and the sync it started (null when it is disabled). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record SourceRegistered(Source source, String jobId) {
    }

    /** {@code POST /v1/sync/sources/{id}/sync-now}: the sync's job. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record SyncStarted(String jobId, String location) {
    }

    /** {@code POST /v1/sync/sync-now}: the job of each enabled source's sync, by source id. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record SyncsStarted(Map<String, String> jobs) {
    }

    /** {@code DELETE /v1/sync/sources/{id}}: documents deleted with it (0 unless {@code documents=true}). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record SourceDeleted(String id, int documentsDeleted) {
    }

    public static Source of(SourceInfo s) {
        return new Source(s.id(), s.type(), s.config(), s.knowledgeBase(), s.intervalSeconds(), s.enabled(),
                s.createdAt(), s.lastScanAt(), s.lastError(), s.items());
    }

    /** A knowledge base: its name, description and what it holds. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record KnowledgeBase(String name, String description, long documents, long chunks, Instant createdAt) {
    }

    /** {@code GET /v1/knowledge-bases}. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record KnowledgeBaseList(List<KnowledgeBase> knowledgeBases) {
    }

    public static KnowledgeBase knowledgeBase(KnowledgeBaseInfo k) {
        return new KnowledgeBase(k.name(), k.description(), k.documents(), k.chunks(), k.createdAt());
    }

    public static KnowledgeBaseList knowledgeBases(List<KnowledgeBaseInfo> all) {
        return new KnowledgeBaseList(all.stream().map(IngestWire::knowledgeBase).toList());
    }

    /** What an ingest would cost ({@code polyrag ingest --estimate}). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Estimate(long documents, long chunks, long chunkTokens, String extractor, long extractionCalls,
            long extractionInputTokens, long extractionOutputTokens, List<Problem> errors, long contextCalls,
            long contextInputTokens, long contextOutputTokens) {
    }

    public static Estimate of(IngestEstimate e) {
        return new Estimate(e.documents(), e.chunks(), e.chunkTokens(), e.extractor(), e.extractionCalls(),
                e.extractionInputTokens(), e.extractionOutputTokens(), problems(e.errors()), e.contextCalls(),
                e.contextInputTokens(), e.contextOutputTokens());
    }

    /** How many documents a report lists; the counts cover them all. */
    static final int LISTED = 1_000;

    public static Report of(IngestReport r) {
        return of(r, null, 0);
    }

    /**
     * The report of an ingest of one text, naming its document; none when it was left out as a duplicate (its entry
     * names the other document: given as the text's own, a client deleting "its" document deleted the other one).
     */
    public static Report ofText(IngestReport r) {
        IndexedDocument d = r.indexed().isEmpty() ? null : r.indexed().getFirst();
        if (d != null && d.outcome().startsWith("duplicate of")) {
            d = null;
        }
        return of(r, d == null ? null : d.documentId(), d == null ? 0 : d.version());
    }

    private static Report of(IngestReport r, String documentId, long version) {
        return new Report(r.documents(), r.added(), r.updated(), r.unchanged(), r.failed(), r.chunks(), r.tookMs(),
                r.relations(), r.extractionTokens(), r.warnings(), problems(r.errors()), r.indexed().stream()
                        .limit(LISTED).map(d -> new Indexed(d.uri(), d.documentId(), d.version(), d.outcome())).toList(),
                documentId, version, r.contextTokens());
    }

    public static Job of(JobInfo j) {
        JobProgress p = j.progress();
        boolean finished = j.status().finished();
        int pct = finished && j.status() != JobStatus.CANCELED ? 100
                : p.total() <= 0 ? 0 : (int) Math.min(100, p.processed() * 100L / p.total());
        Long eta = null;
        // A job in its first run from when it started (from submission, an hour queued made a 90 s job's ETA nine
        // hours); a resumed one from submission, as its count holds its earlier runs' items too.
        Instant from = j.attempts() <= 1 && j.startedAt() != null ? j.startedAt() : j.createdAt();
        if (!finished && p.processed() > 0 && p.total() > p.processed() && from != null) {
            long elapsed = Math.max(0, Duration.between(from, Instant.now()).toSeconds());
            eta = elapsed * (p.total() - p.processed()) / p.processed();
        }
        return new Job(j.id(), j.kind(), j.status().wireName(), j.error(), j.attempts(), j.createdAt(), j.updatedAt(),
                pct, eta, of(p), j.knowledgeBase(), j.source(), j.startedAt());
    }

    public static Progress of(JobProgress p) {
        return new Progress(p.stage(), p.total(), p.processed(), p.added(), p.updated(), p.unchanged(), p.deleted(),
                p.failed(),
                p.chunks(), p.relations(), p.extractionTokens(), p.estimatedCalls(), p.estimatedTokens(),
                p.storesWritten(), p.warnings(), problems(p.errors()));
    }

    public static Staged of(StagingReport r) {
        return new Staged(r.accepted().stream().map(a -> new StagedFile(a.id(), a.name(), a.size(), a.mediaType()))
                .toList(), problems(r.skipped()));
    }

    public static DocumentPage page(List<DocumentInfo> documents, int offset, int limit, long total) {
        return new DocumentPage(documents.stream().map(IngestWire::of).toList(), offset, limit, total);
    }

    public static Document of(DocumentInfo d) {
        return new Document(d.id(), d.knowledgeBase(), d.uri(), d.title(), d.mediaType(), d.contentHash(),
                d.sizeBytes(), d.status().wireName(), d.visibleVersion(), d.chunkCount(), d.updatedAt(), d.meta().categories(),
                d.meta().subcategory(), d.meta().externalRef(), keepsOriginal(d.uri()));
    }

    /**
     * Uploads ({@code upload:NAME}), web pages and bucket objects ({@code s3://}) keep their original; see
     * {@code UploadJob}, {@code SyncJob}.
     */
    static boolean keepsOriginal(String uri) {
        return uri != null && (uri.startsWith("upload:") || uri.startsWith("http://") || uri.startsWith("https://")
                || uri.startsWith("s3://"));
    }

    static List<Problem> problems(List<ItemError> errors) {
        return errors.stream().map(e -> new Problem(e.source(), e.reason())).toList();
    }
}
