package io.polyrag.app;

import io.polyrag.core.ConfigException;
import io.polyrag.core.config.Config;
import io.polyrag.core.config.Settings;
import io.polyrag.core.model.FigureMode;
import io.polyrag.core.model.FusionMethod;
import io.polyrag.core.model.Modality;
import io.polyrag.core.port.BlobStore;
import io.polyrag.core.port.ChunkIndex;
import io.polyrag.core.port.Embedder;
import io.polyrag.core.port.EntityExtractor;
import io.polyrag.core.port.ForwardingEmbedder;
import io.polyrag.core.port.FullTextStore;
import io.polyrag.core.port.GraphStore;
import io.polyrag.core.port.LlmClient;
import io.polyrag.core.port.Parser;
import io.polyrag.core.port.RdfStore;
import io.polyrag.core.port.Reranker;
import io.polyrag.core.port.ResponseCache;
import io.polyrag.core.port.TokenCounter;
import io.polyrag.core.port.VectorStore;
import io.polyrag.core.spi.BlobStoreProvider;
import io.polyrag.core.spi.CatalogProvider.CatalogAndJobs;
import io.polyrag.core.spi.CatalogProvider;
import io.polyrag.core.spi.EmbedderProvider;
import io.polyrag.core.spi.ExtractorProvider;
import io.polyrag.core.spi.FullTextStoreProvider;
import io.polyrag.core.spi.GraphStoreProvider;
import io.polyrag.core.spi.LlmProvider;
import io.polyrag.core.spi.ParserProvider;
import io.polyrag.core.spi.ProviderContext;
import io.polyrag.core.spi.Providers;
import io.polyrag.core.spi.RdfStoreProvider;
import io.polyrag.core.spi.RerankerProvider;
import io.polyrag.core.spi.VectorStoreProvider;
import io.polyrag.ingest.CachingEmbedder;
import io.polyrag.ingest.Contextualizer;
import io.polyrag.ingest.IngestPipeline;
import io.polyrag.ingest.LlmEntityExtractor;
import io.polyrag.ingest.StoreSet;
import io.polyrag.ingest.StructuredChunker;
import io.polyrag.ingest.WordTokenCounter;
import io.polyrag.retrieval.AnswerService;
import io.polyrag.retrieval.Condenser;
import io.polyrag.retrieval.EntityGraphRetriever;
import io.polyrag.retrieval.Fusion;
import io.polyrag.retrieval.GraphMemory;
import io.polyrag.retrieval.HybridSearcher;
import io.polyrag.retrieval.LlmReranker;
import io.polyrag.retrieval.QueryExpander;
import io.polyrag.retrieval.QueryVectorCache;
import io.polyrag.retrieval.Retriever;
import io.polyrag.retrieval.Text2CypherRetriever;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The composition root: configuration → named providers → the pipeline and the searcher. Only enabled modalities
 * are built, so a disabled vector modality loads no model. Everything opened is closed in reverse order, also when
 * opening fails half-way.
 */
final class Components implements AutoCloseable {
    /**
     * How long opening waits for the graph legs' copies in memory: a small graph is ready for the first search; a
     * large one loads in the background while the legs read their stores.
     */
    private static final long MEMORY_WAIT_MS = 300;
    final Config config;
    final CatalogAndJobs catalog;
    /** Whether a tenant's documents are still on their way in, for searches to say so. */
    final Indexing indexing;
    /** The documents of each category searched lately. */
    final CategoryDocuments categories;
    final Embedder embedder;
    /** The embedding model itself, under every cache: what readiness asks to embed. Null with vectors off. */
    final Embedder model;
    final IngestPipeline pipeline;
    final HybridSearcher searcher;
    final AnswerService answers;
    /** A conversation's next question as its retrieval query: the model's condensed one, or the offline rewrite. */
    final Condenser condenser;
    final Parser parser;
    final GraphStore graph;
    final RdfStore rdf;
    final EntityExtractor extractor;
    final Metrics metrics;
    final Tracing tracing;
    final Usage usage;
    final BlobStore blobs;
    private final Deque<AutoCloseable> opened = new ArrayDeque<>();
    /** The vector store's provider (to open another model's index), and what it was opened with; null without vectors. */
    VectorStoreProvider vectorProvider;
    /** The embedding model when it loads on first use, else null. */
    private LazyEmbedder lazyModel;
    final ProviderContext context;

