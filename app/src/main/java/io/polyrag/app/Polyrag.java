package io.polyrag.app;

import io.polyrag.core.InvalidInputException;
import io.polyrag.core.NotFoundException;
import io.polyrag.core.PolyragException;
import io.polyrag.core.config.Config;
import io.polyrag.core.config.Settings;
import io.polyrag.core.model.Answer;
import io.polyrag.core.model.DocumentInfo;
import io.polyrag.core.model.Ids;
import io.polyrag.core.model.IngestReport;
import io.polyrag.core.model.ItemError;
import io.polyrag.core.model.JobInfo;
import io.polyrag.core.model.JobProgress;
import io.polyrag.core.model.Modality;
import io.polyrag.core.model.SearchRequest;
import io.polyrag.core.model.SearchResponse;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.SourceItem;
import io.polyrag.core.port.JobStore;
import io.polyrag.core.spi.ProviderContext;
import io.polyrag.ingest.FileSources;
import io.polyrag.core.model.Entity;
import io.polyrag.core.model.IngestEstimate;
import io.polyrag.core.model.EntityHit;
import io.polyrag.core.model.GraphEdge;
import io.polyrag.core.port.EntityGraph;
import io.polyrag.ingest.IngestInput;
import io.polyrag.ingest.IngestPipeline;
import io.polyrag.core.port.ProgressListener;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import tools.jackson.databind.json.JsonMapper;

/**
 * The one facade: every front door (REST, CLI, and later MCP, UI, sync) calls these methods and holds no behaviour of
 * its own. Open one per data directory; it is safe for concurrent use and must be closed.
 */
