package io.polyrag.app;

import io.polyrag.app.api.Limits;
import io.polyrag.app.api.ReceivedFile;
import io.polyrag.app.api.StagedUpload;
import io.polyrag.app.api.StagingReport;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.NotFoundException;
import io.polyrag.core.UnavailableException;
import io.polyrag.core.config.Config;
import io.polyrag.core.config.Settings;
import io.polyrag.core.model.DocumentMeta;
import io.polyrag.core.model.FigureMode;
import io.polyrag.core.model.Ids;
import io.polyrag.core.model.ItemError;
import io.polyrag.core.model.KnowledgeBase;
import io.polyrag.core.model.SourceItem;
import io.polyrag.core.model.Tenant;
import io.polyrag.core.port.BlobStore;
import io.polyrag.core.port.Catalog;
import io.polyrag.ingest.IngestPipeline;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import tools.jackson.databind.json.JsonMapper;

/**
 * Uploaded files. A front door writes them into a local scratch folder ({@link #newStagingDir()}, under the data
 * directory's {@code staging/}); from there they are either submitted as an ingest job at once ({@link #submit}) or
 * checked and kept first ({@link #stage}), to be ingested later by id ({@link #ingestStaged}). Either way the bytes
 * move into the blob store ({@code job-<token>-<n>} for a job's files, {@code upload-<id>} and its {@code -meta} for
 * a kept file) before the call returns, so any replica sharing the blob store can run the job or take the id. Kept
 * files expire after {@code ingest.staging.hours}; a job's blobs go when its end is recorded, and blobs nobody owns
 * (a crash between storing and submitting) are swept after an hour. A kept file an ingest claimed and whose job
 * never committed waits again an hour later ({@link StagedClaims}).
 */
public final class Uploads {
    private static final System.Logger LOG = System.getLogger(Uploads.class.getName());
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private record StagedMeta(String name, String knowledgeBase, long size, String mediaType, long stagedAt) {
    }

    /** Blobs of a job's files: {@code job-<token>-<n>}. */
    static final String JOB_BLOBS = "job-";
    /** Kept uploads waiting for {@link #ingestStaged}: {@code upload-<id>} and {@code upload-<id>-meta}. */
    static final String KEPT_BLOBS = "upload-";
    private static final String META = StagedClaims.META;
    /**
     * The keys polyrag stages under ({@code job-<uuid>-<n>}; {@code upload-[<tenant tag>-]<uuid>} with its
     * description or claim): the sweep touches nothing else, whatever else a shared bucket holds under the prefix
     * ({@code job-2024-report.csv} was deleted an hour after it appeared).
     */
    private static final Pattern STAGED = Pattern.compile("job-\\p{XDigit}{8}(-\\p{XDigit}{4}){3}-\\p{XDigit}{12}-\\d+"
            + "|upload-(\\p{XDigit}{16}-)?[0-9a-f-]{36}(-meta|-claim)?");
    /** How long a staged blob no job owns may wait before a sweep takes it for a crash's leftover. */
    static final Duration UNOWNED_GRACE = Duration.ofHours(1);

    private final MeteredIngest ingest;
    private final Catalog catalog;
    private final BlobStore blobs;
    private final Config config;
    private final Path root;
    private final JobEngine jobs;
    private final Tenant tenant;

    /** @param root where front doors write uploaded files before they are staged */
    Uploads(MeteredIngest ingest, Catalog catalog, BlobStore blobs, Config config, Path root, JobEngine jobs,
            Tenant tenant) {
        this.ingest = ingest;
        this.catalog = catalog;
        this.blobs = blobs;
        this.config = config;
        this.root = root;
        this.jobs = jobs;
        this.tenant = tenant;
    }

    /** A fresh folder where a front door writes uploaded files for {@link #submit} or {@link #stage}. */
    public Path newStagingDir() {
        Path dir = root.resolve(UUID.randomUUID().toString());
        try {
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create staging directory " + dir, e);
        }
    }

    /** Deletes a staging folder whose files will not become a job. */
    public void discard(Path stagingDir) {
        if (inside(stagingDir)) {
            deleteTree(stagingDir);
        }
    }

    /**
     * Queues an ingest of staged files and returns the job id at once. The staging folder is deleted when the job's
     * end is recorded.
     *
     * @param stagingDir a folder from {@link #newStagingDir()} holding the files
     * @param skipGraph index without entity extraction
     */
    public String submit(KnowledgeBase knowledgeBase, Path stagingDir, List<ReceivedFile> files, boolean skipGraph) {
        return submit(knowledgeBase, stagingDir, files, skipGraph, null, null);
    }

