package io.polyrag.app;

import io.polyrag.app.api.FusionTuning;
import io.polyrag.app.api.JudgedQuery;
import io.polyrag.app.api.KbEvaluation;
import io.polyrag.core.ConflictException;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.NotFoundException;
import io.polyrag.core.model.DocumentInfo;
import io.polyrag.core.model.DocumentStatus;
import io.polyrag.core.model.KnowledgeBase;
import io.polyrag.core.model.KnowledgeBaseInfo;
import io.polyrag.core.model.Source;
import io.polyrag.core.model.Tenant;
import io.polyrag.core.port.Catalog;
import io.polyrag.core.port.SourceStore;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A tenant's knowledge bases: list, create (with a description), read (with document and chunk counts), delete
 * (its documents from every store first). Ingesting into a knowledge base that does not exist creates it.
 */
public final class KnowledgeBases {
    private static final int DELETE_PAGE = 500;

    /** How long a delete waits for the ingest jobs writing into the knowledge base to stop. */
    private static final Duration WRITERS_STOP = Duration.ofSeconds(60);

    private final Catalog catalog;
    private final SourceStore sourceStore;
    private final Documents documents;
    private final Tenant tenant;
    private final JobEngine engine;
    private final Sources sources;
    private final KbFusion fusion;
    private final KbJudgments judged;

    KnowledgeBases(Catalog catalog, SourceStore sourceStore, Documents documents, Tenant tenant, JobEngine engine,
            Sources sources, KbFusion fusion, KbJudgments judged) {
        this.catalog = catalog;
        this.sourceStore = sourceStore;
        this.documents = documents;
        this.tenant = tenant;
        this.engine = engine;
        this.sources = sources;
        this.fusion = fusion;
        this.judged = judged;
    }

    /** The knowledge base {@code name} of the tenant, which must exist (the default one always does). */
    private KnowledgeBase existing(String name) {
        return Scope.known(catalog.knowledgeBases(tenant.id()), KnowledgeBase.of(tenant, checked(name)));
    }

    /**
     * Fails with a 404 naming {@code name} unless the tenant has that knowledge base (the default one always counts):
     * read from the names alone, not the counts {@link #get} reads.
     */
    public void require(String name) {
        existing(name);
    }

    /** Whether the tenant has knowledge base {@code name}: {@link #require} without the failure. */
    public boolean exists(String name) {
        try {
            existing(name);
            return true;
        } catch (NotFoundException | InvalidInputException e) {
            return false;
        }
    }

    /** The knowledge base's judged queries (documents by id). */
    public List<JudgedQuery> judgments(String name) {
        return judged.judgments(existing(name));
    }

    /**
     * Adds judged queries to the knowledge base (a query id judged before is replaced whole); every document must
     * be in it, named by id or URI. Returns how many were kept.
     */
    public int addJudgments(String name, List<JudgedQuery> judgments) {
        return judged.add(existing(name), judgments);
    }

    /** Deletes one judged query ({@code queryId}), or all of them (null); how many went. */
    public int deleteJudgments(String name, String queryId) {
        if (queryId != null && queryId.isBlank()) {
            throw new InvalidInputException("query_id is empty: name the judged query to delete, or leave query_id "
                    + "out to delete them all");
        }
        return judged.delete(existing(name), queryId);
    }

    /**
     * Starts a job that fits the knowledge base's fusion to its judged queries (at least {@value KbFusion#MIN_JUDGED})
     * and applies it to its searches when it beats the configured fusion on held-out folds; returns the job's id.
     */
    public String tune(String name) {
        KnowledgeBase kb = existing(name);
        // The check and the submit as one step in this process: two requests at once both found none running and
        // both queued a tuning that overwrote the other's. (Replicas may still race; the later result wins.)
        synchronized (TUNING.computeIfAbsent(kb.storageName(), k -> new Object())) {
            var running = engine.unfinished(tenant, KbFusion.KIND, kb.storageName());
            if (running.isPresent()) {
                throw new ConflictException("a tuning of knowledge base '" + kb.name() + "' is queued or running (job "
                        + running.get() + "): wait for it (GET /v1/jobs/" + running.get() + ")", true);
            }
            // Its searches charged to the quota here, after those refusals: a client polling the route while a tuning
            // ran (or the queue was full) was charged a tuning's searches at every refused call.
            engine.mayQueue(tenant);
            return engine.submit(tenant, KbFusion.KIND, fusion.payload(kb));
        }
    }

    /** The job of the knowledge base's tuning that is queued or running, if one is (to follow it, not start another). */
    public Optional<String> runningTuning(String name) {
        return engine.unfinished(tenant, KbFusion.KIND, existing(name).storageName());
    }

    /** One lock per knowledge base (stored name) for starting its tuning. */
    private static final ConcurrentHashMap<String, Object> TUNING = new ConcurrentHashMap<>();

    /** What the last tuning found; empty when the knowledge base was never tuned or its tuning was dropped. */
    public Optional<FusionTuning> tuning(String name) {
        return fusion.tuning(existing(name).storageName());
    }

    /** Drops the knowledge base's tuning: its searches use the configured fusion again. */
    public void dropTuning(String name) {
        fusion.drop(existing(name).storageName());
    }

    /**
     * Measures the knowledge base's search on its judged queries (the configured fusion, the tuned one, each leg
     * alone) and keeps the result as its last evaluation.
     */
    public KbEvaluation evaluate(String name) {
        return fusion.evaluate(existing(name));
    }