public final class Polyrag implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(Polyrag.class.getName());
    private static final String INGEST_UPLOAD = "ingest-upload";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** The files of an upload job, as stored in its payload. */
    record UploadPayload(String knowledgeBase, String stagingDir, List<Requests.StagedFile> files,
            boolean skipGraph) {
    }

    /**
     * What a path ingest did.
     *
     * @param report the ingest's counts and errors (paths that did not exist included)
     * @param skipped files in walked directories that were not of an accepted type or were left out by globs
     */
    public record PathIngestReport(IngestReport report, int skipped) {
    }

    /**
     * The server's state, for health checks and {@code polyrag config}.
     *
     * @param modalities enabled modalities
     * @param documents visible documents
     * @param storeRecords records per store
     * @param embeddingModel the embedding model, or null when the vector modality is off
     * @param dimension its vector length, or 0
     * @param problems what keeps this server from being ready, one line each naming the fix (a store that lacks
     *     records the catalog has); empty when ready
     */
    public record Status(List<Modality> modalities, long documents, Map<String, Long> storeRecords,
            String embeddingModel, int dimension, List<String> problems) {
    }

    private final DataDirLock lock;
    private final Path dataDir;
    private final Components components;
    private final JobRunner jobs;
    private volatile List<String> problems;

    private Polyrag(DataDirLock lock, Path dataDir, Components components) {
        this.lock = lock;
        this.dataDir = dataDir;
        this.components = components;
        this.problems = Recovery.run(components, dataDir, Polyrag::stagingDirOf);
        Config c = components.config;
        expireStaged();
        this.jobs = new JobRunner(components.catalog, this::runJob, this::jobEnded, c.get(Settings.INGEST_WORKERS),
                Duration.ofSeconds(c.get(Settings.INGEST_JOB_STALE_SECONDS)), c.get(Settings.INGEST_JOB_ATTEMPTS));
    }

    /** Opens the data directory named by the configuration, locking it for this process. */
    public static Polyrag open(Config config) {
        Path dataDir = config.get(Settings.DATA_DIR).toAbsolutePath().normalize();
        DataDirLock lock = DataDirLock.acquire(dataDir);
        try {
            return new Polyrag(lock, dataDir, new Components(config, new ProviderContext(config, dataDir)));
        } catch (RuntimeException e) {
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

    // ---- ingest

    /** Ingests files and directories now, on the calling thread. */
    public PathIngestReport ingestPaths(Requests.PathIngest request, ProgressListener listener) {
        String kb = Ids.knowledgeBase(request.knowledgeBase());
        FileSources.Listing listing = FileSources.list(request.paths(), request.includes(), request.excludes(),
                components.parser::acceptsName);
        IngestReport r = components.pipeline.ingest(listing.inputs(), kb, run(request.skipGraph()), listener);
        if (listing.errors().isEmpty()) {
            return new PathIngestReport(r, listing.skipped());
        }
        List<ItemError> errors = new ArrayList<>(listing.errors());
        errors.addAll(r.errors());
        return new PathIngestReport(new IngestReport(r.documents() + listing.errors().size(), r.added(), r.updated(),
                r.unchanged(), r.failed() + listing.errors().size(), r.chunks(), r.tookMs(), errors, r.relations(),
                r.extractionTokens(), r.warnings(), r.indexed()), listing.skipped());
    }

    /**
     * What ingesting these paths would cost, without writing anything or calling a model: documents, chunks, and
     * the language-model calls and tokens entity extraction would spend.
     */
    public IngestEstimate estimate(Requests.PathIngest request) {
        FileSources.Listing listing = FileSources.list(request.paths(), request.includes(), request.excludes(),
                components.parser::acceptsName);
        IngestEstimate e = components.pipeline.estimate(listing.inputs());
        if (request.skipGraph()) {
            e = new IngestEstimate(e.documents(), e.chunks(), e.chunkTokens(), "none", 0, 0, 0, e.errors());
        }
        List<ItemError> errors = new ArrayList<>(listing.errors());
        errors.addAll(e.errors());
        return new IngestEstimate(e.documents(), e.chunks(), e.chunkTokens(), e.extractor(),
                e.extractionCalls(), e.extractionInputTokens(), e.extractionOutputTokens(), errors);
    }

    private IngestPipeline.Run run(boolean skipGraph) {
        return new IngestPipeline.Run(skipGraph, components.config.get(Settings.GRAPH_TOKEN_BUDGET));
    }

    /** Ingests in-memory items now, on the calling thread (for programs that make their own documents). */
    public IngestReport ingestItems(List<SourceItem> items, String knowledgeBase, ProgressListener listener) {
        List<IngestInput> inputs = items.stream().map(i -> new IngestInput(i.uri(), i.name(), i.content().length,
                i.mediaType(), i::content)).toList();
        return components.pipeline.ingest(inputs, Ids.knowledgeBase(knowledgeBase), run(false), listener);
    }

    /** Ingests one inline text now. The same text (or the same uri) is the same document. */
    public IngestReport ingestText(Requests.TextIngest request) {
        if (request.text() == null || request.text().isBlank()) {
            throw new InvalidInputException("text is empty: give the content to ingest");
        }
        String ext = switch (request.format() == null ? "text" : request.format().toLowerCase(Locale.ROOT)) {
            case "text", "txt", "plain" -> ".txt";
            case "markdown", "md" -> ".md";
            case "html" -> ".html";
            default -> throw new InvalidInputException("format '" + request.format()
                    + "' is not supported: use text, markdown or html");
        };
        String kb = Ids.knowledgeBase(request.knowledgeBase());
        String uri = request.uri() == null || request.uri().isBlank()
                ? "text:" + Ids.sha256Hex(request.text().getBytes(StandardCharsets.UTF_8)).substring(0, 24)
                : checkUri(request.uri());
        int nul = request.text().indexOf('\0');
        if (nul >= 0) {
            throw new InvalidInputException("text contains a NUL character at offset " + nul + ": send text only "
                    + "(a binary file goes to POST /v1/ingest/files)");
        }
        // An HTML page's own <title> wins when it has one; plain text and Markdown are named by their first line.
        String title = request.title() != null && !request.title().isBlank() ? request.title().strip()
                : ext.equals(".html") ? "text" : titleOf(request.text());
        return components.pipeline.ingest(List.of(IngestInput.ofText(uri, title + ext, request.text())), kb,
                run(request.skipGraph()), ProgressListener.NONE);
    }

    /** A title for an untitled text: its first line with words, without Markdown heading marks, at most 80 chars. */
    static String titleOf(String text) {
        String line = text.lines().map(l -> l.strip().replaceFirst("^#+\\s*", "").strip())
                .filter(l -> l.chars().anyMatch(Character::isLetterOrDigit)).findFirst().orElse("text");
        return line.length() <= 80 ? line : line.substring(0, 80).strip() + "…";
    }

    private static String checkUri(String uri) {
        if (uri.length() > Limits.MAX_URI || uri.chars().anyMatch(Character::isISOControl)) {
            throw new InvalidInputException("uri must be at most " + Limits.MAX_URI + " characters with no control "
                    + "characters");
        }
        return uri;
    }

    // ---- upload staging: check files now, ingest the accepted ones later

    /**
     * A file the upload endpoint accepted and keeps until it is ingested (or expires).
     *
     * @param id the staged file's id, to pass to {@link #ingestStaged}
     * @param name its sanitised name
     * @param size bytes
     * @param mediaType the type detected from its content
     */
    public record StagedUpload(String id, String name, long size, String mediaType) {
    }

    /**
     * What staging did with each file.
     *
     * @param accepted files checked and kept, ready to ingest
     * @param skipped files refused, each with a specific reason
     */
    public record StagingReport(List<StagedUpload> accepted, List<ItemError> skipped) {
    }

    private record StagedMeta(String name, String knowledgeBase, long size, String mediaType, long stagedAt) {
    }

    /**
     * Checks uploaded files and keeps the good ones for a later {@link #ingestStaged}; nothing is ingested. Each file
     * is refused with a specific reason when it is empty, too large, of a type the parser does not read (judged by
     * its content), encrypted, corrupt, identical to the document already indexed under its name, or a duplicate of
     * another document or of an earlier file in the same upload (unless {@code ingest.duplicates=allow}). The
     * temporary files are consumed: moved into staging or deleted.
     *
     * @param knowledgeBase the knowledge base the files are meant for (duplicates are judged within it)
     * @param files the front door's temporary files, with their client names already sanitised
     */
    public StagingReport stage(String knowledgeBase, List<Requests.StagedFile> files) {
        String kb = Ids.knowledgeBase(knowledgeBase);
        expireStaged();
        long max = components.config.get(Settings.INGEST_MAX_FILE_MB) * 1024L * 1024L;
        boolean allowDuplicates = components.config.get(Settings.INGEST_DUPLICATES).equals("allow");
        List<StagedUpload> accepted = new ArrayList<>();
        List<ItemError> skipped = new ArrayList<>();
        Map<String, String> seen = new java.util.HashMap<>();
        for (Requests.StagedFile f : files) {
            try {
                String reason = stageOne(kb, f, max, allowDuplicates, seen, accepted);
                if (reason != null) {
                    skipped.add(new ItemError(f.name(), reason));
                }
            } catch (IOException e) {
                skipped.add(new ItemError(f.name(), f.name() + ": cannot be read (" + e.getMessage() + ")"));
            } finally {
                try {
                    Files.deleteIfExists(f.path());
                } catch (IOException e) {
                    LOG.log(System.Logger.Level.WARNING, "cannot delete temporary upload " + f.path(), e);
                }
            }
        }
        return new StagingReport(accepted, skipped);
    }

    /** Checks and keeps one file; returns why it was refused, or null when it was accepted. */
    private String stageOne(String kb, Requests.StagedFile f, long max, boolean allowDuplicates,
            Map<String, String> seen, List<StagedUpload> accepted) throws IOException {
        long size = Files.size(f.path());
        if (size == 0) {
            return f.name() + ": empty";
        }
        if (size > max) {
            return String.format(Locale.ROOT, "%s: too large (%.1f MiB; the limit is %d MiB)", f.name(),
                    size / 1048576.0, max >> 20);
        }
        byte[] bytes = Files.readAllBytes(f.path());
        String uri = "upload:" + f.name();
        String fingerprint = components.pipeline.fingerprint(bytes, true);
        var existing = components.catalog.document(Ids.documentId(kb, uri));
        if (existing.isPresent() && existing.get().visibleVersion() > 0
                && existing.get().contentHash().equals(fingerprint)) {
            return f.name() + ": unchanged: identical to the document already indexed as " + uri
                    + "; nothing to do";
        }
        if (!allowDuplicates) {
            String earlier = seen.putIfAbsent(fingerprint, f.name());
            if (earlier != null) {
                return f.name() + ": duplicate of " + earlier + " in the same upload";
            }
            var same = components.catalog.documentsWithContent(fingerprint, new SearchScope(Set.of(kb))).stream()
                    .filter(d -> !d.uri().equals(uri)).findFirst();
            if (same.isPresent()) {
                return f.name() + ": duplicate of " + same.get().uri() + " (same content under another name; set "
                        + "POLYRAG_INGEST_DUPLICATES=allow to index it anyway)";
            }
        }
        SourceItem item = new SourceItem(uri, f.name(), bytes, null);
        var verdict = components.pipeline.check(item);
        if (verdict.problem() != null) {
            return verdict.problem();
        }
        String id = UUID.randomUUID().toString();
        Path dir = Files.createDirectories(uploads().resolve(id));
        Files.write(dir.resolve("content"), bytes);
        String type = verdict.mediaType();
        Files.writeString(dir.resolve("meta.json"), JSON.writeValueAsString(new StagedMeta(f.name(), kb, size, type,
                System.currentTimeMillis())));
        accepted.add(new StagedUpload(id, f.name(), size, type));
        return null;
    }

    /**
     * Starts an ingest job for staged files and returns its id at once. Unknown or expired ids fail with the list of
     * them, and nothing starts.
     *
     * @param knowledgeBase target knowledge base; null for the one the files were staged for
     */
    public String ingestStaged(List<String> ids, String knowledgeBase, boolean skipGraph) {
        if (ids == null || ids.isEmpty()) {
            throw new InvalidInputException("no staged files: give the ids that POST /v1/ingest/upload accepted");
        }
        if (ids.size() > Limits.MAX_STAGED_IDS) {
            throw new InvalidInputException("at most " + Limits.MAX_STAGED_IDS + " staged files per ingest, got "
                    + ids.size() + ": ingest them in several requests");
        }
        List<String> unknown = new ArrayList<>();
        List<StagedMeta> metas = new ArrayList<>();
        for (String id : ids) {
            Path meta = id == null || !id.matches("[0-9a-f-]{36}") ? null : uploads().resolve(id).resolve("meta.json");
            if (meta == null || !Files.exists(meta)) {
                unknown.add(Ids.abbreviate(String.valueOf(id), 40));
                continue;
            }
            try {
                metas.add(JSON.readValue(Files.readString(meta), StagedMeta.class));
            } catch (IOException e) {
                unknown.add(id);
            }
        }
        if (!unknown.isEmpty()) {
            throw new NotFoundException("no staged file with id " + String.join(", ", unknown)
                    + " (staged files expire after " + components.config.get(Settings.INGEST_STAGING_HOURS) + " h)");
        }
        Path job = newStagingDir();
        List<Requests.StagedFile> files = new ArrayList<>();
        try {
            for (int i = 0; i < ids.size(); i++) {
                Path target = job.resolve(Integer.toString(i));
                Files.move(uploads().resolve(ids.get(i)).resolve("content"), target);
                deleteTree(uploads().resolve(ids.get(i)));
                files.add(new Requests.StagedFile(metas.get(i).name(), target));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot move staged files into the job", e);
        }
        String kb = knowledgeBase == null || knowledgeBase.isBlank() ? metas.getFirst().knowledgeBase() : knowledgeBase;
        return submitUpload(kb, job, files, skipGraph);
    }

    private Path uploads() {
        return dataDir.resolve("staging").resolve("uploads");
    }

    /** Deletes staged uploads older than {@code ingest.staging.hours}. */
    private void expireStaged() {
        Path root = uploads();
        if (!Files.isDirectory(root)) {
            return;
        }
        long cutoff = System.currentTimeMillis() - components.config.get(Settings.INGEST_STAGING_HOURS) * 3_600_000L;
        try (Stream<Path> s = Files.list(root)) {
            for (Path dir : s.toList()) {
                if (Files.getLastModifiedTime(dir).toMillis() < cutoff) {
                    deleteTree(dir);
                }
            }
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "cannot expire staged uploads in " + root, e);
        }
    }

    /** A fresh directory under the data directory where a front door stages uploaded files for a job. */
    public Path newStagingDir() {
        Path dir = dataDir.resolve("staging").resolve(UUID.randomUUID().toString());
        try {
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create staging directory " + dir, e);
        }
    }

    /** Deletes a staging directory whose upload will not become a job. */
    public void discardStaging(Path stagingDir) {
        if (stagingDir.toAbsolutePath().normalize().startsWith(dataDir.resolve("staging"))) {
            deleteTree(stagingDir);
        }
    }

    /**
     * Queues an ingest of staged files and returns the job id at once. The staging directory is deleted when the
     * job ends.
     */
    public String submitUpload(String knowledgeBase, Path stagingDir, List<Requests.StagedFile> files) {
        return submitUpload(knowledgeBase, stagingDir, files, false);
    }

    /** Like {@link #submitUpload(String, Path, List)}; {@code skipGraph} indexes without entity extraction. */
    public String submitUpload(String knowledgeBase, Path stagingDir, List<Requests.StagedFile> files,
            boolean skipGraph) {
        String kb = Ids.knowledgeBase(knowledgeBase);
        if (files.isEmpty()) {
            throw new InvalidInputException("no files to ingest: send at least one file");
        }
        if (!stagingDir.toAbsolutePath().normalize().startsWith(dataDir.resolve("staging"))) {
            throw new IllegalArgumentException("uploads must be staged in newStagingDir()");
        }
        String id = components.catalog.submit(INGEST_UPLOAD,
                JSON.writeValueAsString(new UploadPayload(kb, stagingDir.toString(), files, skipGraph)));
        jobs.poke();
        return id;
    }

    private JobProgress runJob(JobStore.Claimed job, java.util.function.Consumer<JobProgress> progress) {
        if (!INGEST_UPLOAD.equals(job.info().kind())) {
            throw new PolyragException("unknown job kind '" + job.info().kind() + "'");
        }
        UploadPayload p = JSON.readValue(job.payload(), UploadPayload.class);
        List<IngestInput> inputs = p.files().stream().map(f -> new IngestInput("upload:" + f.name(), f.name(),
                sizeOf(f.path()), null, () -> Files.readAllBytes(f.path()))).toList();
        JobProgress[] last = {JobProgress.queued()};
        long[] estimate = {0, 0};
        if (!p.skipGraph() && components.extractor != null && components.extractor.spendsTokens()) {
            // A language model will be paid for: record what it should cost before it starts.
            progress.accept(new JobProgress("estimating", inputs.size(), 0, 0, 0, 0, 0, 0, List.of(), List.of()));
            IngestEstimate e = components.pipeline.estimate(inputs);
            estimate[0] = e.extractionCalls();
            estimate[1] = e.extractionInputTokens() + e.extractionOutputTokens();
        }
        components.pipeline.ingest(inputs, p.knowledgeBase(), run(p.skipGraph()), pr -> {
            last[0] = pr.withEstimate(estimate[0], estimate[1]);
            progress.accept(last[0]);
        });
        return last[0];
    }

    /** A job's end is recorded: its staged files are no longer needed. */
    private void jobEnded(JobStore.Claimed job) {
        Path staging = stagingDirOf(job.payload());
        if (staging != null && staging.toAbsolutePath().normalize().startsWith(dataDir.resolve("staging"))) {
            deleteTree(staging);
        }
    }

    /** The staging folder an upload job's payload names, or null for a payload that names none. */
    static Path stagingDirOf(String payload) {
        try {
            UploadPayload p = JSON.readValue(payload, UploadPayload.class);
            return p.stagingDir() == null ? null : Path.of(p.stagingDir());
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static long sizeOf(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            return -1;
        }
    }

    static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "could not delete staging directory " + dir, e);
        }
    }

    /** The job with this id. */
    public JobInfo job(String id) {
        return components.catalog.job(id).orElseThrow(() -> new NotFoundException("no job with id '"
                + Ids.abbreviate(id, 64) + "'"));
    }

    // ---- search and documents

    public SearchResponse search(SearchRequest request) {
        return components.searcher.search(request);
    }

    /**
     * Searches, then answers with numbered sources (one number per document, neighbouring chunks woven in).
     *
     * @param neighbours chunks added on each side of a hit; null for the configured default
     */
    public Answer answer(SearchRequest request, Integer neighbours) {
        return answer(request, neighbours, false, t -> { });
    }

    /**
     * Like {@link #answer(SearchRequest, Integer)}, with an optional grounding report (which sources support each
     * sentence), passing the answer's text to {@code onToken} as it is written.
     */
    public Answer answer(SearchRequest request, Integer neighbours, boolean grounding,
            java.util.function.Consumer<String> onToken) {
        return components.answers.answer(request, neighbours == null
                ? components.config.get(Settings.ANSWER_NEIGHBOURS) : neighbours, grounding, onToken);
    }

    /** Hits an answer draws from when a request does not say. */
    public int defaultAnswerTopK() {
        return components.config.get(Settings.ANSWER_TOP_K);
    }

    /** Top-k used when a request does not say. */
    public int defaultTopK() {
        return components.config.get(Settings.SEARCH_TOP_K);
    }

    public List<DocumentInfo> documents(String knowledgeBase, int offset, int limit) {
        if (offset < 0 || limit < 1 || limit > Limits.MAX_PAGE) {
            throw new InvalidInputException("offset must be >= 0 and limit in [1, " + Limits.MAX_PAGE + "], got "
                    + offset + " and "
                    + limit);
        }
        return components.catalog.documents(scope(knowledgeBase), offset, limit);
    }

    /** Deletes documents from the catalog and every store; returns how many were visible. */
    public int deleteDocuments(List<String> documentIds) {
        return components.pipeline.delete(documentIds).size();
    }

    /**
     * What this server accepts: media types, file extensions, the size limit, and whether OCR is available.
     *
     * @param mediaTypes media types the parser reads (detected from the content)
     * @param extensions file extensions a directory walk picks up
     * @param maxFileMb largest file accepted, in MiB
     * @param ocr whether images and scanned PDFs can be read
     */
    public record Formats(java.util.SortedSet<String> mediaTypes, java.util.SortedSet<String> extensions, int maxFileMb,
            boolean ocr) {
    }

    public Formats formats() {
        return new Formats(new java.util.TreeSet<>(components.parser.mediaTypes()),
                new java.util.TreeSet<>(components.parser.extensions()),
                components.config.get(Settings.INGEST_MAX_FILE_MB), components.parser.ocr());
    }

    // ---- knowledge graph

    /**
     * Entities whose name or alias contains {@code text}, most mentioned first, from the property graph (or the RDF
     * store when the graph modality is off).
     */
    public List<EntityHit> findEntities(String text, int limit) {
        return findEntities(text, null, limit);
    }

    /** Like {@link #findEntities(String, int)}, counting only mentions in {@code knowledgeBase} (null: all). */
    public List<EntityHit> findEntities(String text, String knowledgeBase, int limit) {
        checkLimit(limit);
        if (text == null || text.isBlank() || Entity.key(text).isEmpty()) {
            throw new InvalidInputException("q is empty: give part of an entity's name");
        }
        if (text.length() > Limits.MAX_ENTITY_QUERY) {
            throw new InvalidInputException("q is longer than " + Limits.MAX_ENTITY_QUERY + " characters: give part "
                    + "of an entity's name");
        }
        return entityGraph().findEntities(text, scope(knowledgeBase), limit);
    }

    /**
     * An entity and the relations that touch it, each with the entity at its other end and the document that
     * states it.
     */
    public EntityNeighbours neighbours(String entityId, int limit) {
        checkLimit(limit);
        EntityGraph g = entityGraph();
        EntityHit entity = g.entities(List.of(entityId == null ? "" : entityId)).stream().findFirst()
                .orElseThrow(() -> new NotFoundException("no entity with id '" + Ids.abbreviate(String.valueOf(
                        entityId), 64) + "'"));
        List<GraphEdge> edges = g.edges(List.of(entity.entity().id()), SearchScope.ALL, limit);
        Map<String, EntityHit> others = new java.util.HashMap<>();
        g.entities(edges.stream().map(e -> e.other(entity.entity().id())).distinct().toList())
                .forEach(h -> others.put(h.entity().id(), h));
        List<EntityNeighbours.Neighbour> out = new ArrayList<>();
        for (GraphEdge e : edges) {
            boolean outgoing = e.subjectId().equals(entity.entity().id());
            EntityHit other = others.get(e.other(entity.entity().id()));
            if (other != null) {
                out.add(new EntityNeighbours.Neighbour(e.predicate(), outgoing ? "out" : "in", other, e.documentId(),
                        e.chunkId()));
            }
        }
        return new EntityNeighbours(entity, out);
    }

    /**
     * An entity and its neighbours.
     *
     * @param entity the entity
     * @param neighbours the relations touching it
     */
    public record EntityNeighbours(EntityHit entity, List<Neighbour> neighbours) {
        /**
         * One relation from the entity's point of view.
         *
         * @param predicate the relation's name
         * @param direction {@code out} when the entity is the subject, {@code in} when it is the object
         * @param entity the entity at the other end
         * @param documentId the document that states it
         * @param chunkId the chunk that states it
         */
        public record Neighbour(String predicate, String direction, EntityHit entity, String documentId,
                String chunkId) {
        }
    }

    /** Entity, relation and mention counts of the graph and RDF stores, by modality name (for status and tests). */
    public Map<String, Map<String, Long>> graphCounts() {
        Map<String, Map<String, Long>> out = new java.util.TreeMap<>();
        if (components.graph != null) {
            out.put("graph", components.graph.counts());
        }
        if (components.rdf != null) {
            out.put("rdf", components.rdf.counts());
        }
        return out;
    }

    private EntityGraph entityGraph() {
        if (components.graph != null) {
            return components.graph;
        }
        if (components.rdf != null) {
            return components.rdf;
        }
        throw new InvalidInputException("the graph and RDF modalities are both off: set POLYRAG_GRAPH_ENABLED=true "
                + "or POLYRAG_RDF_ENABLED=true and ingest again");
    }

    private static void checkLimit(int limit) {
        if (limit < 1 || limit > Limits.MAX_PAGE) {
            throw new InvalidInputException("limit must be in [1, " + Limits.MAX_PAGE + "], got " + limit);
        }
    }

    public Status status() {
        return new Status(components.searcher.modalities(), components.catalog.countDocuments(SearchScope.ALL),
                components.pipeline.stores().sizes(), components.embedder == null ? null
                        : components.embedder.modelId(), components.embedder == null ? 0 : components.embedder.dimension(),
                problems);
    }

    /**
     * What keeps this server from serving correctly now, one line each naming the fix; empty when ready. Besides the
     * problems found when it opened or by the last {@link #check}, every store and the catalog are read and the
     * embedding model embeds a word (a language model is not called: it is optional and billed).
     */
    public List<String> readiness() {
        List<String> out = new ArrayList<>(problems);
        try {
            components.catalog.countDocuments(SearchScope.ALL);
        } catch (RuntimeException e) {
            out.add("the catalog cannot be read: " + e.getMessage());
        }
        components.pipeline.stores().probe().forEach((store, error) -> out.add("the " + store + " store cannot be "
                + "read: " + error));
        if (components.embedder != null) {
            try {
                components.embedder.embedQuery("ready");
            } catch (RuntimeException e) {
                out.add("the embedding model " + components.embedder.modelId() + " cannot embed: " + e.getMessage());
            }
        }
        return out;
    }

    /**
     * Compares the catalog with every enabled store: documents, records per version, orphan records (of replaced,
     * deleted or never-published versions) and versions a store lacks. With {@code repair}, orphans are removed and
     * what a store lacks is re-indexed from the catalog's chunk text (no re-parse). The server's problems are updated
     * from the result.
     */
    public io.polyrag.core.model.CheckReport check(boolean repair) {
        io.polyrag.core.model.CheckReport r = new io.polyrag.ingest.StoreCheck(components.pipeline)
                .run(repair ? io.polyrag.ingest.StoreCheck.Repair.ALL : io.polyrag.ingest.StoreCheck.Repair.NONE);
        problems = List.copyOf(Recovery.problems(r));
        return r;
    }

    private static SearchScope scope(String knowledgeBase) {
        return knowledgeBase == null || knowledgeBase.isBlank() ? SearchScope.ALL
                : new SearchScope(Set.of(Ids.knowledgeBase(knowledgeBase)));
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
