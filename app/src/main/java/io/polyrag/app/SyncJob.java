package io.polyrag.app;

import io.polyrag.app.api.PathIngest;
import io.polyrag.core.NotFoundException;
import io.polyrag.core.fs.Confinement;
import io.polyrag.core.model.IngestReport;
import io.polyrag.core.model.Ids;
import io.polyrag.core.model.ItemError;
import io.polyrag.core.model.JobProgress;
import io.polyrag.core.model.JobStatus;
import io.polyrag.core.model.KnowledgeBase;
import io.polyrag.core.model.Source;
import io.polyrag.core.model.SourceItem;
import io.polyrag.core.model.SyncItem;
import io.polyrag.core.model.Tenant;
import io.polyrag.core.port.BlobStore;
import io.polyrag.core.port.JobStore;
import io.polyrag.core.port.SourceConnector;
import io.polyrag.core.port.SourceConnector.Content;
import io.polyrag.core.port.SourceConnector.Failed;
import io.polyrag.core.port.SourceConnector.Found;
import io.polyrag.core.port.SourceConnector.Gone;
import io.polyrag.core.port.SourceConnector.Listed;
import io.polyrag.core.port.SourceConnector.Listing;
import io.polyrag.core.port.SourceConnector.Unchanged;
import io.polyrag.core.port.SourceStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * One sync of a source, as a job of kind {@code sync}, the same for every connector: the connector lists the items,
 * classified against what the last sync saw — unchanged (token as recorded: never read), touched (same bytes: only
 * the token moves), changed or new (ingested as any ingest), gone (removed from every store and the state). The hash
 * is of the raw bytes. Items failing for a reason of the moment stay as recorded and are tried again next sync; those
 * whose bytes are refused are remembered, tried again once they change; what a whole, unstopped listing missed goes.
 * A source last synced whole under other indexing settings has every item read again (the pipeline judges each).
 */
final class SyncJob implements JobHandler {
    static final String KIND = "sync";
    /** Items ingested at once. */
    private static final int BATCH = 64;
    /** Items listed, compared and marked seen at once: memory stays the same whatever the source's size. */
    private static final int SCAN_BATCH = 1000;
    /** Items that came with their bytes (fetched pages) held before they are ingested. */
    private static final int HELD_BATCH = 16;
    /** Bytes of read items held in memory before they are ingested. */
    private static final long HELD_BYTES = 64L * 1024 * 1024;
    private final Map<String, Long> lastScan = new ConcurrentHashMap<>(); // so two scans in one ms still differ
    /** The sources' rows and item state: the one catalog role a sync reads and writes. */
    private final SourceStore sources;
    private final BlobStore blobs; // the originals of what a connector read from memory
    private final SourceConnectors connectors;
    private final Function<Tenant, Polyrag.TenantFacets> facets;
    private final Consumer<String> ended;
    private final int maxDeletePercent; // sync.max.delete.percent: past it a complete listing deletes nothing

    /**
     * @param facets the facets acting for a tenant (for ingest and delete)
     * @param ended told the source key ({@code tenant/id}) of every sync that ends, so another can be scheduled
     */
    SyncJob(SourceStore sources, BlobStore blobs, SourceConnectors connectors,
            Function<Tenant, Polyrag.TenantFacets> facets, Consumer<String> ended, int maxDeletePercent) {
        this.maxDeletePercent = maxDeletePercent;
        this.sources = sources;
        this.blobs = blobs;
        this.connectors = connectors;
        this.facets = facets;
        this.ended = ended;
    }

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public JobProgress run(JobStore.Claimed job, Context context) {
        SyncPayload p = SyncPayload.read(job.payload());
        Source source = sources.source(p.tenant(), p.source()).orElse(null);
        if (source == null || !source.enabled() && !Boolean.TRUE.equals(p.once())) {
            return JobProgress.at("done").warnings(List.of("the source was deleted or disabled first")).build();
        }
        // Resumed after a yield, it finds the items its earlier runs indexed unchanged: its counts carry on from theirs.
        JobProgress earlier = JobOutcome.earlier(job.info().progress());
        try {
            JobProgress done = sync(p, source, context, earlier);
            // Settings changed while it ran (on any replica; the update answered with this sync): scanned again.
            Source read = source;
            for (int pass = 0; pass < 3 && !context.canceled(); pass++) {
                Source now = sources.source(p.tenant(), p.source()).orElse(null);
                if (now == null || !now.enabled() || now.config().equals(read.config())) {
                    break;
                }
                read = now;
                done = sync(p, now, context, earlier);
            }
            return done;
        } catch (Yielded y) {
            throw y;
        } catch (RuntimeException | Error e) {
            // Said on the source, as its scan: a failed sync (out of memory too) left it due, queued every few seconds.
            try {
                sources.sourceScanned(p.tenant(), p.source(), Instant.now(), "the sync failed: " + e.getMessage());
            } catch (RuntimeException x) {
                e.addSuppressed(x);
            }
            throw e;
        }
    }

