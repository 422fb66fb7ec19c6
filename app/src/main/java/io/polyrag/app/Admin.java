package io.polyrag.app;

import io.polyrag.app.api.Configuration;
import io.polyrag.app.api.Status;
import io.polyrag.core.ConflictException;
import io.polyrag.core.NotFoundException;
import io.polyrag.core.config.Config;
import io.polyrag.core.config.Settings;
import io.polyrag.core.model.CheckReport;
import io.polyrag.core.model.Ids;
import io.polyrag.core.model.JobInfo;
import io.polyrag.core.model.Modality;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.Tenant;
import io.polyrag.core.port.Catalog;
import io.polyrag.core.port.Embedder;
import io.polyrag.ingest.IngestPipeline;
import io.polyrag.ingest.StoreCheck;
import io.polyrag.retrieval.HybridSearcher;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;

/** The server's own state: status, readiness, and the consistency check of the catalog against every store. */
public final class Admin {
    private final Catalog catalog;
    private final HybridSearcher searcher;
    private final IngestPipeline pipeline;
    /** Null when vectors are off. */
    /**
     * The embedding model under the caches: readiness asked the query-vector cache, which answered from memory after
     * the first probe (the model never asked again) and counted a hit per probe in the cache's metrics.
     */
    private final Embedder embedder;
    private final Config config;
    private final JobEngine jobs;
    private final Backfill backfill;
    private volatile List<String> problems;

    /** @param problems what start-up found wrong (recovery, stores), shown until it is fixed */
    Admin(Catalog catalog, HybridSearcher searcher, IngestPipeline pipeline, Embedder embedder, Config config,
            List<String> problems, JobEngine jobs, Backfill backfill) {
        this.catalog = catalog;
        this.searcher = searcher;
        this.pipeline = pipeline;
        this.embedder = embedder;
        this.config = config;
        this.problems = List.copyOf(problems);
        this.jobs = jobs;
        this.backfill = backfill;
    }

    /**
     * Back-fills, as a background job, what a store lacks (a modality switched on, or a new embedding model, after
     * documents were indexed): the store's leg is searched again once it is whole.
     *
     * @param modality {@code vector}, {@code fulltext}, {@code graph} or {@code rdf}; null for every enabled one
     * @return the job's id
     */
    public String reindex(String modality) {
        return reindex(modality, false);
    }

    /**
     * A back-fill job, as {@link #reindex(String)}; with {@code all} (graph or rdf) the graph is extracted again from
     * every document version's chunk text, replacing what the graph and RDF stores held: after an upgrade of the
     * extractor, or a switch between the offline one and a language model.
     */
    public String reindex(String modality, boolean all) {
        return jobs.submitUncapped(Tenant.LOCAL, Backfill.KIND, backfill.payload(modality, all));
    }

    /**
     * Cancels any job, whoever's: a back-fill (which no tenant's key sees once keys exist) spending a model's tokens
     * for hours could be stopped by nothing but a restart, after which it resumed.
     */
    public JobInfo cancel(String id) {
        return jobs.cancelAny(id);
    }

    /** Any job by id, whoever's (the operator's view). */
    public JobInfo job(String id) {
        return jobs.anyJob(id).orElseThrow(() -> new NotFoundException("no job with id '"
                + Ids.abbreviate(String.valueOf(id), 64) + "'"));
    }

    /** The legs not searched because their store holds only part of the collection, with why and the fix. */
    public Map<String, String> incomplete() {
        Map<String, String> out = new TreeMap<>();
        searcher.incomplete().forEach((m, why) -> out.put(m.wireName(), why));
        return out;
    }

    public Status status() {
        return status(true);
    }

    /**
     * The server's state; with {@code counts} false, no store is counted (documents -1, no records). A store that
     * cannot be counted now is -1 with a problem line naming it, never a failure: {@code /health} is a liveness
     * probe, and a networked store away for a minute, or a count slower than the probe, must not restart every
     * replica (search goes on from the other legs; {@code /ready} names the store).
     */
    public Status status(boolean counts) {
        List<String> problems = new ArrayList<>(storeProblems(true));
        long documents = -1;
        Map<String, Long> records = new TreeMap<>();
        if (counts) {
            try {
                documents = catalog.countDocuments(SearchScope.ALL);
            } catch (RuntimeException e) {
                problems.add("the catalog cannot be counted now: " + e.getMessage());
            }
            records.putAll(pipeline.stores().sizes((store, e) -> problems.add("the " + store + " store cannot be "
                    + "counted now: " + e.getMessage())));
        }
        return new Status(searcher.modalities(), documents, records, embedder == null ? null
                : embedder.modelId(), embedder == null ? 0 : embedder.dimension(), problems);
    }

    /**
     * What the stores lack, one line each: the last check's lines, with each store's "lacks" line judged afresh
     * after every back-fill (the incomplete legs, not searched meanwhile, counted against the catalog).
     *
     * @param incompleteLegs whether to list the incomplete legs: always for {@code /health}; for {@code /ready} only
     *     where no leg is left to search — a 503 would stop a service that still answers from its other legs (every
     *     replica over a shared catalog sees the same stores; a single embedded pod has no other)
     */
    private List<String> storeProblems(boolean incompleteLegs) {
        return storeProblems(problems, searcher.incomplete(), incompleteLegs);
    }

