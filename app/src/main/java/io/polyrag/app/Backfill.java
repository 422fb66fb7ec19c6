package io.polyrag.app;

import io.polyrag.core.InvalidInputException;
import io.polyrag.core.config.Config;
import io.polyrag.core.config.Settings;
import io.polyrag.core.model.Ids;
import io.polyrag.core.model.JobProgress;
import io.polyrag.core.model.Modality;
import io.polyrag.core.port.Embedder;
import io.polyrag.core.port.JobStore;
import io.polyrag.core.port.VectorStore;
import io.polyrag.core.spi.EmbedderProvider;
import io.polyrag.core.spi.ProviderContext;
import io.polyrag.core.spi.Providers;
import io.polyrag.core.spi.VectorStoreProvider;
import io.polyrag.ingest.IngestPipeline;
import io.polyrag.ingest.StoreCheck;
import io.polyrag.retrieval.HybridSearcher;
import io.polyrag.retrieval.Retriever;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.json.JsonMapper;

/**
 * Stores that hold only part of the collection — a modality switched on, or a new embedding model (whose index
 * starts empty), after documents were indexed; or what a crash left — and the {@code reindex} job that back-fills
 * them. Such a store's leg is not searched until it is whole: every search lists it as degraded, saying how much it
 * lacks and which command back-fills it. Judged at start-up, after every back-fill or repair, and with each
 * recovery sweep while a leg is incomplete (another replica may have back-filled it).
 */
final class Backfill implements JobHandler {
    static final String KIND = "reindex";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final System.Logger LOG = System.getLogger(Backfill.class.getName());

    /**
     * The payload: one modality, or null for every enabled store that lacks records; {@code all}: the graph
     * extracted again for every document version, not only those never extracted.
     */
    record Payload(String modality, boolean all) {
    }

    private final IngestPipeline pipeline;
    private final HybridSearcher searcher;
    /** Null when vectors are off. */
    private final Embedder embedder;
    /** The vector backend, to open another model's index as a stand-in; null when vectors are off. */
    private final VectorStoreProvider vectorProvider;
    private final ProviderContext context;
    private final Metrics metrics;

    Backfill(IngestPipeline pipeline, HybridSearcher searcher, Embedder embedder, VectorStoreProvider vectorProvider,
            ProviderContext context, Metrics metrics) {
        this.pipeline = pipeline;
        this.searcher = searcher;
        this.embedder = embedder;
        this.vectorProvider = vectorProvider;
        this.context = context;
        this.metrics = metrics;
    }

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public String item() {
        return "document";
    }

    /** The modalities a back-fill may name: the enabled stores. */
    List<Modality> fillable() {
        return List.copyOf(pipeline.stores().modalities());
    }

    /**
     * Checks a requested modality (null: every fillable one) and returns the job payload; {@code all} rebuilds every
     * version's records, not only those missing (the graph: its entities extracted again; vector and full text: their
     * texts indexed again, with their chunk contexts when contextual retrieval is on).
     */
    String payload(String modality, boolean all) {
        if (modality == null || modality.isBlank()) {
            if (all) {
                throw new InvalidInputException("all: name the store to rebuild from every document (modality="
                        + "vector, fulltext or graph, which writes the RDF store too)");
            }
            return JSON.writeValueAsString(new Payload(null, false));
        }
        Modality m;
        try {
            m = Modality.parse(modality.strip().toLowerCase(Locale.ROOT));
        } catch (RuntimeException e) {
            m = null;
        }
        if (m == null || !fillable().contains(m)) {
            throw new InvalidInputException("modality: '" + Ids.abbreviate(modality, 40)
                    + "' cannot be back-filled here; this server can back-fill " + fillable().stream()
                    .map(Modality::wireName).toList() + " (a store that is switched off is not)");
        }
        return JSON.writeValueAsString(new Payload(m.wireName(), all));
    }