    private JobProgress sync(SyncPayload p, Source source, Context context, JobProgress earlier) {
        // A source of local mode's rows registered by the tenant that adopted them reads that tenant's folders.
        Tenant tenant = !p.tenant().isEmpty() ? Tenant.of(p.tenant()) : source.registeredBy().isEmpty() ? Tenant.LOCAL
                : Tenant.adopting(source.registeredBy());
        SourceConnector connector = connectors.get(source.type()).orElse(null);
        if (connector == null) {
            return failed(p, source.type(), "this server has no connector for sources of type '" + source.type()
                    + "' (it has " + connectors.types() + "): nothing was changed in the index");
        }
        Map<String, Object> config = Sources.config(source.config());
        Scan scan = new Scan(p, connector, config, facets.apply(tenant), KnowledgeBase.of(tenant.show(
                source.knowledgeBase())), Boolean.TRUE.equals(config.get("skip_graph")), connectors.confinement(tenant),
                context);
        scan.earlier = earlier;
        // Indexed under other settings (chunks, model, parser, skip_graph): every item read; the pipeline judges.
        String settings = scan.facets.ingest().settingsSignature(scan.skipGraph);
        String indexedWith = sources.sourceIndexedWith(p.tenant(), p.source());
        scan.reread = !indexedWith.isEmpty() && !indexedWith.equals(settings);
        SourceConnector.Host host = connectors.host(tenant, p.source(), scan::stopped, !scan.reread);
        context.progress(scan.progress("listing"));
        Listing listing;
        try {
            listing = connector.list(config, host);
        } catch (SourceConnector.Unavailable e) {
            return failed(p, source.id(), e.getMessage());
        }
        long number = Math.max(System.currentTimeMillis(), lastScan.merge(p.tenant() + "/" + p.source(),
                System.currentTimeMillis(), (a, b) -> Math.max(a + 1, b)));
        List<String> gone = new ArrayList<>();
        try (listing) {
            scanAll(scan, host, listing, number, gone);
        } catch (UncheckedIOException e) {
            String error = "cannot list the source: " + e.getCause().getMessage() + "; nothing was deleted from the "
                    + "index";
            sources.sourceScanned(p.tenant(), p.source(), Instant.now(), error);
            scan.errors.add(new ItemError(source.id(), error));
            return scan.progress("done");
        }
        if (scan.yielded) {
            if (scan.context.canceledByRequest()) {
                // Canceled as it yielded: it ends, and counts as a scan, or the scheduler queued a fresh one at once.
                sources.sourceScanned(p.tenant(), p.source(), Instant.now(), null);
            }
            throw new Yielded();
        }
        deleteMissing(scan, listing, number, gone);
        if (listing.complete() && !scan.stopped() && !settings.equals(indexedWith)) { // whatever items failed
            sources.sourceIndexedWith(p.tenant(), p.source(), settings);
            SyncRules.readAgain(sources, p.tenant(), p.source(), scan.reread ? scan.retried : List.of());
        }
        sources.sourceScanned(p.tenant(), p.source(), Instant.now(), SyncRules.lastError(scan.errors));
        scan.warnings.addAll(listing.warnings());
        return scan.progress("done");
    }

