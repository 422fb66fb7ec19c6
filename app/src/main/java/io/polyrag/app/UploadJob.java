package io.polyrag.app;

import io.polyrag.core.model.DocumentInfo;
import io.polyrag.core.model.DocumentMeta;
import io.polyrag.core.model.FigureMode;
import io.polyrag.core.model.IndexedDocument;
import io.polyrag.core.model.IngestEstimate;
import io.polyrag.core.model.IngestReport;
import io.polyrag.core.model.JobProgress;
import io.polyrag.core.port.BlobStore;
import io.polyrag.core.port.Catalog;
import io.polyrag.core.port.JobStore;
import io.polyrag.ingest.IngestInput;
import io.polyrag.ingest.IngestPipeline;
import io.polyrag.ingest.PartialIngest;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code ingest-upload} job: ingests files a front door staged in the blob store, keeps each indexed one as its
 * document's original, then deletes the staged blobs. Any replica sharing the blob store can run it. When a language
 * model will extract entities (and be paid for), the job first records what that should cost.
 */
final class UploadJob implements JobHandler {
    static final String KIND = "ingest-upload";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /**
     * A staged file of a job.
     *
     * @param name the client's file name
     * @param key the blob holding its bytes; null for a file over the size limit (not stored: the job refuses it by
     *     its size) or one staged locally by an earlier version
     * @param size its size in bytes
     * @param path where its bytes are, for a job queued by a version that staged on the local disk (key null)
     */
    record JobFile(String name, String key, long size, String path) {
    }

    /**
     * The payload stored with the job: the files and where they are staged, and — for a document uploaded with its
     * description — the title and metadata to record once it is indexed.
     *
     * @param stagingDir the local folder of a job queued by a version that staged on the local disk; null now
     * @param figures auto, force or skip; null for the configured default (and jobs queued before figures existed)
     */
    record Payload(String knowledgeBase, String stagingDir, List<JobFile> files, boolean skipGraph, String title,
            DocumentMeta meta, String figures) {
        Payload(String knowledgeBase, String stagingDir, List<JobFile> files, boolean skipGraph, String title,
                DocumentMeta meta) {
            this(knowledgeBase, stagingDir, files, skipGraph, title, meta, null);
        }
    }

    private final MeteredIngest ingest;
    private final Catalog catalog;
    private final BlobStore blobs;
    private final Path stagingRoot;

    /** @param stagingRoot where jobs submitted before staged uploads became blobs left their files */
    UploadJob(MeteredIngest ingest, Catalog catalog, BlobStore blobs, Path stagingRoot) {
        this.ingest = ingest;
        this.catalog = catalog;
        this.blobs = blobs;
        this.stagingRoot = stagingRoot;
    }

    static String payload(Payload p) {
        return JSON.writeValueAsString(p);
    }

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public String item() {
        return "file";
    }

    @Override
    public JobProgress run(JobStore.Claimed job, JobHandler.Context context) {
        Payload p = JSON.readValue(job.payload(), Payload.class);
        // A title given with the upload is the one indexed (written into the catalog only after the ingest, the
        // index and every chunk's embedded text carried the parser's, "Microsoft Word - AR_v3.docx").
        List<IngestInput> inputs = p.files().stream().map(f -> new IngestInput("upload:" + f.name(), f.name(),
                f.key() == null && f.path() != null ? sizeOf(legacyPath(f.path())) : f.size(), null, () -> read(f),
                p.title() == null ? null : "title\n" + p.title(), p.title())).toList();
        long calls = 0;
        long tokens = 0;
        // Resumed (after a yield, a stop, a crash), it finds the files it indexed before unchanged: its counts carry
        // on from the earlier runs', or 100 new files yielding after 40 ended "added 60, unchanged 40". From its
        // first report: a re-estimate written as zeros wiped them, and made the run look as if it had done new work.
        JobProgress earlier = JobOutcome.earlier(job.info().progress());
        if (earlier != null) {
            // Estimated once, by the first run: each resume after a yield parsed (and OCR'd) every file again.
            calls = earlier.estimatedCalls();
            tokens = earlier.estimatedTokens();
        } else if (!p.skipGraph() && ingest.spendsTokens()) {
            context.progress(JobOutcome.cumulative(earlier, JobProgress.at("estimating").total(inputs.size())
                    .build()));
            IngestEstimate e = ingest.pipeline().estimate(inputs, null, new Stop(context));
            calls = e.extractionCalls();
            tokens = e.extractionInputTokens() + e.extractionOutputTokens();
        }
        long estimatedCalls = calls;
        long estimatedTokens = tokens;
        JobProgress[] last = {JobProgress.queued()};
        String tenantId = job.info().tenant() == null ? "" : job.info().tenant();
        Stop stop = new Stop(context);
        IngestReport report;
        try {
            report = ingest.ingest(tenantId, inputs, p.knowledgeBase(), new IngestPipeline.Run(p.skipGraph(), 0,
                    stop, p.figures() == null ? null : FigureMode.parse(p.figures())), pr -> {
                        last[0] = JobOutcome.cumulative(earlier, pr.withEstimate(estimatedCalls, estimatedTokens));
                        context.progress(last[0]);
                    });
        } catch (RuntimeException e) {
            // Stopped part way (a damaged index, a store gone): the files published before it keep their originals,
            // or a failed job's staged files went and those documents had none (or the previous upload's).
            PartialIngest.of(e).ifPresent(done -> keepOriginals(p, done, job.info().attempts() > 1));
            throw e;
        }
        // Before yielding too: a document this run published must not keep the last upload's original while its
        // new version is what is searched.
        keepOriginals(p, report, job.info().attempts() > 1);
        if (stop.yielded) {
            throw new Yielded();
        }
        return last[0];
    }

