package io.polyrag.app;

import io.polyrag.app.api.SourceInfo;
import io.polyrag.app.api.SourceRegistration;
import io.polyrag.core.ConflictException;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.NotFoundException;
import io.polyrag.core.model.Ids;
import io.polyrag.core.model.KnowledgeBase;
import io.polyrag.core.model.Source;
import io.polyrag.core.model.SyncItem;
import io.polyrag.core.model.Tenant;
import io.polyrag.core.port.Catalog;
import io.polyrag.core.port.JobStore;
import io.polyrag.core.port.SourceConnector;
import io.polyrag.core.port.SourceStore;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.databind.json.JsonMapper;

/**
 * A tenant's sources kept in sync with the index: register one (its first sync starts at once), list, read, change,
 * delete (with or without its documents), sync now. Syncing itself is {@link SyncJob}; scheduling and watching,
 * {@link SourceWatcher}.
 */
public final class Sources {
    static final JsonMapper JSON = JsonMapper.builder().build();
    static final int MIN_INTERVAL = 30;
    private static final int DEFAULT_INTERVAL = 300;
    private static final Pattern ID = Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");
    private final Catalog catalog;
    /** The sources' rows and item state: the one catalog role a sync reads and writes. */
    private final SourceStore store;
    private final Documents documents;
    private final SourceConnectors connectors;
    private final Tenant tenant;
    private final JobEngine engine;
    private final SourceWatcher watcher;
    private final int maxSources;

    /**
     * @param documents the tenant's documents, to delete those a deleted source indexed
     * @param maxSources the most sources the tenant may register ({@code sync.max.sources})
     */
    Sources(Catalog catalog, SourceStore store, SourceConnectors connectors, Documents documents, Tenant tenant,
            JobEngine engine, SourceWatcher watcher, int maxSources) {
        this.maxSources = maxSources;
        this.catalog = catalog;
        this.store = store;
        this.documents = documents;
        this.connectors = connectors;
        this.tenant = tenant;
        this.engine = engine;
        this.watcher = watcher;
    }

    /** Registers a source and starts its first sync; returns it with the id of that sync's job. */
    public Registered register(SourceRegistration r) {
        Source s = checked(r);
        mayAddSource();
        if (!store.createSource(s)) {
            throw new ConflictException("a source with id '" + s.id() + "' exists: choose another id, or change it "
                    + "with PUT /v1/sync/sources/" + s.id());
        }
        watcher.changed(s);
        String job = engine.submitForSource(tenant, SyncJob.KIND, SyncPayload.of(s, !s.enabled())).id();
        watcher.submitted(SourceWatcher.key(s), job);
        return new Registered(info(own(s.id())), job);
    }

    /**
     * Checks a {@code polyrag ingest DIR --sync ID} before its folder is read: the registration is valid, and a source
     * of that id is either absent (registered after the ingest, {@link #registerIngested}) or this same folder with
     * the same settings (the command run again: the source stays as it is). The second run of the README's command
     * ingested the whole folder, then failed on the id it had registered itself; a bad id failed only after the
     * ingest too.
     *
     * @return the source already registered for this folder, if any
     */
    public Optional<SourceInfo> beforeIngest(SourceRegistration r) {
        Source s = checked(r);
        Source old = store.source(tenant.id(), s.id()).orElse(null);
        if (old == null) {
            mayAddSource(); // refused before the folder is ingested, not after
            return Optional.empty();
        }
        Map<String, Object> had = config(old.config());
        Map<String, Object> asked = config(s.config());
        if (!old.type().equals(s.type()) || !old.knowledgeBase().equals(s.knowledgeBase())
                || !Objects.equals(had.get("root"), asked.get("root"))) {
            throw new ConflictException("a source with id '" + s.id() + "' exists (" + old.type() + " "
                    + Objects.requireNonNullElse(had.get("root"), "") + " into knowledge base '"
                    + tenant.show(old.knowledgeBase()) + "'): choose another id");
        }
        if (!had.equals(asked)) {
            throw new ConflictException("source '" + s.id() + "' keeps this folder with other settings ("
                    + had + "): run it with the same --include, --exclude and --skip-graph, or change the source "
                    + "with PUT /v1/sync/sources/" + s.id() + " on the server");
        }
        return Optional.of(info(old));
    }

