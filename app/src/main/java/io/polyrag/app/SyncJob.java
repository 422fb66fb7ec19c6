package io.polyrag.app;

import io.polyrag.app.api.PathIngest;
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
import java.nio.file.FileVisitOption;
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
        if (!Files.isDirectory(root)) {
            String error = "the folder " + root + " is gone or unreadable: nothing was changed in the index";
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
        boolean skipGraph = Boolean.TRUE.equals(config.get("skip_graph"));
        int[] n = new int[5]; // listed, added, updated, unchanged, chunks
        try (Stream<Map.Entry<String, Path>> walk = walk(root, config)) {
            java.util.Iterator<Map.Entry<String, Path>> files = walk.iterator();
            while (files.hasNext() && !context.canceled()) {
                Map<String, Path> batch = new java.util.LinkedHashMap<>();
                while (files.hasNext() && batch.size() < SCAN_BATCH) {
                    Map.Entry<String, Path> e = files.next();
                    batch.put(e.getKey(), e.getValue());
                }
                n[0] += batch.size();
                scanBatch(p, f, kb, skipGraph, batch, errors, n, context);
                components.catalog.markSourceItemsSeen(p.tenant(), p.source(), batch.keySet(), scan);
                context.progress(new JobProgress("scanning", n[0], n[0], n[1], n[2], n[3], errors.size(), n[4],
                        List.of(), errors));
            }
        } catch (IOException | java.io.UncheckedIOException e) {
            String error = "cannot list " + root + ": " + e.getMessage() + "; nothing was deleted from the index";
            components.catalog.sourceScanned(p.tenant(), p.source(), java.time.Instant.now(), error);
            return new JobProgress("done", n[0], n[0], n[1], n[2], n[3], errors.size() + 1, n[4], List.of(),
                    errors.isEmpty() ? List.of(new ItemError(root.toString(), error)) : errors);
        }
        int deleted = 0;
        while (!context.canceled()) {
            List<SyncItem> gone = components.catalog.unseenSourceItems(p.tenant(), p.source(), scan, SCAN_BATCH);
            if (gone.isEmpty()) {
                break;
            }
            List<String> documentIds = gone.stream().map(SyncItem::documentId).filter(id -> !id.isEmpty())
                    .distinct().toList();
            deleted += documentIds.isEmpty() ? 0 : f.documents().delete(documentIds);
            components.catalog.deleteSourceItems(p.tenant(), p.source(), gone.stream().map(SyncItem::item).toList());
        }
        components.catalog.sourceScanned(p.tenant(), p.source(), java.time.Instant.now(), errors.isEmpty() ? null
                : errors.size() + " items failed, e.g. " + errors.getFirst().reason());
        return new JobProgress("done", n[0], n[0], n[1], n[2], n[3], errors.size(), n[4],
                components.pipeline.stores().names(), errors, 0, 0, 0, 0, List.of(), deleted);
    }

    /**
     * One batch of the listing against its recorded state: unchanged (same modification time and size: not read),
     * touched (read, same bytes: only the recorded time moves), changed or new (ingested, then recorded).
     */
    private void scanBatch(Payload p, Polyrag.TenantFacets f, KnowledgeBase kb, boolean skipGraph,
            Map<String, Path> batch, List<ItemError> errors, int[] n, Context context) {
        Map<String, SyncItem> state = components.catalog.sourceItems(p.tenant(), p.source(), batch.keySet());
        List<SyncItem> touched = new ArrayList<>();
        Map<Path, SyncItem> toIngest = new java.util.LinkedHashMap<>();
        for (var e : batch.entrySet()) {
            SyncItem before = state.get(e.getKey());
            BasicFileAttributes a;
            try {
                a = Files.readAttributes(e.getValue(), BasicFileAttributes.class);
            } catch (IOException x) {
                errors.add(new ItemError(e.getKey(), e.getKey() + ": cannot be read (" + x.getMessage() + ")"));
                continue;
            }
            long modified = a.lastModifiedTime().toMillis();
            if (before != null && before.modifiedMs() == modified && before.sizeBytes() == a.size()) {
                n[3]++;
                continue;
            }
            String hash;
            try {
                hash = sha256(e.getValue());
            } catch (IOException x) {
                errors.add(new ItemError(e.getKey(), e.getKey() + ": cannot be read (" + x.getMessage() + ")"));
                continue;
            }
            if (before != null && before.hash().equals(hash)) {
                touched.add(new SyncItem(e.getKey(), modified, a.size(), hash, before.documentId()));
                n[3]++;
            } else {
                toIngest.put(e.getValue(), new SyncItem(e.getKey(), modified, a.size(), hash, ""));
            }
        }
        components.catalog.putSourceItems(p.tenant(), p.source(), touched);
        List<Path> files = new ArrayList<>(toIngest.keySet());
        for (int i = 0; i < files.size() && !context.canceled(); i += BATCH) {
            List<Path> part = files.subList(i, Math.min(files.size(), i + BATCH));
            var report = f.ingest().paths(new PathIngest(part, kb, List.of(), List.of(), skipGraph),
                    ProgressListener.NONE).report();
            n[1] += report.added();
            n[2] += report.updated();
            n[4] += report.chunks();
            errors.addAll(report.errors());
            Map<String, String> byUri = new HashMap<>();
            report.indexed().forEach(d -> byUri.put(d.uri(), d.documentId()));
            List<SyncItem> recorded = new ArrayList<>();
            for (Path file : part) {
                SyncItem item = toIngest.get(file);
                String id = byUri.get(file.toUri().toString());
                SyncItem before = state.get(item.item());
                // Indexed: its document. Not indexed (a type polyrag does not read, or bytes it cannot parse): still
                // remembered, with the document it had, so the same bytes are not read and failed again at every
                // scan; once the file changes it is tried again.
                recorded.add(new SyncItem(item.item(), item.modifiedMs(), item.sizeBytes(), item.hash(), id != null
                        ? id : before == null ? "" : before.documentId()));
            }
            components.catalog.putSourceItems(p.tenant(), p.source(), recorded);
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
     * the source says so.
     */
    static Map<String, Path> list(Path root, Map<String, Object> config) throws IOException {
        Map<String, Path> out = new java.util.TreeMap<>();
        try (Stream<Map.Entry<String, Path>> files = walk(root, config)) {
            files.forEach(e -> out.put(e.getKey(), e.getValue()));
        }
        return out;
    }

    /** The same files as {@link #list}, as a lazy stream (close it): a scan never holds the whole listing. */
    static Stream<Map.Entry<String, Path>> walk(Path root, Map<String, Object> config) throws IOException {
        boolean follow = Boolean.TRUE.equals(config.get("follow_symlinks"));
        List<PathMatcher> include = matchers(config.get("include"));
        List<PathMatcher> exclude = matchers(config.get("exclude"));
        Stream<Path> walk = follow ? Files.walk(root, FileVisitOption.FOLLOW_LINKS) : Files.walk(root);
        return walk.filter(f -> follow ? Files.isRegularFile(f) : Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS))
                .map(f -> Map.entry(root.relativize(f), f))
                .filter(e -> !hidden(e.getKey()) && (include.isEmpty() || include.stream().anyMatch(m -> m.matches(
                        e.getKey()))) && exclude.stream().noneMatch(m -> m.matches(e.getKey())))
                .map(e -> Map.entry(e.getKey().toString().replace('\\', '/'), e.getValue()));
    }

    private static boolean hidden(Path rel) {
        for (Path part : rel) {
            if (part.toString().startsWith(".")) {
                return true;
            }
        }
        return false;
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

    private static String sha256(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
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