    /** Asked before each file: stop for a cancel or shutdown, or to yield the worker (remembered, to say so). */
    static final class Stop implements BooleanSupplier {
        private final JobHandler.Context context;
        boolean yielded;

        Stop(JobHandler.Context context) {
            this.context = context;
        }

        @Override
        public boolean getAsBoolean() {
            if (context.canceled()) {
                return true;
            }
            yielded = yielded || context.yieldRequested();
            return yielded;
        }
    }

    @Override
    public boolean resumable(String payload) {
        return true;
    }

    /** A staged file's bytes; one that is gone fails its item only, saying why. */
    private byte[] read(JobFile f) throws IOException {
        try (InputStream in = open(f)) {
            return in.readAllBytes();
        }
    }

    /**
     * Keeps each indexed file's bytes as its document's original ({@code GET /v1/documents/{id}/content}) and
     * records the description it was uploaded with. A failure here costs the original, never the indexed document.
     * An unchanged file's original is written again when it has none or one of another size, or, when this run
     * resumes an earlier one ({@code resumed}, which may have published the file's new version and stopped before
     * keeping it), one of other bytes.
     */
    private void keepOriginals(Payload p, IngestReport report, boolean resumed) {
        Map<String, JobFile> byUri = new HashMap<>();
        p.files().forEach(f -> byUri.putIfAbsent("upload:" + f.name(), f));
        for (IndexedDocument d : report.indexed()) {
            if (d.outcome().startsWith("duplicate")) {
                continue;
            }
            // The check of the visible version and the put are one step per document in this process: two uploads of
            // one name ending together left the older one's bytes as the newer version's original (its check passed,
            // the newer job put its bytes, then the older one's put replaced them).
            Optional.ofNullable(byUri.get(d.uri())).ifPresent(f -> {
                // A lock, not a monitor: a job worker is a virtual thread, which a monitor held across the put's I/O
                // pins to its carrier on JDK 21.
                ReentrantLock lock = ORIGINALS[Math.floorMod(d.documentId().hashCode(), ORIGINALS.length)];
                lock.lock();
                try {
                    keep(p, resumed, d, f);
                } finally {
                    lock.unlock();
                }
            });
        }
    }

    /** One lock per stripe of document ids, for {@link #keep}. */
    private static final ReentrantLock[] ORIGINALS = IntStream.range(0, 64).mapToObj(i -> new ReentrantLock())
            .toArray(ReentrantLock[]::new);