    /**
     * {@code problems} (the last check's lines) as they stand now: a store's "lacks" line only while its leg is still
     * judged incomplete (a back-fill, a repair or another replica may have filled it since: the line held
     * {@code /ready} at 503 until the next check or restart), and each incomplete leg named when asked.
     */
    static List<String> storeProblems(List<String> problems, Map<Modality, String> incomplete,
            boolean incompleteLegs) {
        List<String> out = new ArrayList<>();
        for (String p : problems) {
            Modality lacking = Arrays.stream(Modality.values()).filter(m -> p.startsWith("the " + m.wireName()
                    + " store lacks")).findFirst().orElse(null);
            if (lacking == null || incompleteLegs && incomplete.containsKey(lacking)) {
                out.add(p);
            }
        }
        if (incompleteLegs) {
            incomplete.forEach((m, why) -> {
                if (out.stream().noneMatch(p -> p.startsWith("the " + m.wireName() + " store lacks"))) {
                    out.add("the " + m.wireName() + " leg is " + why);
                }
            });
        }
        return out;
    }

    /** What this server runs: retrievers, backends, models, fusion; no secret and no address. */
    public Configuration configuration(String version) {
        Config c = config;
        List<String> modalities = searcher.modalities().stream().map(m -> m.wireName()).sorted().toList();
        Map<String, String> backends = new TreeMap<>();
        Map<String, Double> weights = new TreeMap<>();
        if (modalities.contains("vector")) {
            backends.put("vector", c.get(Settings.VECTOR_BACKEND));
            weights.put("vector", c.get(Settings.FUSION_WEIGHT_VECTOR));
        }
        if (modalities.contains("fulltext")) {
            backends.put("fulltext", c.get(Settings.FULLTEXT_BACKEND));
            weights.put("fulltext", c.get(Settings.FUSION_WEIGHT_FULLTEXT));
        }
        if (modalities.contains("graph")) {
            backends.put("graph", c.get(Settings.GRAPH_BACKEND));
            weights.put("graph", c.get(Settings.FUSION_WEIGHT_GRAPH));
        }
        if (modalities.contains("rdf")) {
            backends.put("rdf", c.get(Settings.RDF_BACKEND));
            weights.put("rdf", c.get(Settings.FUSION_WEIGHT_RDF));
        }
        backends.put("catalog", c.get(Settings.CATALOG_BACKEND));
        backends.put("blobs", c.get(Settings.BLOB_BACKEND));
        String llm = c.get(Settings.LLM_PROVIDER);
        boolean extractive = llm == null || llm.equals("none");
        boolean graph = modalities.contains("graph") || modalities.contains("rdf");
        return new Configuration(version, modalities, backends, embedder == null ? null
                : embedder.modelId(), embedder == null ? 0 : embedder.dimension(),
                c.get(Settings.FUSION_METHOD), weights, c.get(Settings.FUSION_RRF_K), c.get(Settings.RERANK_PROVIDER),
                extractive ? "extractive" : llm, extractive ? null : c.get(Settings.LLM_MODEL), graph
                        ? c.get(Settings.GRAPH_EXTRACTOR) : null, c.get(Settings.CHUNK_MAX_TOKENS),
                c.get(Settings.HTTP_MAX_REQUEST_MB) * 1024L * 1024L);
    }

    /**
     * What keeps this server from serving correctly now, one line each naming the fix; empty when ready. Besides the
     * problems found when it opened or by the last {@link #check}, every store and the catalog are read and the
     * embedding model embeds a word (a language model is not called: it is optional and billed).
     */
    public List<String> readiness() {
        // An incomplete leg is not unreadiness while another leg searches: the search serves (the leg listed as
        // degraded, /health names it). A one-pod deployment that went unready for the hours of a back-fill after a
        // model change answered nothing at all meanwhile.
        // Nor are orphan records (versions replaced or deleted whose records a purge has not removed yet): they cost
        // their bytes, never a result, and the sweep removes them; /health lists them.
        List<String> out = new ArrayList<>(storeProblems(searcher.incomplete().keySet()
                .containsAll(searcher.modalities())).stream().filter(p -> !p.contains(Recovery.ORPHANS)).toList());
        try {
            catalog.ping();
        } catch (RuntimeException e) {
            out.add("the catalog cannot be read: " + e.getMessage());
        }
        pipeline.stores().probe().forEach((store, error) -> out.add("the " + store + " store cannot be "
                + "read: " + error));
        if (embedder != null) {
            try {
                embedder.embedQuery("ready");
            } catch (RuntimeException e) {
                out.add("the embedding model " + embedder.modelId() + " cannot embed: " + e.getMessage());
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
    public CheckReport check(boolean repair) {
        // One repair at a time: a client (or a proxy) that timed out and asked again ran a second one beside the
        // first, re-embedding the same versions twice over.
        if (repair && !repairing.compareAndSet(false, true)) {
            throw new ConflictException("a repair is already running in this server: wait for it (GET /v1/admin/check "
                    + "reports meanwhile)", true);
        }
        try {
            CheckReport r = new StoreCheck(pipeline).run(repair ? StoreCheck.Repair.ALL : StoreCheck.Repair.NONE);
            problems = List.copyOf(Recovery.problems(r));
            backfill.evaluate();
            return r;
        } finally {
            if (repair) {
                repairing.set(false);
            }
        }
    }

    private final AtomicBoolean repairing = new AtomicBoolean();
}