    @Override
    public JobProgress run(JobStore.Claimed job, Context context) {
        Payload p = JSON.readValue(job.payload(), Payload.class);
        List<Modality> targets = p.modality() == null ? fillable() : List.of(Modality.parse(p.modality()));
        StoreCheck check = new StoreCheck(pipeline);
        int[] written = {0};
        JobProgress[] last = {JobProgress.queued()};
        try {
            fill(targets, check, p.all(), context, written, last);
        } finally {
            // Judged however the job ended: a batch whose records were deleted and not written again (a full disk, a
            // store refusing the write) leaves its leg short, and the leg must say so, not answer without them.
            evaluate();
        }
        // A canceled one did what its last report says, not all of it.
        return JobProgress.at("done").total(last[0].total()).processed(context.canceled() ? last[0].processed()
                : last[0].total()).updated(written[0])
                .storesWritten(targets.stream().map(Modality::wireName).toList()).warnings(check.warnings()).build();
    }

    private void fill(List<Modality> targets, StoreCheck check, boolean all, Context context, int[] written,
            JobProgress[] last) {
        boolean graphsDone = false;
        for (Modality m : targets) {
            if (context.canceled()) {
                break;
            }
            int before = written[0];
            boolean graph = m == Modality.GRAPH || m == Modality.RDF;
            if (graph && graphsDone) {
                continue;
            }
            StoreCheck.Progress progress = new StoreCheck.Progress() {
                @Override
                public void report(int done, int total) {
                    last[0] = JobProgress.at("reindexing " + (graph ? "graph" : m.wireName())).total(total)
                            .processed(done).updated(before + done)
                            .storesWritten(List.of(m.wireName())).build();
                    context.progress(last[0]);
                }

                @Override
                public boolean canceled() {
                    return context.canceled();
                }
            };
            if (graph) {
                // The graph and RDF stores hold the same extraction: one pass writes both.
                written[0] += check.backfillGraph(progress, all);
                graphsDone = true;
                continue;
            }
            written[0] += check.backfill(m, progress, all);
        }
    }

    /**
     * Judges which legs are incomplete and tells the searcher; returns them with their reasons. By the stores' record
     * counts against the catalog's (cheap, so it can run every minute while a leg is incomplete); a store found short
     * is looked at again half a second later, so an update published between the two counts is not taken for a gap.
     */
    Map<Modality, String> evaluate() {
        Map<Modality, String> out = new EnumMap<>(Modality.class);
        try {
            StoreCheck check = new StoreCheck(pipeline);
            List<StoreCheck.Lacking> short_ = check.lackingByCount();
            if (!short_.isEmpty()) {
                Thread.sleep(500);
                List<Modality> still = check.lackingByCount().stream().map(StoreCheck.Lacking::modality).toList();
                short_.stream().filter(l -> still.contains(l.modality())).forEach(l -> out.put(l.modality(),
                        reason(l.modality())));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return searcher.incomplete();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "cannot judge whether every store is whole: " + e.getMessage());
            return searcher.incomplete();
        }
        if (!out.equals(searcher.incomplete())) {
            out.values().forEach(r -> LOG.log(System.Logger.Level.WARNING, r));
            if (out.isEmpty()) {
                LOG.log(System.Logger.Level.INFO, "every store holds the whole collection: all legs are searched");
            }
        }
        searcher.incomplete(out);
        standIn(out.containsKey(Modality.VECTOR));
        return out;
    }

    /** The previous embedding model and its index, serving the vector leg while the new model's is back-filled. */
    private record StandIn(Embedder embedder, VectorStore store) {
        void close() {
            try {
                store.close();
            } finally {
                embedder.close();
            }
        }
    }

    private StandIn standIn;
    /**
     * Earlier models found unable to stand in (they do not open, or their index holds no more than the new one), by
     * model id: when each may be tried again. The judgement runs every minute while the vector leg is incomplete,
     * and each try loaded a model session and opened an index only to close them.
     */
    private final Map<String, Long> passedOver = new HashMap<>();
    private static final long PASS_OVER_NANOS = TimeUnit.MINUTES.toNanos(30);
    /** Stand-ins switched off but not closed yet (searches in flight may still read them). */
    private final Set<StandIn> retiring = ConcurrentHashMap.newKeySet();