    // style: the composition root: each provider opened in dependency order, each closed if a later one fails
    Components(Config config, ProviderContext context) {
        this.config = config;
        this.context = context;
        try {
            // First, so that it closes last: the spans of everything closing before it are still exported.
            this.tracing = track(Tracing.of(config));
            tracing.watchOutbound();
            ParserProvider parsers = Providers.find(ParserProvider.class, config.get(Settings.INGEST_PARSER),
                    Settings.INGEST_PARSER);
            Parser p = new LazyParser(() -> parsers.open(context));
            this.parser = p;
            this.catalog = track(Providers.find(CatalogProvider.class, config.get(Settings.CATALOG_BACKEND),
                    Settings.CATALOG_BACKEND).open(context));
            this.metrics = track(new Metrics(catalog.jobStore(), tracing));
            UsageMeter meter = track(new UsageMeter(catalog.usageStore(), Clock.systemUTC(),
                    config.get(Settings.METRICS_TENANT_LABEL) ? metrics.registry() : null));
            this.usage = new Usage(catalog.usageStore(), meter, Clock.systemUTC());
            this.indexing = new Indexing(catalog.jobStore());
            this.categories = new CategoryDocuments(catalog);
            this.blobs = track(Providers.find(BlobStoreProvider.class,
                    config.get(Settings.BLOB_BACKEND), Settings.BLOB_BACKEND).open(context));
            Map<Modality, ChunkIndex> indexes = new EnumMap<>(Modality.class);
            List<Retriever> retrievers = new ArrayList<>();
            Embedder e = null;
            Embedder raw = null;
            Embedder answering = null;
            if (config.get(Settings.VECTOR_ENABLED)) {
                EmbedderProvider models = Providers.find(EmbedderProvider.class,
                        config.get(Settings.EMBEDDING_PROVIDER), Settings.EMBEDDING_PROVIDER);
                var known = EmbedderRecipes.known(context.dataDir(), config);
                if (known.isPresent()) {
                    e = track(lazyModel = new LazyEmbedder(() -> models.open(context), m -> EmbedderRecipes.know(
                            context.dataDir(), config, m), () -> EmbedderRecipes.forget(context.dataDir(), config),
                            known.get().modelId(), known.get().dimension(), known.get().maxTokens()));
                } else {
                    e = track(models.open(context));
                    EmbedderRecipes.know(context.dataDir(), config, e);
                }
                raw = e;
                if (config.get(Settings.EMBEDDING_CACHE)) {
                    e = new CachingEmbedder(e, catalog.embeddingCache());
                }
                // The extractive answerer's sentences go straight to the model (kept in its own memory, not the
                // catalog's cache); its question is the query the search before it has just embedded.
                answering = raw;
                if (config.get(Settings.EMBEDDING_QUERY_CACHE) > 0) {
                    QueryVectorCache queries = new QueryVectorCache(e, config.get(Settings.EMBEDDING_QUERY_CACHE));
                    metrics.queryVectors(queries);
                    e = queries;
                    answering = new ForwardingEmbedder(raw) {
                        @Override
                        public float[] embedQuery(String query) {
                            return queries.embedQuery(query);
                        }
                    };
                }
                this.vectorProvider = Providers.find(VectorStoreProvider.class, config.get(Settings.VECTOR_BACKEND),
                        Settings.VECTOR_BACKEND);
                VectorStore vs = track(vectorProvider.open(context, e.dimension(), e.modelId()));
                EmbedderRecipes.remember(context.dataDir(), raw, config);
                indexes.put(Modality.VECTOR, vs);
                retrievers.add(tracing.traced(metrics.timed(Retriever.vector(tracing.traced(e), vs, config.get(
                        Settings.VECTOR_DOCUMENT_WEIGHT))),
                        config.get(Settings.VECTOR_BACKEND)));
            }
            this.embedder = e;
            this.model = raw;
            if (config.get(Settings.FULLTEXT_ENABLED)) {
                FullTextStore fs = track(Providers.find(FullTextStoreProvider.class,
                        config.get(Settings.FULLTEXT_BACKEND), Settings.FULLTEXT_BACKEND).open(context));
                indexes.put(Modality.FULLTEXT, fs);
                retrievers.add(tracing.traced(metrics.timed(Retriever.fullText(fs, config.get(
                        Settings.FULLTEXT_DOCUMENT_WEIGHT))), config.get(
                        Settings.FULLTEXT_BACKEND)));
            }
            LlmClient llm = "none".equalsIgnoreCase(config.get(Settings.LLM_PROVIDER).strip()) ? null
                    : usage.meter().metered(tracing.traced(track(Providers.find(LlmProvider.class,
                            config.get(Settings.LLM_PROVIDER), Settings.LLM_PROVIDER).open(context))));
            // The search's best-effort steps (condensing, expansion, reranking, text-to-Cypher) each have a fallback:
            // they call the model once, not with the answer's retries (4 attempts and 30 s waits held a search for
            // minutes while the provider was in trouble).
            LlmClient quick = llm == null ? null : usage.meter().metered(tracing.traced(track(Providers.find(
                    LlmProvider.class, config.get(Settings.LLM_PROVIDER), Settings.LLM_PROVIDER).open(
                            new ProviderContext(config.with(Settings.LLM_MAX_RETRIES, 0), context.dataDir())))));
            // The steps inside a search (reranking, expansion, text-to-Cypher) get no longer than a retriever; a
            // follow-up's condensing and the router, before it, keep the model's own timeout (a slow local model).
            LlmClient inSearch = llm == null ? null : usage.meter().metered(tracing.traced(track(Providers.find(
                    LlmProvider.class, config.get(Settings.LLM_PROVIDER), Settings.LLM_PROVIDER).open(
                            new ProviderContext(inSearch(config), context.dataDir())))));
            int hops = config.get(Settings.GRAPH_MAX_HOPS);
            if (config.get(Settings.GRAPH_ENABLED)) {
                GraphStore gs = track(Providers.find(GraphStoreProvider.class, config.get(Settings.GRAPH_BACKEND),
                        Settings.GRAPH_BACKEND).open(context));
                this.graph = gs;
                // The walk reads a copy in memory (kept current by the writes through `indexes`), once loaded.
                GraphMemory memory = GraphMemory.of("graph", gs,
                        MEMORY_WAIT_MS);
                indexes.put(Modality.GRAPH, memory.tracking(gs));
                EntityGraphRetriever walk = EntityGraphRetriever.graph(gs, memory, hops);
                if (config.get(Settings.GRAPH_TEXT2CYPHER)) {
                    if (llm == null) {
                        throw new ConfigException("POLYRAG_GRAPH_TEXT2CYPHER=true needs a language "
                                + "model: set POLYRAG_LLM_PROVIDER (and its URL and model), or turn it off");
                    }
                    retrievers.add(tracing.traced(metrics.timed(new Text2CypherRetriever(walk, gs, inSearch)),
                            config.get(Settings.GRAPH_BACKEND)));
                } else {
                    retrievers.add(tracing.traced(metrics.timed(walk), config.get(Settings.GRAPH_BACKEND)));
                }
            } else {
                this.graph = null;
            }
            if (config.get(Settings.RDF_ENABLED)) {
                RdfStore rs = track(Providers.find(RdfStoreProvider.class, config.get(Settings.RDF_BACKEND),
                        Settings.RDF_BACKEND).open(context));
                GraphMemory memory = GraphMemory.of("rdf", rs,
                        MEMORY_WAIT_MS);
                indexes.put(Modality.RDF, memory.tracking(rs));
                retrievers.add(tracing.traced(metrics.timed(EntityGraphRetriever.rdf(rs, memory, hops)),
                        config.get(Settings.RDF_BACKEND)));
                this.rdf = rs;
            } else {
                this.rdf = null;
            }
            warnIfReplicasWouldSplit(config);
            StoreSet stores = new StoreSet(indexes);
            this.extractor = stores.needsGraph() ? track(extractor(config, context, llm, catalog.responseCache())) : null;
            TokenCounter counter = e != null ? e.tokenCounter() : new WordTokenCounter();
            if (e != null && config.get(Settings.CHUNK_MAX_TOKENS) > e.maxTokens()) {
                // The model reads no further: the rest of each chunk would be searchable by its words only.
                System.getLogger(Components.class.getName()).log(System.Logger.Level.WARNING, "chunks of up to "
                        + config.get(Settings.CHUNK_MAX_TOKENS) + " tokens (POLYRAG_CHUNK_MAX_TOKENS) are longer than "
                        + "the embedding model reads (" + e.maxTokens() + "): each chunk's vector stands for its "
                        + "first " + e.maxTokens() + " tokens only; set POLYRAG_CHUNK_MAX_TOKENS to at most "
                        + e.maxTokens());
            }
            this.pipeline = new IngestPipeline(catalog, parser, new StructuredChunker(counter,
                    config.get(Settings.CHUNK_MAX_TOKENS), config.get(Settings.CHUNK_OVERLAP_TOKENS)), e, extractor,
                    stores, new IngestPipeline.Options(config.get(Settings.INGEST_BATCH_DOCUMENTS),
                            config.get(Settings.INGEST_MAX_FILE_MB) * 1024L * 1024L, signature(config, e,
                                    config.get(Settings.CONTEXTUAL_ENABLED) && llm != null ? llm.id() : "off"),
                            config.get(Settings.INGEST_DUPLICATES).equals("skip")));
            pipeline.traced(tracing.ingest(backends(config)));
            pipeline.wholeVectors(config.get(Settings.VECTOR_DOCUMENT_WEIGHT) > 0);
            if (config.get(Settings.CONTEXTUAL_ENABLED)) {
                if (llm == null) {
                    throw new ConfigException("POLYRAG_CONTEXTUAL_ENABLED=true needs a language "
                            + "model to write the contexts: set POLYRAG_LLM_PROVIDER (and its URL and model), or turn "
                            + "it off");
                }
                pipeline.contextual(new Contextualizer(llm, catalog.contextCache(), config.get(
                        Settings.CONTEXTUAL_DOCUMENT_WORDS), config.get(Settings.CONTEXTUAL_CONCURRENCY)),
                        config.get(Settings.CONTEXTUAL_TOKEN_BUDGET));
            }
            pipeline.extractionTime(Duration.ofMillis(config.get(Settings.GRAPH_EXTRACT_CHUNK_MS)),
                    Duration.ofSeconds(config.get(Settings.GRAPH_EXTRACT_BATCH_SECONDS)));
            pipeline.figures(new IngestPipeline.FigureOptions(blobs, FigureMode.parse(
                    config.get(Settings.FIGURES_EXTRACT)), config.get(Settings.FIGURES_FILE_MAX),
                    config.get(Settings.FIGURES_FILE_MAX_MB) * 1024L * 1024L, config.get(Settings.FIGURES_INGEST_MAX),
                    config.get(Settings.FIGURES_INGEST_MAX_MB) * 1024L * 1024L,
                    config.get(Settings.INGEST_PARSE_TIMEOUT_SECONDS) * 1000L));
            Reranker reranker = reranker(config, context, inSearch);
            if (reranker instanceof AutoCloseable closeable) {
                track(closeable);
            }
            this.searcher = track(new HybridSearcher(retrievers, catalog, searchOptions(config), reranker,
                    expander(config, inSearch)));
            searcher.figures(config.get(Settings.FIGURES_MAX));
            searcher.legsThrough(legs -> tracing.carrying(UsageMeter.carrying(legs)));
            searcher.observe(new SearchLog(config.get(Settings.SLOW_SEARCH_MS), tracing));
            searcher.sureWeight(config.get(Settings.FUSION_GRAPH_SURE_WEIGHT));
            searcher.graphLag(config.get(Settings.SEARCH_GRAPH_LAG_MS));
            this.answers = new AnswerService(searcher, catalog, llm, config.get(Settings.LLM_MAX_ANSWER_TOKENS),
                    answering);
            answers.contextTokens(config.get(Settings.LLM_CONTEXT_TOKENS));
            answers.routeWith(quick);
            this.condenser = new Condenser("offline".equals(config.get(
                    Settings.CONVERSATIONS_CONDENSE)) ? null : quick);
        } catch (RuntimeException ex) {
            close();
            throw ex;
        }
    }