    /**
     * Like {@link #submit(KnowledgeBase, Path, List, boolean)}, recording a title and a description for the
     * document once it is indexed ({@code POST /v1/documents}).
     *
     * @param title the title to give it (null: its own)
     * @param meta its categories, subcategory and external reference (null: none)
     */
    public String submit(KnowledgeBase knowledgeBase, Path stagingDir, List<ReceivedFile> files, boolean skipGraph,
            String title, DocumentMeta meta) {
        return submit(knowledgeBase, stagingDir, files, skipGraph, title, meta, null);
    }

    /**
     * Like {@link #submit(KnowledgeBase, Path, List, boolean, String, io.polyrag.core.model.DocumentMeta)}, taking
     * figures from PDFs and Office files as {@code figures} says (null: the configured default).
     */
    public String submit(KnowledgeBase knowledgeBase, Path stagingDir, List<ReceivedFile> files, boolean skipGraph,
            String title, DocumentMeta meta, FigureMode figures) {
        if (files.isEmpty()) {
            throw new InvalidInputException("no files to ingest: send at least one file");
        }
        if (!inside(stagingDir)) {
            throw new IllegalArgumentException("uploads must be staged in newStagingDir()");
        }
        long max = config.get(Settings.INGEST_MAX_FILE_MB) * 1024L * 1024L;
        long incoming = 0;
        for (ReceivedFile f : files) {
            long size = sizeOf(f.path());
            incoming += size > max ? 0 : size;
        }
        Usage.Reservation reserved;
        try {
            jobs.mayQueue(tenant);
            reserved = ingest.mayIngest(tenant.id(), this::waitingBytes, incoming);
        } catch (RuntimeException e) {
            deleteTree(stagingDir);
            throw e;
        }
        KnowledgeBase kb = Scope.bind(tenant, knowledgeBase);
        String token = UUID.randomUUID().toString();
        List<UploadJob.JobFile> staged = new ArrayList<>();
        try (reserved) {
            for (int i = 0; i < files.size(); i++) {
                ReceivedFile f = files.get(i);
                long size = Files.size(f.path());
                if (size > max) {
                    // Not read, not stored: the job reports it too large, by its size, as an ingest would.
                    staged.add(new UploadJob.JobFile(f.name(), null, size, null));
                    continue;
                }
                byte[] bytes = Files.readAllBytes(f.path());
                String key = JOB_BLOBS + token + "-" + i;
                blobs.put(key, bytes, null, f.name());
                staged.add(new UploadJob.JobFile(f.name(), key, bytes.length, null));
            }
            return jobs.submit(tenant, UploadJob.KIND, UploadJob.payload(new UploadJob.Payload(kb.storageName(),
                    null, staged, skipGraph, title, meta, figures == null ? null : figures.wireName())));
        } catch (IOException | RuntimeException e) {
            staged.stream().filter(f -> f.key() != null).forEach(f -> deleteBlobQuietly(f.key()));
            if (e instanceof IOException io) {
                throw new UncheckedIOException("cannot read the uploaded files to stage them", io);
            }
            throw (RuntimeException) e;
        } finally {
            deleteTree(stagingDir);
        }
    }

    private void deleteBlobQuietly(String key) {
        try {
            blobs.delete(key);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "cannot delete staged upload " + key + " (a sweep will): "
                    + e.getMessage());
        }
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
    public StagingReport stage(KnowledgeBase knowledgeBase, List<ReceivedFile> files) {
        long max = config.get(Settings.INGEST_MAX_FILE_MB) * 1024L * 1024L;
        Usage.Reservation reserved;
        try {
            // Files refused anyway (too large) are not counted: one of them refused the whole request.
            reserved = ingest.mayIngest(tenant.id(), this::waitingBytes, files.stream().mapToLong(f -> sizeOf(
                    f.path())).filter(n -> n <= max).sum());
        } catch (RuntimeException e) {
            files.forEach(f -> deleteQuietly(f.path()));
            throw e;
        }
        try (reserved) {
            return stageAll(Scope.bind(tenant, knowledgeBase), files);
        }
    }