    /** Deletes the documents of items gone or not listed, then ingests again copies of what was deleted. */
    private void deleteMissing(Scan scan, Listing listing, long number, List<String> gone) {
        SyncPayload p = scan.payload;
        // Only a whole listing deletes what it missed: not a stopped, partial or job-losing one, nor one far short.
        boolean whole = !scan.stopped() && listing.complete();
        boolean empty = scan.listed == 0 && whole && !sources.unseenSourceItems(p.tenant(), p.source(), number, 1)
                .isEmpty();
        // Items gone (404) and unlisted judged together against the cap: apart, each share passed, 90% went. Its
        // error comes first: the source's last error is its first, and a file failing each scan hid why none went.
        String tooMany = empty ? null : SyncRules.tooManyGone(sources, p.tenant(), p.source(), number, scan.listed,
                gone.size(), whole, p.maxDeletePercent() != null ? p.maxDeletePercent() : maxDeletePercent);
        if (empty || tooMany != null) {
            scan.errors.addFirst(new ItemError(p.source(), tooMany != null ? tooMany : "the source listed nothing, though "
                    + "earlier scans found items: nothing was deleted (an unmounted volume? a bucket or prefix emptied "
                    + "by mistake?); to remove its documents, delete the source with them"));
            empty = true;
        } else if (!gone.isEmpty() && scan.context.stillClaimed()) {
            delete(scan, sources.sourceItems(p.tenant(), p.source(), gone).values().stream().toList());
        }
        while (!empty && !scan.stopped() && listing.complete() && scan.context.stillClaimed()) {
            List<SyncItem> unseen = sources.unseenSourceItems(p.tenant(), p.source(), number, SCAN_BATCH);
            if (unseen.isEmpty()) {
                break;
            }
            delete(scan, unseen);
        }
        // A renamed file was a duplicate of its old name's document, just deleted: now it is its own.
        if (scan.deleted > 0 && !scan.duplicates.isEmpty() && !scan.stopped()) {
            List<Pending> again = List.copyOf(scan.duplicates);
            scan.duplicates.clear();
            scan.done -= again.size();
            scan.unchanged -= again.size(); // counted unchanged as copies; now each is counted as what it becomes
            ingest(scan, again, Map.of());
        }
    }

    /**
     * Reads the listing a batch at a time: each batch compared with its items' recorded state, and every item seen
     * marked with this scan's {@code number}, so the items left unmarked afterwards are the ones not found.
     */
    private void scanAll(Scan scan, SourceConnector.Host host, Listing listing, long number, List<String> gone) {
        while (!scan.stopped() && listing.hasNext()) {
            Map<String, Found> batch = new LinkedHashMap<>();
            int held = 0;
            while (batch.size() < SCAN_BATCH && held < HELD_BATCH && !scan.stopped() && listing.hasNext()) {
                Found f = listing.next();
                if (f.item() == null) {
                    scan.errors.add(((Failed) f).error());
                    continue;
                }
                batch.put(f.item(), f);
                held += f instanceof Listed l && l.content() != null ? 1 : 0;
            }
            scan.listed += batch.size();
            scanBatch(scan, host, batch, gone);
            // Still this run's (a heartbeat): a run paused past the stale timeout while another took the job over
            // marked its batch with its own scan, and the new run deleted those items as not seen.
            if (!scan.stopped() && scan.context.stillClaimed()) {
                sources.markSourceItemsSeen(scan.payload.tenant(), scan.payload.source(), batch.keySet(), number);
            }
            scan.context.progress(scan.progress("scanning"));
        }
    }

    /** A sync that changed nothing: the reason is the source's last error and the job's one error. */
    private JobProgress failed(SyncPayload p, String what, String error) {
        sources.sourceScanned(p.tenant(), p.source(), Instant.now(), error);
        return JobProgress.at("done").total(1).processed(1).failed(1).errors(List.of(new ItemError(what, error)))
                .build();
    }

    private void delete(Scan scan, List<SyncItem> items) {
        List<String> documentIds = items.stream().map(SyncItem::documentId).filter(id -> !id.isEmpty()).distinct()
                .toList();
        // A document another source also records stays (deleted, that source never indexed its file again).
        Set<String> kept = sources.documentsOfOtherSources(scan.payload.tenant(), scan.payload.source(), documentIds);
        documentIds = documentIds.stream().filter(id -> !kept.contains(id)).toList();
        scan.deleted += documentIds.isEmpty() ? 0 : scan.facets.documents().delete(documentIds);
        sources.deleteSourceItems(scan.payload.tenant(), scan.payload.source(), items.stream()
                .map(SyncItem::item).toList());
    }