    /**
     * The entity extractor: the language model when {@code graph.extractor} is {@code llm}, or {@code auto} with a
     * model configured; otherwise the offline one.
     */
    private static EntityExtractor extractor(Config config, ProviderContext context, LlmClient llm,
            ResponseCache cache) {
        String choice = config.get(Settings.GRAPH_EXTRACTOR);
        if (choice.equals("llm") && llm == null) {
            throw new ConfigException("POLYRAG_GRAPH_EXTRACTOR=llm needs a language model: set "
                    + "POLYRAG_LLM_PROVIDER (and its URL and model), or use offline or auto");
        }
        if (choice.equals("offline") || llm == null) {
            return Providers.find(ExtractorProvider.class, "offline", Settings.GRAPH_EXTRACTOR).open(context);
        }
        return LlmEntityExtractor.create(llm, config.get(Settings.GRAPH_STRATEGY),
                config.get(Settings.GRAPH_SCHEMA_FILE), cache);
    }

    /** The configured query expander, which needs the language model. */
    /** Each modality's backend as configured ({@code vector} → {@code lucene}, …): what a write's span names. */
    private static Map<String, String> backends(Config config) {
        return Map.of(Modality.VECTOR.wireName(), config.get(Settings.VECTOR_BACKEND), Modality.FULLTEXT.wireName(),
                config.get(Settings.FULLTEXT_BACKEND), Modality.GRAPH.wireName(), config.get(Settings.GRAPH_BACKEND),
                Modality.RDF.wireName(), config.get(Settings.RDF_BACKEND));
    }