    /** The last evaluation kept for the knowledge base. */
    public Optional<KbEvaluation> lastEvaluation(String name) {
        return fusion.lastEvaluation(existing(name).storageName());
    }

    /** The tenant's knowledge bases, by name, each with its counts. */
    public List<KnowledgeBaseInfo> list() {
        return catalog.knowledgeBaseInfos(tenant.id()).stream().map(this::shown).toList();
    }

    public KnowledgeBaseInfo get(String name) {
        KnowledgeBase kb = KnowledgeBase.of(tenant, checked(name));
        return catalog.knowledgeBase(kb.storageName()).map(this::shown)
                .orElseThrow(() -> notFound(kb));
    }

    /** Creates an empty knowledge base; a name in use is a conflict. */
    public KnowledgeBaseInfo create(String name, String description) {
        KnowledgeBase kb = KnowledgeBase.of(tenant, checked(name));
        if (description != null && (description.length() > 1024 || description.chars().anyMatch(
                ch -> Character.isISOControl(ch) && ch != '\n'))) {
            throw new InvalidInputException("description must be at most 1024 characters with no control characters");
        }
        if (!catalog.createKnowledgeBase(kb.storageName(), description == null ? "" : description.strip())) {
            throw new ConflictException("knowledge base '" + kb.name() + "' exists already");
        }
        return get(kb.name());
    }

    /** {@link #delete(String, boolean)} without force: a knowledge base a sync source feeds is refused. */
    public long delete(String name) {
        return delete(name, false);
    }

    /**
     * Deletes the knowledge base and every document in it, from the catalog and every store; returns how many. Sync
     * sources feeding it are a conflict naming them, unless {@code force}, which deletes them first (their sync state;
     * their documents go with the knowledge base). Ingest jobs writing into it are canceled and waited for, so none
     * recreates it afterwards; only an explicit create or an ingest started after the delete does.
     */
    public long delete(String name, boolean force) {
        KnowledgeBase kb = KnowledgeBase.of(tenant, checked(name));
        if (catalog.knowledgeBase(kb.storageName()).isEmpty()) {
            throw notFound(kb);
        }
        List<String> feeding = sourceStore.sources(tenant.id()).stream()
                .filter(s -> kb.storageName().equals(s.knowledgeBase()) || kb.name().equals(s.knowledgeBase()))
                .map(Source::id).toList();
        if (!feeding.isEmpty() && !force) {
            throw new ConflictException("knowledge base '" + kb.name() + "' is fed by sync source"
                    + (feeding.size() == 1 ? " " : "s ") + String.join(", ", feeding) + ": delete "
                    + (feeding.size() == 1 ? "it" : "them") + " first (DELETE /v1/sync/sources/{id}), or delete "
                    + "with force=true to delete " + (feeding.size() == 1 ? "it" : "them") + " too");
        }
        for (String id : feeding) {
            sources.delete(id, false);
        }
        List<String> still = engine.stopWritersInto(tenant, kb.storageName(), WRITERS_STOP);
        if (!still.isEmpty()) {
            throw new ConflictException("ingest job" + (still.size() == 1 ? " " : "s ")
                    + String.join(", ", still) + " writing into '" + kb.name() + "' did not stop within "
                    + WRITERS_STOP.toSeconds() + " s of being canceled: try the delete again once "
                    + (still.size() == 1 ? "it has" : "they have") + " ended (GET /v1/jobs)", true);
        }
        long deleted = 0;
        for (int round = 0; round < 5; round++) {
            deleted += deleteDocuments(kb);
            // Refused while a document staged since the last page is there: deleted too, then dropped.
            if (catalog.dropKnowledgeBase(kb.storageName())) {
                fusion.forget(kb.storageName());
                return deleted;
            }
        }
        throw new ConflictException("documents kept arriving in knowledge base '" + kb.name() + "' while it was "
                + "deleted (an ingest not run as a job: a text ingest, an agent's tool call?): stop them, then delete "
                + "it again", true);
    }

    /** Deletes every document of the knowledge base, page by page; returns how many. */
    private long deleteDocuments(KnowledgeBase kb) {
        long deleted = 0;
        while (true) {
            // Every status: a first version still being written by a writer that is not a job (a text ingest, an
            // agent's tool call) is given up too, so its publish is refused instead of landing in a dropped knowledge
            // base that a create of the same name would bring back with it.
            List<String> ids = catalog.documents(kb.asScope(), EnumSet.allOf(DocumentStatus.class), 0, DELETE_PAGE)
                    .stream().map(DocumentInfo::id).toList();
            if (ids.isEmpty()) {
                break;
            }
            // Through the documents facet, so their stored originals go too (left behind, a knowledge base made
            // again under the same name served the old bytes for a document of the same uri).
            int n = documents.delete(ids);
            if (n == 0) {
                break;
            }
            deleted += n;
        }
        return deleted;
    }

    private static String checked(String name) {
        if (name == null || name.isBlank()) {
            throw new InvalidInputException("a knowledge base name is required");
        }
        return name;
    }

    private KnowledgeBaseInfo shown(KnowledgeBaseInfo k) {
        return new KnowledgeBaseInfo(tenant.show(k.name()), k.description(), k.createdAt(), k.documents(),
                k.chunks());
    }

    private static NotFoundException notFound(KnowledgeBase kb) {
        return new NotFoundException("no knowledge base '" + kb.name() + "'");
    }
}