    /** One sync's source, counts and choices, and whether it was asked to stop (cancel, shutdown, or to yield). */
    private static final class Scan implements BooleanSupplier {
        final SyncPayload payload;
        final SourceConnector connector;
        final Map<String, Object> config;
        final Polyrag.TenantFacets facets;
        final KnowledgeBase kb;
        final boolean skipGraph;
        boolean reread; // every item read and handed to the pipeline: the source was indexed under other settings
        final List<String> retried = new ArrayList<>(); // keys of items failed for a reason of the moment
        final Confinement confinement;
        /** The stores an ingest of this scan wrote to (as its batches report them); none until one did. */
        List<String> stores = List.of();
        final Context context;
        final List<ItemError> errors = new ArrayList<>();
        /** Items another document's content holds (renamed, copied): read again next sync, or at this one's end. */
        final List<Pending> duplicates = new ArrayList<>();
        long duplicateBytes; // the bytes duplicates hold in memory (fetched objects and pages; a file holds its path)
        final List<String> warnings = new ArrayList<>();
        int listed;
        int done;
        int added;
        int updated;
        int unchanged;
        int chunks;
        int deleted;
        boolean yielded;
        /** What the job's earlier runs did (null when none did anything): added to every count reported. */
        JobProgress earlier;

        Scan(SyncPayload payload, SourceConnector connector, Map<String, Object> config, Polyrag.TenantFacets facets,
                KnowledgeBase kb, boolean skipGraph, Confinement confinement, Context context) {
            this.payload = payload;
            this.connector = connector;
            this.config = config;
            this.facets = facets;
            this.kb = kb;
            this.skipGraph = skipGraph;
            this.confinement = confinement;
            this.context = context;
        }

        boolean stopped() {
            return yielded || context.canceled();
        }

        @Override
        public boolean getAsBoolean() {
            if (context.canceled()) {
                return true;
            }
            yielded = yielded || connector.resumable() && context.yieldRequested();
            return yielded;
        }

        JobProgress progress(String stage) {
            return progress(stage, 0, null);
        }

        /** The scan's progress, with a batch being indexed ({@code batch}'s counts added) when there is one. */
        JobProgress progress(String stage, int batchDone, JobProgress batch) {
            if (batch != null && !batch.storesWritten().isEmpty()) {
                stores = batch.storesWritten();
            }
            List<ItemError> all = batch == null ? errors : Stream.concat(errors.stream(), batch.errors().stream())
                    .toList();
            return JobOutcome.cumulative(earlier, JobProgress.at(stage).total(listed).processed(done + batchDone)
                    .added(added + (batch == null ? 0 : batch.added()))
                    .updated(updated + (batch == null ? 0 : batch.updated()))
                    .unchanged(unchanged + (batch == null ? 0 : batch.unchanged())).failed(all.size())
                    .chunks(chunks + (batch == null ? 0 : batch.chunks()))
                    .errors(all.size() > 100 ? all.subList(0, 100) : all).warnings(List.copyOf(warnings))
                    .deleted(deleted).storesWritten(stores).build());
        }
    }

    /** An item to ingest: its content, and the state recorded once it is indexed. */
    private record Pending(Content content, SyncItem item, boolean held) {
    }