    /**
     * Registers a folder just ingested ({@code polyrag ingest DIR --sync ID}) as a source, seeding its item state from
     * the catalog, so its first scan finds what was indexed unchanged without reading it: each file's hash is its
     * document's content hash (the SHA-256 of its bytes), and a file modified after it was indexed, or of another
     * size, is left unrecorded, to be read by the first scan. No sync is started: the server takes it from here.
     */
    public SourceInfo registerIngested(SourceRegistration r) {
        Source s = checked(r);
        mayAddSource();
        if (!store.createSource(s)) {
            throw new ConflictException("a source with id '" + s.id() + "' exists: choose another id");
        }
        Map<String, Object> config = config(s.config());
        Path root = Path.of((String) config.get("root"));
        SourceConnector connector = connector(s.type());
        List<SyncItem> batch = new ArrayList<>();
        try (SourceConnector.Listing listing = connector.list(config, connectors.host(tenant, null, () -> false))) {
            while (listing.hasNext()) {
                if (!(listing.next() instanceof SourceConnector.Listed file)) {
                    continue;
                }
                String id = Ids.documentId(s.knowledgeBase(), root.resolve(file.item()).toUri().toString());
                var doc = catalog.document(id).filter(d -> d.visibleVersion() > 0).orElse(null);
                // Strictly before: a file changed in the millisecond it was indexed (the listing's times are in
                // milliseconds) is read again rather than taken for unchanged.
                if (doc != null && doc.updatedAt() != null && file.modifiedMs() < doc.updatedAt().toEpochMilli()
                        && file.sizeBytes() == doc.sizeBytes()) {
                    batch.add(new SyncItem(file.item(), file.modifiedMs(), file.sizeBytes(), doc.contentHash(), id));
                }
                if (batch.size() == 1000) {
                    store.putSourceItems(tenant.id(), s.id(), batch);
                    batch = new ArrayList<>();
                }
            }
        } catch (SourceConnector.Unavailable | UncheckedIOException e) {
            throw new InvalidInputException("cannot list " + root + ": " + e.getMessage());
        }
        store.putSourceItems(tenant.id(), s.id(), batch);
        watcher.changed(s);
        return info(store.source(tenant.id(), s.id()).orElseThrow());
    }

    /**
     * Refuses a source past {@code sync.max.sources} of the tenant: each queues a sync at once, and every interval
     * after, which the cap on queued jobs never refuses (one per source), so a key registering thousands of sites
     * queued thousands of crawls.
     */
    private void mayAddSource() {
        int have = store.sources(tenant.id()).size();
        if (have >= maxSources) {
            throw new ConflictException("this tenant has " + have + " sync sources, the most it may "
                    + "(POLYRAG_SYNC_MAX_SOURCES): delete one (DELETE /v1/sync/sources/{id}) or ask the operator to "
                    + "raise it");
        }
    }

    /** A registered source and the job of its first sync. */
    public record Registered(SourceInfo source, String jobId) {
    }

    /** Replaces a source's settings; its next sync reconciles the index with what the new settings select. */
    public Registered update(SourceRegistration r) {
        Source old = r.id() != null && ID.matcher(r.id()).matches() ? own(r.id()) : null;
        // Fields left out keep what the source had: a paused source given new include globs was enabled again, its
        // interval reset to 300 s and its knowledge base taken for the default (then refused as a move).
        Source s = checked(old == null ? r : new SourceRegistration(r.id(), r.type(), r.config(),
                r.knowledgeBase() != null ? r.knowledgeBase() : tenant.show(old.knowledgeBase()),
                r.intervalSeconds() != null ? r.intervalSeconds() : old.intervalSeconds(),
                r.enabled() != null ? r.enabled() : old.enabled()), old);
        // Synced as whoever set these settings: they were checked against that tenant's folders. A tenant that
        // adopted local mode re-pointing a source registered before it did kept local mode's (the operator's)
        // folders for the sync, links followed there included.
        Source updated = new Source(tenant.id(), s.id(), s.type(), s.config(), s.knowledgeBase(), s.intervalSeconds(),
                s.enabled(), old.createdAt(), old.lastScanAt(), old.lastError(), tenant.isLocal() ? tenant.name() : "");
        if (!old.type().equals(updated.type())) {
            throw new InvalidInputException("a source cannot change its type ('" + old.type() + "'): delete it and "
                    + "register a new one");
        }
        if (!old.knowledgeBase().equals(updated.knowledgeBase())) {
            throw new InvalidInputException("a source cannot move to another knowledge base ('" + tenant.show(
                    old.knowledgeBase()) + "'): delete it and register it again");
        }
        store.updateSource(updated);
        watcher.removed(old); // its old folder's watches go (they synced it on every change there)
        watcher.changed(updated);
        // The sync that answers may be one already running, which read the old settings: it scans again with the
        // new ones at its end (SyncJob), whichever replica runs it.
        String job = updated.enabled() ? syncNow(updated) : null;
        return new Registered(info(updated), job);
    }

    public List<SourceInfo> list() {
        return store.sources(tenant.id()).stream().map(this::info).toList();
    }