    private void keep(Payload p, boolean resumed, IndexedDocument d, JobFile f) {
        try {
            Optional<DocumentInfo> doc = catalog.document(d.documentId());
            if (doc.isEmpty()) {
                return; // deleted since it was published: its original is not kept behind it
            }
            if (d.outcome().equals("superseded") || doc.get().visibleVersion() != d.version()) {
                // Another upload of the name published a newer version meanwhile (this job's ends later):
                // its original and categories are the visible version's, not to be overwritten by these.
                return;
            }
            String type = doc.get().mediaType() != null ? doc.get().mediaType() : "application/octet-stream";
            // Resumed, an earlier run may have published this file and stopped before keeping it (a crash):
            // the stored original is then the previous upload's, perhaps of the same size, so its bytes are
            // compared. Rewriting every unchanged file's original at each resume cost a write and an fsync
            // per file per yield.
            if (!d.outcome().equals("unchanged") || !keptAlready(d.documentId(), f, resumed)) {
                blobs.put(d.documentId(), read(f), type, f.name());
                if (catalog.document(d.documentId()).isEmpty()) {
                    blobs.delete(d.documentId()); // deleted while it was kept
                    return;
                }
            }
            if (p.meta() != null || p.title() != null) {
                catalog.describe(d.documentId(), p.title(), p.meta() == null
                        ? DocumentMeta.NONE : p.meta());
            }
        } catch (IOException | RuntimeException e) {
            System.getLogger(UploadJob.class.getName()).log(System.Logger.Level.WARNING, "cannot keep the "
                    + "original of " + d.uri() + ": " + e.getMessage());
        }
    }

    /**
     * Whether the document's stored original holds this file's bytes: the same size, and with {@code exact} the same
     * bytes (read side by side).
     */
    private boolean keptAlready(String documentId, JobFile f, boolean exact) throws IOException {
        var blob = blobs.get(documentId);
        if (blob.isEmpty()) {
            return false;
        }
        try (var in = blob.get().content()) {
            if (blob.get().size() != f.size()) {
                return false;
            }
            if (!exact) {
                return true;
            }
            try (InputStream staged = open(f)) {
                return same(in, staged);
            }
        }
    }

    private static final int COMPARED = 64 * 1024;

    private static boolean same(InputStream a, InputStream b) throws IOException {
        while (true) {
            byte[] x = a.readNBytes(COMPARED);
            byte[] y = b.readNBytes(COMPARED);
            if (!Arrays.equals(x, y)) {
                return false;
            }
            if (x.length < COMPARED) {
                return true;
            }
        }
    }

    /** The staged file's bytes as a stream. */
    private InputStream open(JobFile f) throws IOException {
        if (f.key() == null) {
            if (f.path() == null) {
                throw new IOException("too large to stage (" + f.size() + " bytes)");
            }
            return Files.newInputStream(legacyPath(f.path()));
        }
        return blobs.get(f.key()).orElseThrow(() -> new FileNotFoundException("the staged "
                + "upload is gone from the blob store (POLYRAG_BLOB_BACKEND): replicas must share one blob store; "
                + "upload the file again")).content();
    }

    @Override
    public void ended(JobStore.Claimed job) {
        stagingDir(job.payload()).ifPresent(Uploads::deleteTree);
        for (String key : stagedBlobs(job.payload())) {
            try {
                blobs.delete(key);
            } catch (RuntimeException e) {
                System.getLogger(UploadJob.class.getName()).log(System.Logger.Level.WARNING, "cannot delete staged "
                        + "upload " + key + " (the next sweep does): " + e.getMessage());
            }
        }
    }

    @Override
    public Optional<String> knowledgeBase(String payload) {
        try {
            return Optional.ofNullable(JSON.readValue(payload, Payload.class).knowledgeBase());
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    @Override
    public List<String> stagedBlobs(String payload) {
        try {
            return JSON.readValue(payload, Payload.class).files().stream().map(JobFile::key)
                    .filter(Objects::nonNull).toList();
        } catch (RuntimeException e) {
            return List.of();
        }
    }

    @Override
    public long stagedBytes(String payload) {
        try {
            return JSON.readValue(payload, Payload.class).files().stream().filter(f -> f.key() != null)
                    .mapToLong(JobFile::size).sum();
        } catch (RuntimeException e) {
            return 0;
        }
    }

    /** The local staging folder a payload of an earlier version names, when it lies under the staging root. */
    @Override
    public Optional<Path> stagingDir(String payload) {
        try {
            Payload p = JSON.readValue(payload, Payload.class);
            if (p.stagingDir() == null) {
                return Optional.empty();
            }
            Path dir = Path.of(p.stagingDir()).toAbsolutePath().normalize();
            return dir.startsWith(stagingRoot) ? Optional.of(dir) : Optional.empty();
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Where an earlier version staged a file: its payload holds the path as Jackson writes a Path, a file: URI. */
    static Path legacyPath(String written) {
        return written.startsWith("file:") ? Path.of(URI.create(written)) : Path.of(written);
    }

    private static long sizeOf(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            return -1;
        }
    }
}