    /** One batch of the listing against its recorded state (see the class); files read confined, as opened. */
    private void scanBatch(Scan scan, SourceConnector.Host host, Map<String, Found> batch, List<String> gone) {
        SyncPayload p = scan.payload;
        Map<String, SyncItem> state = sources.sourceItems(p.tenant(), p.source(), batch.keySet());
        List<SyncItem> touched = new ArrayList<>();
        List<Pending> toIngest = new ArrayList<>();
        long held = 0;
        for (Found found : batch.values()) {
            if (scan.getAsBoolean()) { // asked here too: a scan finding only unchanged items never ingests, nor yielded
                break;
            }
            scan.done++;
            SyncItem before = state.get(found.item());
            switch (found) {
                case Unchanged u -> scan.unchanged++;
                case Gone g -> gone.add(g.item());
                case Failed f -> scan.errors.add(f.error());
                case Listed l -> {
                    if (!scan.reread && l.content() == null && before != null && before.modifiedMs()
                            == l.modifiedMs() && before.sizeBytes() == l.sizeBytes() && before.validator()
                            .equals(l.validator())) {
                        scan.unchanged++;
                        continue;
                    }
                    Content content;
                    try {
                        content = l.content() != null ? l.content() : scan.connector.read(scan.config, l, host);
                    } catch (IOException x) {
                        scan.errors.add(new ItemError(l.item(), x.getMessage()));
                        continue;
                    }
                    SyncItem now = new SyncItem(l.item(), SyncRules.settled(l.modifiedMs(), System.currentTimeMillis()),
                            l.sizeBytes(), content.hash(), before == null ? "" : before.documentId(), l.validator());
                    if (!scan.reread && before != null && before.hash().equals(content.hash())) {
                        touched.add(now);
                        scan.unchanged++;
                    } else {
                        scan.done--; // counted when its ingest reports it
                        toIngest.add(new Pending(content, now, l.content() != null));
                        held += content.bytes() == null ? 0 : content.bytes().length;
                        // Read items wait in memory: ingest them before they add up (a bucket of large objects).
                        if (toIngest.size() >= BATCH || held >= HELD_BYTES) {
                            ingest(scan, toIngest, state);
                            toIngest.clear();
                            held = 0;
                        }
                    }
                }
            }
        }
        sources.putSourceItems(p.tenant(), p.source(), touched);
        if (!toIngest.isEmpty() && !scan.stopped()) {
            ingest(scan, toIngest, state);
        }
    }

    /** Keeps a fetched item's bytes as its document's original; a failure loses only the original. */
    private void keepOriginal(Scan scan, String id, Pending x) {
        try {
            blobs.put(id, x.content().bytes(), x.content().mediaType(), x.content().name());
            // Deleted while its batch was written: its original goes too, or nothing would ever delete it.
            if (!documentExists(scan, id)) {
                blobs.delete(id);
            }
        } catch (RuntimeException e) {
            System.getLogger(SyncJob.class.getName()).log(System.Logger.Level.WARNING, "the original of "
                    + x.item().item() + " was not kept: " + e.getMessage());
        }
    }

    /** Ingests a part of a batch (local files from disk, the rest from memory, originals kept) and records it. */
    private static boolean documentExists(Scan scan, String id) {
        try {
            scan.facets.documents().get(id);
            return true;
        } catch (NotFoundException e) {
            return false;
        }
    }

    private void ingest(Scan scan, List<Pending> part, Map<String, SyncItem> state) {
        List<Path> files = part.stream().filter(x -> x.content().file() != null).map(x -> x.content().file())
                .toList();
        List<SourceItem> items = part.stream().filter(x -> x.content().bytes() != null).map(x -> new SourceItem(
                x.content().uri(), x.content().name(), x.content().bytes(), x.content().mediaType())).toList();
        List<IngestReport> reports = new ArrayList<>();
        if (!files.isEmpty()) {
            reports.add(scan.facets.ingest().paths(new PathIngest(files, scan.kb, List.of(), List.of(),
                    scan.skipGraph), pr -> scan.context.progress(scan.progress(pr.stage(), pr.processed(), pr)),
                    scan.confinement, scan).report());
        }
        if (!items.isEmpty() && !scan.stopped()) {
            reports.add(scan.facets.ingest().items(items, scan.kb, scan.skipGraph, pr -> scan.context.progress(
                    scan.progress(pr.stage(), pr.processed(), pr)), scan));
        }
        Map<String, String> byUri = new HashMap<>();
        Set<String> duplicated = new HashSet<>();
        List<ItemError> errors = new ArrayList<>();
        for (IngestReport report : reports) {
            scan.added += report.added();
            scan.updated += report.updated();
            scan.unchanged += report.unchanged();
            scan.chunks += report.chunks();
            scan.done += report.documents();
            errors.addAll(report.errors());
            // Only an item's own document: a duplicate names another's, which removing this item would delete.
            report.indexed().stream().filter(d -> !d.outcome().startsWith("duplicate"))
                    .forEach(d -> byUri.put(d.uri(), d.documentId()));
            report.indexed().stream().filter(d -> d.outcome().startsWith("duplicate")).forEach(d -> duplicated.add(
                    d.uri()));
        }
        scan.errors.addAll(errors);
        List<SyncItem> recorded = new ArrayList<>();
        for (Pending x : part) {
            SyncItem item = x.item();
            String id = byUri.get(x.content().uri());
            SyncItem before = state.get(item.item());
            if (duplicated.contains(x.content().uri())) {
                heldAsCopy(scan, x, before);
                continue; // read again at the end of this sync if it deleted anything, else at the next
            }
            if (id == null && scan.stopped() && errors.stream().noneMatch(e -> about(e, x))) {
                continue; // not reached before the stop: the next sync reads it
            }
            if (id == null && errors.stream().anyMatch(e -> e.retry() && about(e, x)) && scan.retried.add(item.item())) {
                continue; // failed for a reason of the moment (a quota, a model, a store): the next sync tries again
            }
            if (id != null && x.content().bytes() != null) {
                keepOriginal(scan, id, x);
            }
            // Indexed: its document. Refused: still remembered, with the document it had, so the same bytes are not
            // read and failed again at every sync. An item that came with its bytes (a fetched page) is recorded
            // without its token then, so the next sync fetches it whole and still follows its links.
            String documentId = id != null ? id : before == null ? "" : before.documentId();
            recorded.add(id == null && x.held() ? new SyncItem(item.item(), 0, item.sizeBytes(), item.hash(),
                    documentId, "") : new SyncItem(item.item(), item.modifiedMs(), item.sizeBytes(), item.hash(),
                    documentId, item.validator()));
        }
        sources.putSourceItems(scan.payload.tenant(), scan.payload.source(), recorded);
    }

