package io.polyrag.app;

import io.polyrag.app.api.PathIngest;
import io.polyrag.core.fs.Confinement;
import io.polyrag.core.model.ItemError;
import io.polyrag.core.model.JobProgress;
import io.polyrag.core.model.KnowledgeBase;
import io.polyrag.core.model.Source;
import io.polyrag.core.model.SyncItem;
import io.polyrag.core.model.Tenant;
import io.polyrag.core.port.JobStore;
import io.polyrag.core.port.ProgressListener;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * One sync of a source, as a job of kind {@code sync} (a {@code web} source's is {@link WebCrawl}): list its items, and against what the last sync saw of each
 * classify them — unchanged (modification time and size as recorded: never read), touched (read, same bytes: only
 * the recorded time moves), changed or new (re-ingested through the normal pipeline, so they land in every store as
 * any ingest does), deleted (removed from every store and from the state). The hash is of the raw bytes, so a parser
 * upgrade re-classifies nothing. Items that fail stay unrecorded and are tried again by the next sync.
 */
final class SyncJob implements JobHandler {
    static final String KIND = "sync";
    private static final int BATCH = 64;
    private static final int SCAN_BATCH = 1000;
    /** Each source's last scan number, so two scans in one millisecond still differ. */
    private final Map<String, Long> lastScan = new java.util.concurrent.ConcurrentHashMap<>();
    private final Components components;
    private final Function<Tenant, Polyrag.TenantFacets> facets;
    private final java.util.function.Consumer<String> ended;
    /** Web sources' outbound client, made at the first web sync (an HTTP client holds a selector thread). */
    private volatile io.polyrag.core.http.Outbound web;

    /**
     * @param facets the facets acting for a tenant (for ingest and delete)
     * @param ended told the source key ({@code tenant/id}) of every sync that ends, so another can be scheduled
     */
    SyncJob(Components components, Function<Tenant, Polyrag.TenantFacets> facets,
            java.util.function.Consumer<String> ended) {
        this.components = components;
        this.facets = facets;
        this.ended = ended;
    }

    private io.polyrag.core.http.Outbound web() {
        io.polyrag.core.http.Outbound w = web;
        if (w == null) {
            synchronized (this) {
                w = web;
                if (w == null) {
                    w = WebCrawl.client(components.config);
                    web = w;
                }
            }
        }
        return w;
    }

    record Payload(String tenant, String source) {
    }

    static String payload(Source s) {
        return Sources.JSON.writeValueAsString(new Payload(s.tenant(), s.id()));
    }

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public JobProgress run(JobStore.Claimed job, Context context) {
        Payload p = Sources.JSON.readValue(job.payload(), Payload.class);
        Tenant tenant = p.tenant().isEmpty() ? Tenant.LOCAL : Tenant.of(p.tenant());
        Source source = components.catalog.source(p.tenant(), p.source()).orElse(null);
        if (source == null) {
            return new JobProgress("done", 0, 0, 0, 0, 0, 0, 0, List.of(), List.of(), 0, 0, 0, 0,
                    List.of("the source was deleted before this sync ran"));
        }
        Map<String, Object> config = Sources.config(source.config());
        if (WebCrawl.TYPE.equals(source.type())) {
            return new WebCrawl(components, facets.apply(tenant), web()).run(tenant, source, config,
                    components.catalog.sourceItems(p.tenant(), p.source()), context);
        }
        Path root = Path.of((String) config.get("root"));
        List<ItemError> errors = new ArrayList<>();
        Confinement confinement = Sources.confinement(components, tenant);
        java.util.Optional<String> refused = confinement.refusal(root);
        if (!Files.isDirectory(root) || refused.isPresent()) {
            String error = refused.isPresent() && Files.isDirectory(root) ? "the folder " + root + " is no longer "
                    + "inside the folders this tenant's sources may read (" + confinement.roots() + "): nothing was "
                    + "changed in the index" : "the folder " + root + " is gone or unreadable: nothing was changed in "
                    + "the index";
            components.catalog.sourceScanned(p.tenant(), p.source(), java.time.Instant.now(), error);
            return new JobProgress("done", 1, 1, 0, 0, 0, 1, 0, List.of(), List.of(new ItemError(root.toString(),
                    error)));
        }
        // A scan streams: the listing is read a batch at a time, each batch compared with its items' recorded
        // state, and every item seen is marked with this scan's number; the items left unmarked afterwards are the
        // deleted ones. Memory stays the same whatever the folder's size.
        long scan = Math.max(System.currentTimeMillis(), lastScan.merge(p.tenant() + "/" + p.source(),
                System.currentTimeMillis(), (a, b) -> Math.max(a + 1, b)));
        Polyrag.TenantFacets f = facets.apply(tenant);
        KnowledgeBase kb = KnowledgeBase.of(tenant.show(source.knowledgeBase()));
        Scan state = new Scan(p, f, kb, Boolean.TRUE.equals(config.get("skip_graph")), confinement, context, errors);
        context.progress(state.progress("listing"));
        try (Stream<Map.Entry<String, Path>> walk = walk(root, config, confinement, errors::add)) {
            java.util.Iterator<Map.Entry<String, Path>> files = walk.iterator();
            while (files.hasNext() && !state.stopped()) {
                Map<String, Path> batch = new java.util.LinkedHashMap<>();
                while (files.hasNext() && batch.size() < SCAN_BATCH) {
                    Map.Entry<String, Path> e = files.next();
                    batch.put(e.getKey(), e.getValue());
                }
                state.listed += batch.size();
                scanBatch(state, batch);
                if (!state.stopped()) {
                    components.catalog.markSourceItemsSeen(p.tenant(), p.source(), batch.keySet(), scan);
                }
                context.progress(state.progress("scanning"));
            }
        } catch (IOException | java.io.UncheckedIOException e) {
            String error = "cannot list " + root + ": " + e.getMessage() + "; nothing was deleted from the index";
            components.catalog.sourceScanned(p.tenant(), p.source(), java.time.Instant.now(), error);
            errors.add(new ItemError(root.toString(), error));
            return state.progress("done");
        }
        if (state.yielded) {
            throw new Yielded();
        }
        // Only a whole scan may delete: a stopped one has not seen every item.
        while (!state.stopped()) {
            List<SyncItem> gone = components.catalog.unseenSourceItems(p.tenant(), p.source(), scan, SCAN_BATCH);
            if (gone.isEmpty()) {
                break;
            }
            List<String> documentIds = gone.stream().map(SyncItem::documentId).filter(id -> !id.isEmpty())
                    .distinct().toList();
            state.deleted += documentIds.isEmpty() ? 0 : f.documents().delete(documentIds);
            components.catalog.deleteSourceItems(p.tenant(), p.source(), gone.stream().map(SyncItem::item).toList());
        }
        components.catalog.sourceScanned(p.tenant(), p.source(), java.time.Instant.now(), errors.isEmpty() ? null
                : errors.size() + " items failed or were skipped, e.g. " + errors.getFirst().reason());
        return state.progress("done");
    }

    /** One scan's counts and choices, and whether it was asked to stop (cancel, shutdown, or to yield). */
    private static final class Scan implements java.util.function.BooleanSupplier {
        final Payload payload;
        final Polyrag.TenantFacets facets;
        final KnowledgeBase kb;
        final boolean skipGraph;
        final Confinement confinement;
        final Context context;
        final List<ItemError> errors;
        int listed;
        int done;
        int added;
        int updated;
        int unchanged;
        int chunks;
        int deleted;
        boolean yielded;

        Scan(Payload payload, Polyrag.TenantFacets facets, KnowledgeBase kb, boolean skipGraph,
                Confinement confinement, Context context, List<ItemError> errors) {
            this.payload = payload;
            this.facets = facets;
            this.kb = kb;
            this.skipGraph = skipGraph;
            this.confinement = confinement;
            this.context = context;
            this.errors = errors;
        }

        boolean stopped() {
            return yielded || context.canceled();
        }

        @Override
        public boolean getAsBoolean() {
            if (context.canceled()) {
                return true;
            }
            yielded = yielded || context.yieldRequested();
            return yielded;
        }

        JobProgress progress(String stage) {
            return progress(stage, 0, null);
        }

        /** The scan's progress, with a batch being indexed ({@code batch}'s counts added) when there is one. */
        JobProgress progress(String stage, int batchDone, JobProgress batch) {
            List<ItemError> all = batch == null ? errors : java.util.stream.Stream.concat(errors.stream(),
                    batch.errors().stream()).toList();
            return new JobProgress(stage, listed, done + batchDone, added + (batch == null ? 0 : batch.added()),
                    updated + (batch == null ? 0 : batch.updated()), unchanged + (batch == null ? 0
                    : batch.unchanged()), all.size(), chunks + (batch == null ? 0 : batch.chunks()), List.of(),
                    all.size() > 100 ? all.subList(0, 100) : all, 0, 0, 0, 0, List.of(), deleted);
        }
    }

    /**
     * One batch of the listing against its recorded state: unchanged (same modification time and size: not read),
     * touched (read, same bytes: only the recorded time moves), changed or new (ingested, then recorded). Every
     * read goes through the source's confinement, at the moment the file is opened.
     */
    private void scanBatch(Scan scan, Map<String, Path> batch) {
        Payload p = scan.payload;
        Map<String, SyncItem> state = components.catalog.sourceItems(p.tenant(), p.source(), batch.keySet());
        List<SyncItem> touched = new ArrayList<>();
        Map<Path, SyncItem> toIngest = new java.util.LinkedHashMap<>();
        for (var e : batch.entrySet()) {
            if (scan.stopped()) {
                return;
            }
            SyncItem before = state.get(e.getKey());
            BasicFileAttributes a;
            try {
                a = Files.readAttributes(e.getValue(), BasicFileAttributes.class);
            } catch (IOException x) {
                scan.errors.add(new ItemError(e.getKey(), e.getKey() + ": cannot be read (" + x.getMessage() + ")"));
                scan.done++;
                continue;
            }
            long modified = a.lastModifiedTime().toMillis();
            if (before != null && before.modifiedMs() == modified && before.sizeBytes() == a.size()) {
                scan.unchanged++;
                scan.done++;
                continue;
            }
            String hash;
            try {
                hash = sha256(scan.confinement, e.getValue());
            } catch (IOException x) {
                scan.errors.add(new ItemError(e.getKey(), x instanceof Confinement.Refused ? x.getMessage()
                        : e.getKey() + ": cannot be read (" + x.getMessage() + ")"));
                scan.done++;
                continue;
            }
            if (before != null && before.hash().equals(hash)) {
                touched.add(new SyncItem(e.getKey(), modified, a.size(), hash, before.documentId()));
                scan.unchanged++;
                scan.done++;
            } else {
                toIngest.put(e.getValue(), new SyncItem(e.getKey(), modified, a.size(), hash, ""));
            }
        }
        components.catalog.putSourceItems(p.tenant(), p.source(), touched);
        List<Path> files = new ArrayList<>(toIngest.keySet());
        for (int i = 0; i < files.size() && !scan.stopped(); i += BATCH) {
            List<Path> part = files.subList(i, Math.min(files.size(), i + BATCH));
            var report = scan.facets.ingest().paths(new PathIngest(part, scan.kb, List.of(), List.of(),
                    scan.skipGraph), pr -> scan.context.progress(scan.progress(pr.stage(), pr.processed(), pr)),
                    scan.confinement, scan).report();
            scan.added += report.added();
            scan.updated += report.updated();
            scan.unchanged += report.unchanged();
            scan.chunks += report.chunks();
            scan.done += report.documents();
            scan.errors.addAll(report.errors());
            Map<String, String> byUri = new HashMap<>();
            report.indexed().forEach(d -> byUri.put(d.uri(), d.documentId()));
            List<SyncItem> recorded = new ArrayList<>();
            for (Path file : part) {
                SyncItem item = toIngest.get(file);
                String id = byUri.get(file.toUri().toString());
                SyncItem before = state.get(item.item());
                if (id == null && scan.stopped() && report.errors().stream().noneMatch(x -> x.source().endsWith(
                        item.item()))) {
                    continue; // not reached before the stop: the next scan reads it
                }
                // Indexed: its document. Not indexed (a type polyrag does not read, or bytes it cannot parse): still
                // remembered, with the document it had, so the same bytes are not read and failed again at every
                // scan; once the file changes it is tried again.
                recorded.add(new SyncItem(item.item(), item.modifiedMs(), item.sizeBytes(), item.hash(), id != null
                        ? id : before == null ? "" : before.documentId()));
            }
            components.catalog.putSourceItems(p.tenant(), p.source(), recorded);
        }
    }

    /** The source the job syncs. */
    @Override
    public java.util.Optional<String> source(String payload) {
        try {
            return java.util.Optional.ofNullable(Sources.JSON.readValue(payload, Payload.class).source());
        } catch (RuntimeException e) {
            return java.util.Optional.empty();
        }
    }

    /** The knowledge base the job's source feeds. */
    @Override
    public java.util.Optional<String> knowledgeBase(String payload) {
        try {
            Payload p = Sources.JSON.readValue(payload, Payload.class);
            return components.catalog.source(p.tenant(), p.source()).map(Source::knowledgeBase);
        } catch (RuntimeException e) {
            return java.util.Optional.empty();
        }
    }

    /** A filesystem sync stops between files and resumes cheaply (unchanged files are not read); a crawl does not. */
    @Override
    public boolean resumable(String payload) {
        try {
            Payload p = Sources.JSON.readValue(payload, Payload.class);
            return components.catalog.source(p.tenant(), p.source()).map(s -> !WebCrawl.TYPE.equals(s.type()))
                    .orElse(false);
        } catch (RuntimeException e) {
            return false;
        }
    }

    @Override
    public void ended(JobStore.Claimed job) {
        Payload p = Sources.JSON.readValue(job.payload(), Payload.class);
        ended.accept(p.tenant() + "/" + p.source());
    }

    /**
     * The files of a filesystem source, by item id (the path below the root, with {@code /}): regular files only
     * (no FIFOs or devices), hidden ones left out, the include and exclude globs applied, links followed only when
     * the source says so and only to where {@code confinement} allows (a link leading out is skipped with the
     * reason), and never into polyrag's data directory.
     */
    static Map<String, Path> list(Path root, Map<String, Object> config, Confinement confinement) throws IOException {
        Map<String, Path> out = new java.util.TreeMap<>();
        try (Stream<Map.Entry<String, Path>> files = walk(root, config, confinement, e -> { })) {
            files.forEach(e -> out.put(e.getKey(), e.getValue()));
        }
        return out;
    }

    /**
     * The same files as {@link #list}, as a lazy stream (close it): a scan never holds the whole listing. Links
     * that lead outside the allowed folders, and link cycles, are told to {@code skipped}.
     */
    static Stream<Map.Entry<String, Path>> walk(Path root, Map<String, Object> config, Confinement confinement,
            java.util.function.Consumer<ItemError> skipped) throws IOException {
        boolean follow = Boolean.TRUE.equals(config.get("follow_symlinks"));
        List<PathMatcher> include = matchers(config.get("include"));
        List<PathMatcher> exclude = matchers(config.get("exclude"));
        if (!Files.isDirectory(root)) {
            throw new java.nio.file.NotDirectoryException(root.toString());
        }
        Walker walker = new Walker(root, follow, confinement, skipped);
        return walker.below(root, Set.of(root.toRealPath()), 0)
                .map(f -> Map.entry(root.relativize(f), f))
                .filter(e -> (include.isEmpty() || include.stream().anyMatch(m -> m.matches(e.getKey())))
                        && exclude.stream().noneMatch(m -> m.matches(e.getKey())))
                .map(e -> Map.entry(e.getKey().toString().replace('\\', '/'), e.getValue()));
    }

    /**
     * A lazy walk that decides at every link: not followed unless the source says so; followed only when it resolves
     * inside the allowed folders (and outside the data directory), never round a cycle, at most 64 folders deep.
     */
    private record Walker(Path root, boolean follow, Confinement confinement,
            java.util.function.Consumer<ItemError> skipped) {
        private static final int MAX_DEPTH = 64;

        Stream<Path> below(Path dir, Set<Path> onPath, int depth) {
            Stream<Path> list;
            try {
                list = Files.list(dir);
            } catch (IOException e) {
                skipped.accept(new ItemError(rel(dir), rel(dir) + ": cannot be listed (" + e.getMessage() + ")"));
                return Stream.empty();
            }
            return list.sorted().flatMap(p -> entry(p, onPath, depth));
        }

        private Stream<Path> entry(Path p, Set<Path> onPath, int depth) {
            if (p.getFileName().toString().startsWith(".")) {
                return Stream.empty();
            }
            BasicFileAttributes a;
            try {
                a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            } catch (IOException e) {
                return Stream.empty(); // gone since it was listed
            }
            if (a.isRegularFile()) {
                return Stream.of(p);
            }
            if (a.isDirectory()) {
                return descend(p, onPath, depth);
            }
            if (!a.isSymbolicLink() || !follow) {
                return Stream.empty();
            }
            java.util.Optional<String> refused = confinement.refusal(p);
            if (refused.isPresent()) {
                skipped.accept(new ItemError(rel(p), refused.get().replace(p.toString(), rel(p))));
                return Stream.empty();
            }
            if (Files.isRegularFile(p)) {
                return Stream.of(p);
            }
            return Files.isDirectory(p) ? descend(p, onPath, depth) : Stream.empty();
        }

        private Stream<Path> descend(Path dir, Set<Path> onPath, int depth) {
            Path real;
            try {
                real = dir.toRealPath();
            } catch (IOException e) {
                return Stream.empty();
            }
            if (confinement.refusal(dir).isPresent()) {
                return Stream.empty(); // the data directory inside a watched folder: never listed
            }
            if (onPath.contains(real) || depth >= MAX_DEPTH) {
                skipped.accept(new ItemError(rel(dir), rel(dir) + ": " + (depth >= MAX_DEPTH ? "more than "
                        + MAX_DEPTH + " folders deep" : "a link back to a folder above it (a cycle)") + "; skipped"));
                return Stream.empty();
            }
            Set<Path> path = new java.util.HashSet<>(onPath);
            path.add(real);
            return below(dir, path, depth + 1);
        }

        private String rel(Path p) {
            return root.relativize(p).toString().replace('\\', '/');
        }
    }

    /** Globs as {@code polyrag ingest} reads them: one with a {@code /} matches the path below the root, one without the file name. */
    private static List<PathMatcher> matchers(Object globs) {
        List<PathMatcher> out = new ArrayList<>();
        if (globs instanceof List<?> l) {
            for (Object g : l) {
                PathMatcher m = FileSystems.getDefault().getPathMatcher("glob:" + g);
                out.add(g.toString().contains("/") ? m : rel -> rel.getFileName() != null && m.matches(rel
                        .getFileName()));
            }
        }
        return out;
    }

    private static String sha256(Confinement confinement, Path file) throws IOException {
        try (InputStream in = confinement.open(file)) {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            byte[] buf = new byte[64 * 1024];
            for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
                d.update(buf, 0, n);
            }
            return HexFormat.of().formatHex(d.digest());
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