    private static QueryExpander expander(Config config, LlmClient llm) {
        String mode = config.get(Settings.EXPANSION_MODE);
        if (mode.equals("none")) {
            return null;
        }
        if (llm == null) {
            throw new ConfigException("POLYRAG_EXPANSION_MODE=" + mode + " needs a language model: set "
                    + "POLYRAG_LLM_PROVIDER (and its URL and model), or set POLYRAG_EXPANSION_MODE=none");
        }
        return new QueryExpander(llm, QueryExpander.Mode.valueOf(mode.toUpperCase(Locale.ROOT)),
                config.get(Settings.EXPANSION_QUERIES));
    }

    /** The configured reranker: none, the language model, or a named provider. */
    private static Reranker reranker(Config config, ProviderContext context, LlmClient llm) {
        String name = config.get(Settings.RERANK_PROVIDER).strip().toLowerCase(Locale.ROOT);
        if (name.equals("none")) {
            return null;
        }
        if (name.equals("llm")) {
            if (llm == null) {
                throw new ConfigException("POLYRAG_RERANK_PROVIDER=llm needs a language model: set "
                        + "POLYRAG_LLM_PROVIDER (and its URL and model), or choose another reranker");
            }
            return new LlmReranker(llm, config.get(Settings.LLM_CONTEXT_TOKENS));
        }
        // Called once, as the other best-effort steps: a rerank API in trouble (503 with Retry-After, a stall) held
        // every search for the answer's retries, minutes.
        return Providers.find(RerankerProvider.class, name, Settings.RERANK_PROVIDER).open(new ProviderContext(
                inSearch(config), context.dataDir()));
    }