    /**
     * While the vector leg is incomplete, serves it from the most recent previous model whose index holds more than
     * the new one (opened again from its recorded settings), saying so in every search's warnings; once the new
     * index is whole, switches back (atomically: one field) and closes the old model a few seconds later, after
     * searches in flight.
     */
    // style: one decision with its rollback: which earlier model stands in, opened, checked, swapped in
    private synchronized void standIn(boolean wanted) {
        if (wanted && closed) {
            // A reindex job winding down after the close judged the legs again: a stand-in opened now (a model
            // session, an index) would never be closed.
            return;
        }
        if (!wanted) {
            if (standIn != null) {
                searcher.interim(Modality.VECTOR, null);
                StandIn old = standIn;
                standIn = null;
                retiring.add(old);
                LOG.log(System.Logger.Level.INFO, "the vector leg is served by " + embedder.modelId()
                        + "'s own index again");
                Thread.ofVirtual().start(() -> {
                    try {
                        Thread.sleep(5_000);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    if (retiring.remove(old)) {
                        old.close();
                    }
                });
            }
            return;
        }
        if (standIn != null || vectorProvider == null || embedder == null) {
            return;
        }
        long current = pipeline.stores().sizes().getOrDefault("vector", 0L);
        for (EmbedderRecipes.Recipe r : EmbedderRecipes.others(context.dataDir(),
                embedder.modelId())) {
            Long until = passedOver.get(r.modelId());
            if (until != null && System.nanoTime() - until < 0) {
                continue;
            }
            passedOver.put(r.modelId(), System.nanoTime() + PASS_OVER_NANOS);
            Embedder e = null;
            VectorStore v = null;
            try {
                Config cfg = Config.load(Map.of(), r.settings());
                e = Providers.find(EmbedderProvider.class, cfg.get(
                        Settings.EMBEDDING_PROVIDER),
                        Settings.EMBEDDING_PROVIDER).open(new ProviderContext(cfg,
                        context.dataDir()));
                if (!e.modelId().equals(r.modelId())) {
                    throw new IllegalStateException("it opens as " + e.modelId() + " now");
                }
                v = vectorProvider.open(context, e.dimension(), e.modelId());
                if (v.size() > current) {
                    passedOver.remove(r.modelId());
                    standIn = new StandIn(e, v);
                    searcher.interim(Modality.VECTOR, new HybridSearcher.Interim(
                            metrics.timed(Retriever.vector(e, v, context.config().get(
                                    Settings.VECTOR_DOCUMENT_WEIGHT))), "vector results "
                            + "come from the previous embedding model's index (" + e.modelId() + ") while "
                            + embedder.modelId() + "'s is back-filled ('polyrag reindex --modality "
                            + "vector'); documents added since the change are not in it"));
                    LOG.log(System.Logger.Level.WARNING, "serving the vector leg from the previous model " + e.modelId()
                            + " (" + v.size() + " records) until " + embedder.modelId() + "'s index is "
                            + "back-filled");
                    return;
                }
                v.close();
                e.close();
            } catch (RuntimeException ex) {
                LOG.log(System.Logger.Level.INFO, "the previous model " + r.modelId() + " cannot serve its index: "
                        + ex.getMessage());
                if (v != null) {
                    v.close();
                }
                if (e != null) {
                    e.close();
                }
            }
        }
    }

    /** Set by {@link #close()}: no stand-in is opened after it. */
    private boolean closed;

    /** Closes the stand-in, if one serves, and those switched off but not closed yet. */
    synchronized void close() {
        closed = true;
        for (StandIn old : List.copyOf(retiring)) {
            if (retiring.remove(old)) {
                old.close();
            }
        }
        if (standIn != null) {
            searcher.interim(Modality.VECTOR, null);
            standIn.close();
            standIn = null;
        }
    }

    /**
     * Why a leg is not searched, and the fix. The same words for every tenant (it is in every search's degraded
     * list, and in {@code /health}): no count and no document of anyone's; {@code polyrag check} has those.
     */
    private static String reason(Modality modality) {
        String m = modality.wireName();
        return "not searched: the " + m + " store lacks records of documents indexed before it was switched on or "
                + "given a new embedding model (or lost them), so it would rank part of the collection as the whole; "
                + "the operator back-fills it with 'polyrag reindex --modality " + m + "' (or POST "
                + "/v1/admin/reindex?modality=" + m + "), and 'polyrag check' shows what it lacks";
    }
}