    public SourceInfo get(String id) {
        return info(own(id));
    }

    /** Starts a sync now; returns its job id. */
    public String sync(String id) {
        return sync(id, null);
    }

    /**
     * Starts a sync now with its own cap on deletes ({@code sync.max.delete.percent} for this sync only; null for
     * the configured one): how a user confirms that most of a source is really gone, or that narrowed settings
     * should drop what they no longer select. Refused while a sync of the source is queued or running (that one
     * keeps its cap): the confirmation belongs to a scan that starts after it.
     */
    public String sync(String id, Integer maxDeletePercent) {
        if (maxDeletePercent != null && (maxDeletePercent < 1 || maxDeletePercent > 100)) {
            throw new InvalidInputException("'max_delete_percent' must be from 1 to 100, was " + maxDeletePercent
                    + ": the share of the source's items one sync may delete (100: no limit)");
        }
        Source s = own(id);
        if (!s.enabled()) {
            throw new ConflictException("source '" + id + "' is disabled: enable it first");
        }
        if (maxDeletePercent == null) {
            return syncNow(s);
        }
        JobStore.Queued q = engine.submitForSource(tenant, SyncJob.KIND, SyncPayload.of(s, false,
                maxDeletePercent));
        if (!q.created()) {
            throw new ConflictException("a sync of source '" + id + "' is already queued or running (job " + q.id()
                    + ") with the configured cap on deletes: ask again with 'max_delete_percent' once it has ended");
        }
        watcher.submitted(SourceWatcher.key(s), q.id());
        return q.id();
    }

    /**
     * Deletes the source and its sync state; with {@code documents}, also every document it indexed, from every
     * store. Returns how many documents were deleted.
     */
    public int delete(String id, boolean withDocuments) {
        Source s = own(id);
        // Disabled first, and unwatched: while its documents were deleted, page by page, the scheduler or a change in
        // its folder (on any replica) queued a new sync, which indexed files the delete then left behind.
        watcher.removed(s);
        if (s.enabled()) {
            store.updateSource(enabled(s, false));
        }
        // A sync of it still running would go on indexing what the delete then leaves behind.
        List<String> still = engine.stopSyncsOf(tenant, id, SYNC_STOP);
        if (!still.isEmpty()) {
            if (s.enabled()) {
                store.updateSource(enabled(s, true));
                watcher.changed(s);
            }
            throw new ConflictException("the sync of source '" + id + "' (job " + String.join(", ", still) + ") did "
                    + "not stop within " + SYNC_STOP.toSeconds() + " s of being canceled: try the delete again once it "
                    + "has ended (GET /v1/jobs)", true);
        }
        // The documents first, a page at a time, the source last: deleted first, a failure midway (a lock timeout,
        // a killed process) left documents no source recorded any more, and a repeated delete answered 404; one
        // transaction of every document held all their rows' locks for minutes. Its items are read only then: a
        // source of millions of objects was read whole into memory to delete nothing (a knowledge base's delete).
        int deleted = 0;
        if (withDocuments) {
            List<String> all = store.sourceItems(tenant.id(), id).values().stream()
                    .map(SyncItem::documentId).filter(d -> !d.isEmpty()).distinct().toList();
            // Not the documents another source also records (a folder nested in its folder): those stay its.
            Set<String> shared = store.documentsOfOtherSources(tenant.id(), id, all);
            List<String> ids = all.stream().filter(d -> !shared.contains(d)).toList();
            for (int from = 0; from < ids.size(); from += DELETE_PAGE) {
                deleted += documents.delete(ids.subList(from, Math.min(ids.size(), from + DELETE_PAGE)));
            }
        }
        store.deleteSource(tenant.id(), id);
        return deleted;
    }

    private static Source enabled(Source s, boolean enabled) {
        return new Source(s.tenant(), s.id(), s.type(), s.config(), s.knowledgeBase(), s.intervalSeconds(), enabled,
                s.createdAt(), s.lastScanAt(), s.lastError(), s.registeredBy());
    }

    /** Documents deleted in one catalog transaction when a source goes with its documents (a knowledge base's too). */
    private static final int DELETE_PAGE = 500;

    /** How long a delete waits for the source's running sync to stop at its next item. */
    private static final Duration SYNC_STOP = Duration.ofSeconds(30);

    private String syncNow(Source s) {
        // A sync of it already queued or running answers for this request too.
        String job = engine.submitForSource(tenant, SyncJob.KIND, SyncPayload.of(s, false)).id();
        watcher.submitted(SourceWatcher.key(s), job);
        return job;
    }