    /**
     * The settings of the model calls inside a search (reranking, expansion, text-to-Cypher): no retries, and no
     * longer than a retriever may take (POLYRAG_SEARCH_TIMEOUT_MS, whole seconds up): a rerank API or a model that
     * took the call and stalled held every search for the answer's 60 s, twice over with the body's own wait.
     */
    static Config inSearch(Config config) {
        int seconds = (int) Math.max(1, Math.min(config.get(Settings.LLM_TIMEOUT_SECONDS),
                (config.get(Settings.SEARCH_TIMEOUT_MS) + 999L) / 1000));
        return config.with(Settings.LLM_MAX_RETRIES, 0).with(Settings.LLM_TIMEOUT_SECONDS, seconds);
    }

    /**
     * A shared catalog is how replicas run; an embedded graph or RDF store beside it (on by default) would hold only
     * what this replica ingested. One replica over a shared catalog is fine, so this is a warning, not a refusal.
     */
    private void warnIfReplicasWouldSplit(Config config) {
        if (!catalog.shared()) {
            return;
        }
        List<String> local = new ArrayList<>();
        if (graph != null && config.get(Settings.GRAPH_BACKEND).strip().equalsIgnoreCase("kuzu")) {
            local.add("the graph store (kuzu): POLYRAG_GRAPH_BACKEND=neo4j or POLYRAG_GRAPH_ENABLED=false");
        }
        if (rdf != null && config.get(Settings.RDF_BACKEND).strip().equalsIgnoreCase("tdb2")) {
            local.add("the RDF store (tdb2): POLYRAG_RDF_BACKEND=sparql or POLYRAG_RDF_ENABLED=false");
        }
        // The two text legs too: left at their embedded default, each replica's Lucene holds its own ingests only.
        if (config.get(Settings.VECTOR_ENABLED) && config.get(Settings.VECTOR_BACKEND).strip().equalsIgnoreCase(
                "lucene")) {
            local.add("the vector store (lucene): POLYRAG_VECTOR_BACKEND=pgvector");
        }
        if (config.get(Settings.FULLTEXT_ENABLED) && config.get(Settings.FULLTEXT_BACKEND).strip()
                .equalsIgnoreCase("lucene")) {
            local.add("the full-text store (lucene): POLYRAG_FULLTEXT_BACKEND=postgres or opensearch");
        }
        if (!local.isEmpty()) {
            System.getLogger(Components.class.getName()).log(System.Logger.Level.WARNING, "the catalog is shared, "
                    + "but " + String.join("; and ", local) + ". Embedded in this data directory, it holds only what "
                    + "this process ingests: with more than one replica, each would answer from part of the "
                    + "collection (docs/deploy.md)");
        }
    }