    /** Checks and keeps each file, as {@link #stage} says. */
    private StagingReport stageAll(KnowledgeBase kb, List<ReceivedFile> files) {
        List<StagedUpload> accepted = new ArrayList<>();
        List<ItemError> skipped = new ArrayList<>();
        Map<String, String> seen = new HashMap<>();
        for (ReceivedFile f : files) {
            try {
                String reason = stageOne(kb, f, seen, accepted);
                if (reason != null) {
                    skipped.add(new ItemError(f.name(), reason));
                }
            } catch (IOException e) {
                skipped.add(new ItemError(f.name(), f.name() + ": cannot be read (" + e.getMessage() + ")"));
            } catch (RuntimeException e) {
                // The request fails (a full disk, the blob store down): the files it had kept go too, as their ids
                // never reach the client. They stayed, out of reach, until the staging sweep a day later.
                discardAccepted(accepted);
                throw e;
            } finally {
                deleteQuietly(f.path());
            }
        }
        return new StagingReport(accepted, skipped);
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "cannot delete temporary upload " + file, e);
        }
    }

    private static long sizeOf(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0; // unreadable: its own check reports it
        }
    }

    /**
     * The tenant's kept uploads are stored under keys that start with its tag (a digest of its id, all of one
     * length, so no tenant's prefix starts another's): its waiting files are listed, and counted, alone, and an id
     * staged by another tenant names no blob of this one.
     */
    private String keptPrefix() {
        return KEPT_BLOBS + Ids.sha256Hex(("tenant:" + tenant.id()).getBytes(StandardCharsets.UTF_8)).substring(0, 16)
                + "-";
    }

    /**
     * The bytes of the tenant's uploads not ingested yet: those its queued and running jobs hold, and its kept
     * files no ingest has taken (one taken has lost its description and is counted with its job).
     */
    private long waitingBytes() {
        var kept = blobs.list(keptPrefix());
        Set<String> described = new HashSet<>();
        kept.stream().filter(b -> b.key().endsWith(META)).forEach(b -> described.add(b.key()));
        return jobs.pending(tenant).stagedBytes() + kept.stream().filter(b -> described.contains(b.key() + META))
                .mapToLong(BlobStore.Listed::size).sum();
    }

    private void discardAccepted(List<StagedUpload> accepted) {
        for (StagedUpload u : accepted) {
            try {
                blobs.delete(keptPrefix() + u.id());
                blobs.delete(keptPrefix() + u.id() + META);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "cannot delete staged upload " + u.id() + " (the staging sweep "
                        + "will): " + e.getMessage());
            }
        }
    }

    /** Checks and keeps one file; returns why it was refused, or null when it was accepted. */
    private String stageOne(KnowledgeBase kb, ReceivedFile f, Map<String, String> seen, List<StagedUpload> accepted)
            throws IOException {
        long max = config.get(Settings.INGEST_MAX_FILE_MB) * 1024L * 1024L;
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
        String fingerprint = ingest.pipeline().fingerprint(bytes, true);
        var existing = catalog.document(Ids.documentId(kb.storageName(), uri));
        if (existing.isPresent() && existing.get().visibleVersion() > 0
                && existing.get().contentHash().equals(fingerprint)) {
            return f.name() + ": unchanged: identical to the document already indexed as " + uri
                    + "; nothing to do";
        }
        // Only a new document is left out as a copy: one changed into a copy of another is an update.
        boolean visible = existing.isPresent() && existing.get().visibleVersion() > 0;
        if (!config.get(Settings.INGEST_DUPLICATES).equals("allow") && !visible) {
            String earlier = seen.putIfAbsent(fingerprint, f.name());
            if (earlier != null) {
                return f.name() + ": duplicate of " + earlier + " in the same upload";
            }
            var same = catalog.documentsWithContent(fingerprint, kb.asScope()).stream()
                    .filter(d -> !d.uri().equals(uri)).findFirst();
            if (same.isPresent()) {
                return f.name() + ": duplicate of " + same.get().uri() + " (same content under another name; set "
                        + "POLYRAG_INGEST_DUPLICATES=allow to index it anyway)";
            }
        }
        IngestPipeline.Verdict verdict;
        try {
            verdict = ingest.check(tenant.id(), new SourceItem(uri, f.name(), bytes, null));
        } catch (UnavailableException e) {
            throw new UnavailableException(f.name() + ": not checked: every parser of this server is busy (files "
                    + "that overran their time limit); upload again in a minute", e);
        }
        if (verdict.problem() != null) {
            return verdict.problem();
        }
        String id = UUID.randomUUID().toString();
        blobs.put(keptPrefix() + id, bytes, verdict.mediaType(), f.name());
        blobs.put(keptPrefix() + id + META, JSON.writeValueAsBytes(new StagedMeta(f.name(),
                kb.storageName(), size, verdict.mediaType(), System.currentTimeMillis())), "application/json",
                "meta.json");
        accepted.add(new StagedUpload(id, f.name(), size, verdict.mediaType()));
        return null;
    }

    /**
     * Starts an ingest job for staged files and returns its id at once. Unknown or expired ids fail with the list of
     * them, and nothing starts.
     *
     * @param knowledgeBase target knowledge base; null for the one the files were staged for
     */
    public String ingestStaged(List<String> ids, KnowledgeBase knowledgeBase, boolean skipGraph) {
        return ingestStaged(ids, knowledgeBase, skipGraph, null);
    }

    /**
     * Like {@link #ingestStaged(List, KnowledgeBase, boolean)}, taking figures from PDFs and Office files as
     * {@code figures} says (null: the configured default).
     */
    // style: every check of the staged ids before the job is submitted, each naming what is wrong
    public String ingestStaged(List<String> ids, KnowledgeBase knowledgeBase, boolean skipGraph,
            FigureMode figures) {
        if (ids == null || ids.isEmpty()) {
            throw new InvalidInputException("no staged files: give the ids that POST /v1/ingest/upload accepted");
        }
        if (ids.size() > Limits.MAX_STAGED_IDS) {
            throw new InvalidInputException("at most " + Limits.MAX_STAGED_IDS + " staged files per ingest, got "
                    + ids.size() + ": ingest them in several requests");
        }
        jobs.mayQueue(tenant);
        ingest.mayIngest(tenant.id());
        List<String> unknown = new ArrayList<>();
        List<StagedMeta> metas = new ArrayList<>();
        // Each id's content key: under the tenant's prefix, or (staged by an earlier version) without one.
        List<String> keys = new ArrayList<>();
        for (String id : ids) {
            String found = null;
            if (id != null && id.matches("[0-9a-f-]{36}")) {
                for (String key : List.of(keptPrefix() + id, KEPT_BLOBS + id)) {
                    StagedMeta m = keptMeta(key);
                    // Another tenant's staged file is not found, like one that never was.
                    if (m != null && tenant.owns(m.knowledgeBase())) {
                        metas.add(m);
                        found = key;
                        break;
                    }
                }
            }
            if (found == null) {
                unknown.add(Ids.abbreviate(String.valueOf(id), 40));
            } else {
                keys.add(found);
            }
        }
        if (!unknown.isEmpty()) {
            throw new NotFoundException("no staged file with id " + String.join(", ", unknown)
                    + " (staged files expire after " + config.get(Settings.INGEST_STAGING_HOURS) + " h)");
        }
        // One ingest, one document per name: two staged files of one name (staged apart) would both be 'upload:NAME',
        // and which one's bytes became the original was a matter of order.
        Set<String> names = new HashSet<>();
        List<String> twice = metas.stream().map(StagedMeta::name).filter(n -> !names.add(n)).distinct().toList();
        if (!twice.isEmpty()) {
            throw new InvalidInputException("ids: two staged files are named " + String.join(", ", twice.stream()
                    .map(n -> "'" + Ids.abbreviate(n, 80) + "'").toList()) + ": ingest them in separate requests, or "
                    + "stage them under distinct names");
        }
        // Without 'kb', the one they were staged for: all went to the first file's, each checked as new against its own.
        List<String> kbs = metas.stream().map(StagedMeta::knowledgeBase).distinct().toList();
        if (knowledgeBase == null && kbs.size() > 1) {
            throw new InvalidInputException("ids: the staged files were staged for different knowledge bases ("
                    + String.join(", ", kbs.stream().limit(5).map(k -> "'" + KnowledgeBase.ofStored(k).name() + "'")
                    .toList()) + "): give 'kb', or ingest each knowledge base's files in a request of its own");
        }
        // Claim each id by deleting its description: of two requests for one id (a retry), one goes on.
        List<byte[]> described = metas.stream().map(JSON::writeValueAsBytes).toList();
        List<Integer> taken = StagedClaims.claim(blobs, keys, described);
        if (!taken.isEmpty()) {
            throw new NotFoundException("no staged file with id " + String.join(", ", taken.stream().map(ids::get)
                    .toList()) + " (taken by another ingest just now)");
        }
        List<UploadJob.JobFile> files = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            files.add(new UploadJob.JobFile(metas.get(i).name(), keys.get(i), metas.get(i).size(), null));
        }
        KnowledgeBase kb = Scope.bind(tenant, knowledgeBase != null ? knowledgeBase
                : KnowledgeBase.ofStored(metas.getFirst().knowledgeBase()));
        String job;
        try {
            job = jobs.submit(tenant, UploadJob.KIND, UploadJob.payload(new UploadJob.Payload(kb.storageName(),
                    null, files, skipGraph, null, null, figures == null ? null : figures.wireName())));
        } catch (RuntimeException e) {
            StagedClaims.giveBack(blobs, keys, described, IntStream.range(0, keys.size()).boxed()
                    .toList());
            throw e;
        }
        StagedClaims.release(blobs, keys);
        return job;
    }

    /**
     * Deletes a file {@code POST /v1/ingest/upload} kept and no ingest took: a client that drops its choice (other
     * files, another knowledge base) frees what it holds against {@code stored_mb} at once, not after the staging
     * hours (a quota half taken by a dropped choice refused the next upload for a day).
     *
     * @throws NotFoundException no such file of this tenant's is waiting (never kept, ingested, expired, deleted)
     */
    public void discardStaged(String id) {
        String key = id != null && id.matches("[0-9a-f-]{36}") ? keptPrefix() + id : null;
        StagedMeta m = key == null ? null : keptMeta(key);
        // Claimed as an ingest claims it, by its description: of a delete and an ingest at once, one goes on.
        if (m == null || !tenant.owns(m.knowledgeBase()) || !blobs.delete(key + META)) {
            throw new NotFoundException("no staged file with id " + Ids.abbreviate(String.valueOf(id), 40)
                    + " waits to be ingested (taken by an ingest, deleted, or expired)");
        }
        blobs.delete(key);
    }

    /** A kept upload's description, by its content key; null when there is none (or it cannot be read). */
    private StagedMeta keptMeta(String key) {
        try {
            var blob = blobs.get(key + META);
            if (blob.isEmpty()) {
                return null;
            }
            try (var in = blob.get().content()) {
                return JSON.readValue(in.readAllBytes(), StagedMeta.class);
            }
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "cannot read staged file " + key + META + ": " + e.getMessage());
            return null;
        }
    }

    private boolean inside(Path dir) {
        return dir.toAbsolutePath().normalize().startsWith(root);
    }

    /**
     * Deletes kept uploads older than {@code ingest.staging.hours} and job blobs no unfinished job owns that are
     * older than {@link #UNOWNED_GRACE}; what a queued or running job needs is never touched. At start-up and with
     * every recovery sweep.
     *
     * @return how many blobs were deleted
     */
    static int sweep(BlobStore blobs, Config config, JobEngine jobs) {
        Instant now = Instant.now();
        Instant keptCutoff = now.minus(Duration.ofHours(config.get(
                Settings.INGEST_STAGING_HOURS)));
        Instant unownedCutoff = now.minus(UNOWNED_GRACE);
        var kept = blobs.list(KEPT_BLOBS).stream().filter(b -> STAGED.matcher(b.key()).matches()).toList();
        var jobBlobs = blobs.list(JOB_BLOBS).stream().filter(b -> STAGED.matcher(b.key()).matches()).toList();
        if (kept.isEmpty() && jobBlobs.isEmpty()) {
            return 0;
        }
        Set<String> owned = jobs.ownedBlobs();
        StagedClaims.recover(blobs, kept, owned, unownedCutoff, keptCutoff);
        int deleted = 0;
        for (var b : kept) {
            if (b.key().endsWith(StagedClaims.CLAIM)) {
                continue;
            }
            String content = b.key().endsWith(META) ? b.key().substring(0, b.key().length() - META.length())
                    : b.key();
            if (b.modified().isBefore(keptCutoff) && !owned.contains(content) && blobs.delete(b.key())) {
                deleted++;
                // An expired upload's description goes with it, however young (one put back by a claim's recovery).
                if (!b.key().endsWith(META)) {
                    blobs.delete(content + META);
                }
            }
        }
        for (var b : jobBlobs) {
            if (b.modified().isBefore(unownedCutoff) && !owned.contains(b.key()) && blobs.delete(b.key())) {
                deleted++;
            }
        }
        if (deleted > 0) {
            LOG.log(System.Logger.Level.INFO, "deleted " + deleted + " staged uploads that expired or no job owns");
        }
        return deleted;
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
}