    /** An item whose content another document holds: kept to ingest again, its own stale document deleted. */
    private void heldAsCopy(Scan scan, Pending x, SyncItem before) {
        long size = x.content().bytes() == null ? 0 : x.content().bytes().length;
        // Bounded by count and by bytes as a batch is: a bucket whose backup/ mirrors docs/ held every copy's bytes.
        if (scan.duplicates.size() < MAX_DUPLICATES_HELD && scan.duplicateBytes + size <= HELD_BYTES) {
            scan.duplicates.add(x);
            scan.duplicateBytes += size;
        }
        // Its own document held what it said before it became a copy of another: that text is gone.
        String own = Ids.documentId(scan.kb.storageName(), x.content().uri());
        if (before != null && before.documentId().equals(own)) {
            scan.deleted += scan.facets.documents().delete(List.of(own));
            sources.deleteSourceItems(scan.payload.tenant(), scan.payload.source(), List.of(x.item().item()));
        }
    }

    /** Most duplicate items one sync keeps to ingest again at its end (the rest wait for the next sync). */
    private static final int MAX_DUPLICATES_HELD = 256;

    /** Whether an ingest's error (naming an input by its name) is this item's; two of one name both count. */
    private static boolean about(ItemError e, Pending x) {
        String source = e.source();
        return source.equals(x.content().name()) || source.equals(x.content().uri())
                || x.content().file() != null && source.equals(x.content().file().toString())
                || source.endsWith("/" + x.item().item());
    }

    /** The source the job syncs. */
    @Override
    public Optional<String> source(String payload) {
        return fromPayload(payload, p -> Optional.ofNullable(p.source()));
    }

    /** The knowledge base the job's source feeds. */
    @Override
    public Optional<String> knowledgeBase(String payload) {
        return fromPayload(payload, p -> sources.source(p.tenant(), p.source()).map(Source::knowledgeBase));
    }

    /** A sync whose connector resumes cheaply (unchanged items are known by their token) may yield its worker. */
    @Override
    public boolean resumable(String payload) {
        return fromPayload(payload, p -> sources.source(p.tenant(), p.source()).flatMap(s -> connectors.get(s.type()))
                .map(SourceConnector::resumable)).orElse(false);
    }

    /** What {@code read} finds from a job's payload; empty when the payload or the catalog cannot be read. */
    private static <T> Optional<T> fromPayload(String payload, Function<SyncPayload, Optional<T>> read) {
        try {
            return read.apply(SyncPayload.read(payload));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    @Override
    public void ended(JobStore.Claimed job) {
        SyncPayload p = SyncPayload.read(job.payload());
        if (job.gaveUp()) {
            // Counted as its scan: else the scheduler queued a fresh sync, and the process went down again, for good.
            // A cancel found as it was claimed again is a user's choice, no error of the source's.
            sources.sourceScanned(p.tenant(), p.source(), Instant.now(), job.info().status() == JobStatus.CANCELED
                    ? null : "the sync was given up: " + job.info().error());
        }
        ended.accept(p.tenant() + "/" + p.source());
    }
}