    private <T extends AutoCloseable> T track(T resource) {
        opened.push(resource);
        return resource;
    }

    /** What, besides the bytes, decides a document's index entries: a change re-indexes unchanged files. */
    /**
     * Loads what opens on first use — the embedding model, the parsers — so a server's first search and upload do
     * not wait for them. A failure is logged: the request that needs the part reports it again.
     */
    void warmUp() {
        try {
            if (lazyModel != null) {
                lazyModel.load();
            }
            if (parser instanceof LazyParser lazy) {
                lazy.mediaTypes();
            }
        } catch (RuntimeException ex) {
            System.getLogger(Components.class.getName()).log(System.Logger.Level.ERROR, "cannot load the embedding "
                    + "model or the parsers: " + ex.getMessage(), ex);
        }
    }

    /** Whether the embedding model and the parsers are loaded (for tests: what a command should not load). */
    boolean modelLoaded() {
        return lazyModel == null ? embedder != null : lazyModel.isLoaded();
    }

    boolean parsersLoaded() {
        return !(parser instanceof LazyParser lazy) || lazy.opened();
    }

    /**
     * What, besides a file's bytes, decides what it is indexed as: a file ingested again under another signature is
     * indexed again, not reported unchanged. {@code contexts} is the model writing chunk contexts, or {@code off}.
     */
    private static String signature(Config c, Embedder e, String contexts) {
        return "vector=" + (e == null ? "off" : e.modelId()) + ";fulltext=" + c.get(Settings.FULLTEXT_ENABLED)
                + ";graph=" + c.get(Settings.GRAPH_ENABLED) + ";rdf=" + c.get(Settings.RDF_ENABLED)
                + ";chunk=" + c.get(Settings.CHUNK_MAX_TOKENS) + "/" + c.get(Settings.CHUNK_OVERLAP_TOKENS)
                + ";parser=" + c.get(Settings.INGEST_PARSER) + (contexts.equals("off") ? "" : ";context=" + contexts);
    }

    private static HybridSearcher.Options searchOptions(Config c) {
        return new HybridSearcher.Options(c.get(Settings.SEARCH_CANDIDATES), c.get(Settings.SEARCH_TIMEOUT_MS),
                FusionMethod.parse(c.get(Settings.FUSION_METHOD)), c.get(Settings.FUSION_RRF_K),
                Map.of(Modality.VECTOR, c.get(Settings.FUSION_WEIGHT_VECTOR), Modality.FULLTEXT,
                        c.get(Settings.FUSION_WEIGHT_FULLTEXT), Modality.GRAPH, c.get(Settings.FUSION_WEIGHT_GRAPH),
                        Modality.RDF, c.get(Settings.FUSION_WEIGHT_RDF)),
                Fusion.Normalization.valueOf(c.get(Settings.FUSION_NORMALIZATION).toUpperCase(Locale.ROOT)),
                c.get(Settings.DEDUP_OVERLAP),
                c.get(Settings.SEARCH_MAX_QUERY_CHARS), c.get(Settings.SEARCH_MAX_TOP_K),
                c.get(Settings.RERANK_CANDIDATES));
    }

    @Override
    public void close() {
        RuntimeException first = null;
        while (!opened.isEmpty()) {
            try {
                opened.pop().close();
            } catch (Exception e) {
                if (first == null) {
                    first = e instanceof RuntimeException re ? re : new IllegalStateException(e);
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