    private Source own(String id) {
        return (id == null ? Optional.<Source>empty() : store.source(tenant.id(), id))
                .orElseThrow(() -> new NotFoundException("no source with id '" + Ids.abbreviate(
                        String.valueOf(id), 64) + "'"));
    }

    private SourceInfo info(Source s) {
        Map<String, Object> config = config(s.config());
        Optional<SourceConnector> connector = connectors.get(s.type());
        // A type this server has no connector for (a replica built without it) cannot say which settings are
        // secret: every value is hidden rather than one shown by mistake.
        config.replaceAll((k, v) -> "".equals(v) || connector.isPresent() && !connector.get().secrets().contains(k)
                ? v : SourceConnector.HIDDEN);
        return new SourceInfo(s.id(), s.type(), config, tenant.show(s.knowledgeBase()), s.intervalSeconds(),
                s.enabled(), s.createdAt(), s.lastScanAt(), s.lastError(),
                store.countSourceItems(tenant.id(), s.id()));
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> config(String json) {
        return JSON.readValue(json, LinkedHashMap.class);
    }

    private Source checked(SourceRegistration r) {
        return checked(r, null);
    }

    /**
     * A registration checked by its connector; {@code old} is the source it replaces, whose secrets a registration
     * that leaves them out (or sends back what a read shows for them) keeps.
     */
    private Source checked(SourceRegistration r, Source old) {
        if (r.id() == null || !ID.matcher(r.id()).matches()) {
            throw new InvalidInputException("'source_id' must be 1-64 of a-z, 0-9, '.', '_', '-', starting with a letter or "
                    + "digit, e.g. \"handbook-folder\"");
        }
        SourceConnector connector = connectors.get(r.type()).orElseThrow(() -> new InvalidInputException("'type' must "
                + "be one of " + connectors.described() + ", was '" + Ids.abbreviate(String.valueOf(r.type()), 20)
                + "'"));
        int interval = r.intervalSeconds() == null ? DEFAULT_INTERVAL : r.intervalSeconds();
        if (interval < MIN_INTERVAL || interval > 7 * 86400) {
            throw new InvalidInputException("'interval_seconds' must be between " + MIN_INTERVAL + " and 604800, was "
                    + interval);
        }
        Map<String, Object> given = new LinkedHashMap<>(r.config() == null ? Map.of() : r.config());
        if (old != null && old.type().equals(r.type())) {
            Map<String, Object> before = config(old.config());
            for (String secret : connector.secrets()) {
                Object v = given.get(secret);
                if ((v == null || SourceConnector.HIDDEN.equals(v)) && before.containsKey(secret)) {
                    given.put(secret, before.get(secret));
                }
            }
        }
        Map<String, Object> config = connector.checked(given, connectors.host(tenant, null, () -> false));
        KnowledgeBase kb = Scope.bind(tenant, r.knowledgeBase() == null ? KnowledgeBase.DEFAULT
                : KnowledgeBase.of(r.knowledgeBase()));
        return new Source(tenant.id(), r.id(), connector.type(), JSON.writeValueAsString(config), kb.storageName(),
                interval, r.enabled() == null || r.enabled(), null, null, null, old != null ? old.registeredBy()
                        : tenant.isLocal() ? tenant.name() : "");
    }

    private SourceConnector connector(String type) {
        return connectors.get(type).orElseThrow(() -> new InvalidInputException("this server has no connector for "
                + "sources of type '" + type + "'"));
    }

    /** Enables or disables a source; its settings and item state are kept either way. Enabling starts a sync. */
    public Registered enable(String id, boolean enabled) {
        Source s = own(id);
        Source changed = new Source(s.tenant(), s.id(), s.type(), s.config(), s.knowledgeBase(), s.intervalSeconds(),
                enabled, s.createdAt(), s.lastScanAt(), s.lastError(), s.registeredBy());
        store.updateSource(changed);
        if (enabled) {
            watcher.changed(changed);
            return new Registered(info(changed), syncNow(changed));
        }
        watcher.removed(changed);
        return new Registered(info(changed), null);
    }

    /** Starts a sync of every enabled source of the tenant; returns their job ids by source id. */
    public Map<String, String> syncAll() {
        Map<String, String> out = new LinkedHashMap<>();
        for (Source s : store.sources(tenant.id())) {
            if (s.enabled()) {
                out.put(s.id(), syncNow(s));
            }
        }
        return out;
    }

    /** The tenant's source reading this folder, if one does. */
    public Optional<SourceInfo> byRoot(Path folder) {
        String root = folder.toAbsolutePath().normalize().toString();
        return store.sources(tenant.id()).stream().filter(s -> root.equals(config(s.config())
                .get("root"))).findFirst().map(this::info);
    }
}
