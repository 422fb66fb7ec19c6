// style(file): every setting declared in one registry, which Config, the generated reference and the drift test read
package io.polyrag.core.config;

import io.polyrag.core.ConfigException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Every setting polyrag reads, declared once. {@code docs/configuration.md} is generated from this class (a test
 * fails when they drift) and a test fails if any code reads a setting not declared here.
 */
public final class Settings {
    private Settings() {
    }

    // ---- general
    public static final Setting<Path> CONFIG_FILE = Setting.path("config.file", null,
            "A properties file with settings (dotted keys or POLYRAG_ names). Environment variables override it.");
    public static final Setting<Path> DATA_DIR = Setting.path("data.dir", Path.of("data"),
            "Directory holding every embedded store, the catalog and staged uploads. One process at a time.");
    public static final Setting<String> LOG_LEVEL = Setting.choice("log.level", "info",
            List.of("error", "warn", "info", "debug"), "Log verbosity.");
    public static final Setting<String> LOG_FORMAT = Setting.choice("log.format", "text", List.of("text", "json"),
            "Log lines on standard error: text, or json (one object per line with level, logger, message and the "
            + "request_id, tenant and job they belong to) for log shippers.");

    // ---- modalities and backends
    public static final Setting<String> CDS = Setting.choice("cds", "on", List.of("on", "off"),
            "Read by the ./polyrag launcher (environment only): on, the commands start from a class-data archive of "
            + "the classes they load, made by a warm-up run once per build and JDK (a command starts in about half "
            + "the time); off runs without it.");
    public static final Setting<String> JIT = Setting.choice("jit", "auto", List.of("auto", "quick", "full"),
            "Read by the ./polyrag launcher (environment only): auto runs short commands (search, ask, config, keys, "
            + "--help, the MCP adapter) with the JIT's first tier only, which starts them faster on a small machine, "
            + "and servers, ingests and evaluations with both tiers; quick gives every command the first tier only, "
            + "full every command both.");
    public static final Setting<Boolean> VECTOR_ENABLED = Setting.bool("vector.enabled", true,
            "Run the vector (semantic) modality. When off, no embedding model is loaded.");
    public static final Setting<String> VECTOR_BACKEND = Setting.name("vector.backend", "lucene",
            "Vector store provider.");
    public static final Setting<Integer> VECTOR_EXACT_THRESHOLD = Setting.integer("vector.exact.threshold", 2000, 0,
            10_000_000, "Below this many vectors a search scans them all (exact; as fast as the graph at that size); "
                    + "above it, the HNSW graph answers with at least 100 candidates (recall@10 1.000 against a scan "
                    + "at 10,000 vectors, in half its time).");
    public static final Setting<String> VECTOR_QUANTIZATION = Setting.choice("vector.quantization", "none",
            List.of("none", "int7", "int4", "int1"), "How the embedded (Lucene) vector index keeps the copy of each "
                    + "vector its HNSW graph is searched with: none (32-bit floats), int7, int4 or int1 (4x, 8x, 32x "
                    + "less memory on the search path). The full vectors are kept too and re-score the candidates, so "
                    + "rankings stay close to exact; see docs/benchmarks.md for recall. Applies to vectors written from "
                    + "then on (a merge rewrites older ones); other vector backends ignore it.");
    public static final Setting<Boolean> FULLTEXT_ENABLED = Setting.bool("fulltext.enabled", true,
            "Run the full-text (BM25) modality.");
    public static final Setting<String> BLOB_BACKEND = Setting.name("blob.backend", "filesystem",
            "Where uploaded originals, and uploads waiting for their job, are kept (GET /v1/documents/{id}/content): "
                    + "filesystem (POLYRAG_BLOB_DIR) or s3 (a bucket: POLYRAG_S3_BUCKET, POLYRAG_S3_ENDPOINT, …). "
                    + "Replicas must share it, so any of them can run an upload job.");
    public static final Setting<String> BLOB_DIR = Setting.string("blob.dir", "",
            "Directory of the filesystem blob store; empty: <data>/blobs. Replicas may share one they all mount.");
    public static final Setting<String> FULLTEXT_BACKEND = Setting.name("fulltext.backend", "lucene",
            "Full-text store provider: lucene (embedded), postgres (POLYRAG_POSTGRES_URL) or opensearch "
            + "(POLYRAG_OPENSEARCH_URL).");
    public static final Setting<Double> BM25_K1 = Setting.decimal("fulltext.bm25.k1", 0.9, 0.0, 10.0,
            "BM25 term-frequency saturation. Applies when the index is opened; no re-index needed.");
    public static final Setting<Double> BM25_B = Setting.decimal("fulltext.bm25.b", 0.4, 0.0, 1.0,
            "BM25 length normalisation. Applies when the index is opened; no re-index needed.");
    public static final Setting<Double> FULLTEXT_DOCUMENT_WEIGHT = Setting.decimal("fulltext.document.weight", 0.5,
            0.0, 1.0, "Share of a passage's full-text score that is its whole document's BM25 (the rest is the "
                    + "passage's own), so a document holding the query's words across several passages ranks as a "
                    + "whole; 0 scores passages alone. Every full-text backend keeps whole texts; an index written before "
                    + "they were kept scores passages alone until 'polyrag reindex --modality fulltext --all'. A "
                    + "search's own 'fulltext_document_weight' or its knowledge base's tuning overrides it.");
    public static final Setting<Double> VECTOR_DOCUMENT_WEIGHT = Setting.decimal("vector.document.weight", 0.5,
            0.0, 1.0, "Share of a passage's vector score that is its whole document's cosine (the rest is the "
                    + "passage's own), for documents embedded whole too at ingest: those cut into three passages or "
                    + "more that fit the model's window as a whole (small chunks, short sections; one more embedding "
                    + "each); 0 scores passages alone and embeds no document whole. The embedded (Lucene) and "
                    + "PostgreSQL vector stores keep whole vectors; an index written before scores passages alone "
                    + "until 'polyrag reindex --modality vector --all'. A search's own 'vector_document_weight' or "
                    + "its knowledge base's tuning overrides it.");
    public static final Setting<Boolean> GRAPH_ENABLED = Setting.bool("graph.enabled", false,
            "Run the graph arms: entities and relations are extracted at ingest and walked at query time (the property "
                    + "graph, and the RDF statements unless rdf.enabled says otherwise). Off by default until search "
                    + "under load meets its target; on, it answers questions of two hops (docs/graph.md has what it "
                    + "costs and buys). Replicas need graph.backend=neo4j and rdf.backend=sparql (or rdf.enabled=false), "
                    + "or this off.");
    public static final Setting<String> GRAPH_BACKEND = Setting.name("graph.backend", "kuzu",
            "Property-graph store provider: kuzu (embedded) or neo4j (any Bolt server).");
    public static final Setting<String> GRAPH_NEO4J_URI = Setting.string("graph.neo4j.uri", "bolt://127.0.0.1:7687",
            "Bolt URI of the Neo4j server, for graph.backend=neo4j.");
    public static final Setting<String> GRAPH_NEO4J_USER = Setting.string("graph.neo4j.user", "neo4j",
            "Neo4j user name.");
    public static final Setting<String> GRAPH_NEO4J_PASSWORD = Setting.string("graph.neo4j.password", null,
            "Neo4j password; empty connects without authentication.").secret();
    public static final Setting<String> GRAPH_NEO4J_DATABASE = Setting.string("graph.neo4j.database", "neo4j",
            "Neo4j database name.");
    public static final Setting<Integer> GRAPH_NEO4J_TIMEOUT_SECONDS = Setting.integer("graph.neo4j.timeout.seconds",
            10, 1, 600, "How long a Neo4j call may try to connect, and retry a transaction the server could not run "
                    + "(it was down or unreachable), before it fails, and how long a search's lookup may run on the "
                    + "server; a search's graph leg is bounded sooner by search.graph.lag.ms.");
    public static final Setting<Boolean> RDF_ENABLED = Setting.bool("rdf.enabled", false,
            "Run the RDF modality: relations stored as reified statements and searched with SPARQL. Unset, it follows "
                    + "graph.enabled; replicas need rdf.backend=sparql, or this off.");
    public static final Setting<String> RDF_BACKEND = Setting.name("rdf.backend", "tdb2",
            "RDF store provider: tdb2 (embedded Apache Jena TDB2) or sparql (any SPARQL 1.1 endpoint).");
    public static final Setting<String> RDF_SPARQL_QUERY_URL = Setting.string("rdf.sparql.query.url", null,
            "SPARQL query endpoint, for rdf.backend=sparql, e.g. http://host:3030/ds/query.");
    public static final Setting<String> RDF_SPARQL_UPDATE_URL = Setting.string("rdf.sparql.update.url", null,
            "SPARQL update endpoint, for rdf.backend=sparql, e.g. http://host:3030/ds/update.");
    public static final Setting<String> RDF_SPARQL_USER = Setting.string("rdf.sparql.user", null,
            "User for HTTP basic authentication at the SPARQL endpoint; empty for none.");
    public static final Setting<String> RDF_SPARQL_PASSWORD = Setting.string("rdf.sparql.password", null,
            "Password for HTTP basic authentication at the SPARQL endpoint.").secret();
    public static final Setting<Integer> RDF_SPARQL_TIMEOUT_SECONDS = Setting.integer("rdf.sparql.timeout.seconds",
            30, 1, 600, "Timeout of one request to the SPARQL endpoint.");
    public static final Setting<String> RDF_GRAPH = Setting.string("rdf.graph", "urn:polyrag:graph",
            "IRI of the named graph polyrag writes its statements into (so it can share an endpoint).");
    public static final Setting<String> CATALOG_BACKEND = Setting.name("catalog.backend", "h2",
            "Catalog provider (documents, chunk text, jobs): h2 (embedded) or postgres.");
    public static final Setting<String> DURABILITY = Setting.choice("durability", "process", List.of("process", "fsync"),
            "What an acknowledged write survives. process: a crash of polyrag (kill -9, out of memory); the embedded "
                    + "catalog's last commits may still be in the operating system's cache when the machine loses "
                    + "power. fsync: the machine losing power too; every acknowledged write (catalog, full-text and "
                    + "vector commits, RDF and graph stores, originals and staged uploads) has reached the disk before "
                    + "the answer, at a cost on ingest (docs/durability.md, docs/benchmarks.md).");
    public static final Setting<Integer> CATALOG_CACHE_MB = Setting.integer("catalog.cache.mb", 0, 0, 65536,
            "Page cache of the embedded H2 catalog, in MB; 0: an eighth of the JVM's heap, between 64 and 1024. Every "
                    + "search reads its hits' chunk text from the catalog: a cache that holds the chunks table keeps "
                    + "those reads in memory (at 100k chunks the table is about 300 MB).");

    // ---- s3 (stored originals)
    public static final Setting<String> S3_ENDPOINT = Setting.string("s3.endpoint", "",
            "URL of the S3-compatible store for POLYRAG_BLOB_BACKEND=s3 (e.g. http://minio:9000); empty: AWS S3.");
    public static final Setting<String> S3_REGION = Setting.string("s3.region", "us-east-1",
            "Region of the bucket.");
    public static final Setting<String> S3_BUCKET = Setting.string("s3.bucket", "",
            "Bucket the stored originals go to; it must exist.");
    public static final Setting<String> S3_PREFIX = Setting.string("s3.prefix", "originals/",
            "Prefix of every object polyrag writes, so it can share a bucket: one prefix per deployment (two under "
            + "one overwrite each other's originals and sweep each other's queued uploads).");
    public static final Setting<Boolean> S3_PATH_STYLE = Setting.bool("s3.path.style", false,
            "Address the bucket in the path (http://host/bucket/key), as MinIO and most self-hosted stores want, "
            + "instead of the host name. Unset, it is true when POLYRAG_S3_ENDPOINT is set (as the S3 source's "
            + "path_style) and false for AWS.");
    public static final Setting<String> S3_ACCESS_KEY = Setting.string("s3.access.key", "",
            "Access key id; empty (with the secret key): the AWS SDK's default credentials (environment, profile, "
            + "instance role).").secret();
    public static final Setting<String> S3_SECRET_KEY = Setting.string("s3.secret.key", "",
            "Secret access key.").secret();
    public static final Setting<Integer> S3_TIMEOUT_SECONDS = Setting.integer("s3.timeout.seconds", 30, 1, 600,
            "Connect and read timeout of one request to the store.");

    // ---- postgresql (catalog, pgvector, full text)
    public static final Setting<String> OPENSEARCH_URL = Setting.string("opensearch.url", "",
            "Base URL of the OpenSearch cluster the opensearch full-text store uses (e.g. https://search:9200); "
            + "polyrag creates its index itself.");
    public static final Setting<String> OPENSEARCH_INDEX = Setting.string("opensearch.index", "polyrag-fulltext",
            "The OpenSearch index holding every knowledge base's chunks (one index, filtered by knowledge base).");
    public static final Setting<String> OPENSEARCH_USER = Setting.string("opensearch.user", "",
            "OpenSearch user for basic authentication; empty: none.");
    public static final Setting<String> OPENSEARCH_PASSWORD = Setting.string("opensearch.password", "",
            "OpenSearch password for basic authentication.").secret();
    public static final Setting<Integer> OPENSEARCH_TIMEOUT_SECONDS = Setting.integer("opensearch.timeout.seconds", 30,
            1, 600, "How long one OpenSearch request may take.");
    public static final Setting<String> POSTGRES_URL = Setting.string("postgres.url", "",
            "JDBC URL of the PostgreSQL database the postgres catalog, the pgvector store and the postgres full-text "
            + "store use (e.g. jdbc:postgresql://db:5432/polyrag); polyrag creates its tables itself.");
    public static final Setting<String> POSTGRES_USER = Setting.string("postgres.user", "",
            "PostgreSQL user; empty: the one in the URL, if any.");
    public static final Setting<String> POSTGRES_PASSWORD = Setting.string("postgres.password", "",
            "PostgreSQL password; empty: the one in the URL, if any.").secret();
    public static final Setting<Integer> POSTGRES_POOL_SEARCH = Setting.integer("postgres.pool.search", 8, 1, 200,
            "Connections for searches (per pool: the catalog's and each PostgreSQL store's), kept apart from "
            + "ingest so a slow ingest never starves search.");
    public static final Setting<Integer> POSTGRES_POOL_INGEST = Setting.integer("postgres.pool.ingest", 4, 1, 200,
            "Connections for writes (per pool, as above).");
    public static final Setting<Integer> POSTGRES_POOL_JOBS = Setting.integer("postgres.pool.jobs", 2, 1, 50,
            "Connections of the catalog's job queue (claims, heartbeats, progress).");
    public static final Setting<Integer> POSTGRES_CONNECT_TIMEOUT_SECONDS = Setting.integer(
            "postgres.connect.timeout.seconds", 10, 1, 300,
            "How long to wait for a PostgreSQL connection before failing with an error naming the address.");

    // ---- embeddings
    public static final Setting<String> EMBEDDING_PROVIDER = Setting.name("embedding.provider", "onnx",
            "Embedding provider.");
    public static final Setting<String> EMBEDDING_MODEL = Setting.string("embedding.model", "bge-small-en-v1.5-q",
            "Embedding model: a model bundled with polyrag, or any name when embedding.model.dir is set.");
    public static final Setting<Path> EMBEDDING_MODEL_DIR = Setting.path("embedding.model.dir", null,
            "Directory with model.onnx and tokenizer.json of a custom model (an ONNX export of a Hugging Face "
                    + "model). Its pooling and query/passage prompts are read from its sentence-transformers files "
                    + "(1_Pooling/config.json, config_sentence_transformers.json) when present, else mean pooling and "
                    + "no prefixes; the settings below override them.");
    public static final Setting<String> EMBEDDING_POOLING = Setting.choice("embedding.pooling", "auto",
            List.of("auto", "cls", "mean", "max", "lasttoken"), "How token vectors become one (first token, mean, "
                    + "element-wise max, last token, as decoder embedding models want): auto takes the model's own "
                    + "(bundled models know theirs; a custom model's comes from 1_Pooling/config.json, else mean).");
    public static final Setting<String> EMBEDDING_QUERY_PREFIX = Setting.string("embedding.query.prefix", null,
            "Text put before every query, e.g. an instruction or 'query: '; unset takes the model's own (a custom "
                    + "model's prompts.query from config_sentence_transformers.json), empty means none.");
    public static final Setting<String> EMBEDDING_PASSAGE_PREFIX = Setting.string("embedding.passage.prefix", null,
            "Text put before every passage, e.g. 'passage: '; unset takes the model's own (a custom model's "
                    + "prompts.document or prompts.passage), empty means none.");
    public static final Setting<Boolean> EMBEDDING_CACHE = Setting.bool("embedding.cache", true,
            "Keep every passage vector in the catalog keyed by (model, text hash), so re-indexing unchanged text "
                    + "(a changed file, new chunking, a rebuilt index) does not run the model again.");
    public static final Setting<Integer> EMBEDDING_QUERY_CACHE = Setting.integer("embedding.query.cache", 1024, 0,
            1_000_000, "Query vectors kept in memory, the most recently used, so a query asked again (a page "
                    + "refreshed, an answer drawn from the search before it, an agent retrying) is not embedded "
                    + "again; about dimension × 4 bytes each (1.5 KB for the bundled model). Shared by all tenants: one can tell "
                    + "from a search's speed that the same text was searched recently (docs/tenancy.md). 0 turns it "
                    + "off.");
    public static final Setting<Integer> EMBEDDING_THREADS = Setting.integer("embedding.threads", 0, 0, 256,
            "Texts embedded in parallel (one model run per text); 0 means one per CPU core.");
    public static final Setting<Integer> EMBEDDING_MAX_TOKENS = Setting.integer("embedding.max.tokens", 512, 16,
            8192, "Tokens of one text the model reads; the rest is truncated. No more than the model reads (512 for "
                    + "the bundled model; a custom model's config.json says): a larger value is refused at start.");

    // ---- language model (optional)
    public static final Setting<String> LLM_PROVIDER = Setting.name("llm.provider", "none",
            "Chat model for answers: none (extractive answers, offline), openai (any OpenAI-compatible server) or "
                    + "anthropic.");
    public static final Setting<String> LLM_BASE_URL = Setting.string("llm.base.url", null,
            "Base URL of the chat API: for openai including the version path (e.g. http://localhost:11434/v1 for "
                    + "Ollama); for anthropic the API's root.");
    public static final Setting<String> LLM_API_KEY = Setting.string("llm.api.key", null,
            "API key sent to the chat API (Bearer for openai, x-api-key for anthropic).").secret();
    public static final Setting<String> LLM_MODEL = Setting.string("llm.model", null, "Model name the API expects.");
    public static final Setting<Integer> LLM_MAX_ANSWER_TOKENS = Setting.integer("llm.max.answer.tokens", 800, 16,
            32000, "Longest answer the model may write; an answer stopped there says so in its note (and "
                    + "finish_reason \"length\" on /v1/chat/completions).");
    public static final Setting<Integer> LLM_CONTEXT_TOKENS = Setting.integer("llm.context.tokens", 16000, 500,
            2_000_000, "Most of the model's context a generated answer's sources may take, estimated at four "
                    + "characters a token: the best-ranked sources' hit passages first, then their neighbours; a "
                    + "source that does not fit is left out, and not listed (the LLM reranker's prompt cuts each "
                    + "candidate to its share of it). Set it below the model's window less "
                    + "POLYRAG_LLM_MAX_ANSWER_TOKENS (a local model served with a 4,096-token window: about 3000).");
    public static final Setting<Integer> LLM_TIMEOUT_SECONDS = Setting.integer("llm.timeout.seconds", 60, 1, 600,
            "Time one chat call may take before it is abandoned (and retried, as a transient failure); for a "
            + "streamed call, the longest silence between two of its lines (the whole stream may run longer), "
            + "retried only before its first line. The calls inside a search (reranking, expansion, text-to-Cypher) "
            + "get no more than POLYRAG_SEARCH_TIMEOUT_MS.");
    public static final Setting<Integer> LLM_MAX_RETRIES = Setting.integer("llm.max.retries", 3, 0, 10,
            "Retries of a transient failure (429, 5xx, timeout, dropped connection) of answers and extraction; other "
                    + "errors are not retried, and a search's best-effort steps (condensing, expansion, reranking by "
                    + "the model or a rerank API, text-to-Cypher, the intent router) call once, then fall back.");

    // ---- query expansion (optional)
    public static final Setting<String> EXPANSION_MODE = Setting.choice("expansion.mode", "none",
            List.of("none", "multiquery", "hyde"), "Query expansion by the language model: paraphrases of the query "
                    + "(multiquery) or a hypothetical answer passage (hyde), searched and fused with the query.");
    public static final Setting<Integer> EXPANSION_QUERIES = Setting.integer("expansion.queries", 3, 1, 10,
            "Paraphrases written per query in multiquery mode.");

    // ---- reranking (optional)
    public static final Setting<String> RERANK_PROVIDER = Setting.name("rerank.provider", "none",
            "Second-stage reranker: none, onnx (a cross-encoder file, see rerank.model.dir), http (a rerank API, see "
                    + "rerank.format) or llm (the configured language model).");
    public static final Setting<Path> RERANK_MODEL_DIR = Setting.path("rerank.model.dir", null,
            "Directory with a cross-encoder's model.onnx and tokenizer.json, for rerank.provider=onnx.");
    public static final Setting<String> RERANK_FORMAT = Setting.choice("rerank.format", "tei",
            List.of("tei", "cohere"), "Wire format of the rerank API: tei (Hugging Face text-embeddings-inference, "
                    + "POST <url>/rerank) or cohere (Cohere and Jina, POST <url>/v1/rerank).");
    public static final Setting<String> RERANK_URL = Setting.string("rerank.url", null,
            "Base URL of the rerank API.");
    public static final Setting<String> RERANK_MODEL = Setting.string("rerank.model", null,
            "Model name sent to a cohere-format rerank API.");
    public static final Setting<String> RERANK_API_KEY = Setting.string("rerank.api.key", null,
            "Bearer token for the rerank API.").secret();
    public static final Setting<Integer> RERANK_CANDIDATES = Setting.integer("rerank.candidates", 30, 1, 1000,
            "Fused hits handed to the reranker; the best top_k of them are returned.");

    // ---- chunking
    public static final Setting<Integer> CHUNK_MAX_TOKENS = Setting.integer("chunk.max.tokens", 300, 32, 8192,
            "Largest chunk, in the embedding model's tokens (a word-based estimate when no model is loaded).");
    public static final Setting<Integer> CHUNK_OVERLAP_TOKENS = Setting.integer("chunk.overlap.tokens", 40, 0, 4096,
            "Tokens of trailing sentences repeated at the start of the next prose chunk. Must be below "
                    + "chunk.max.tokens.");

    // ---- search
    public static final Setting<Integer> SEARCH_TOP_K = Setting.integer("search.top.k", 10, 1, 1000,
            "Hits returned when a search does not say.");
    public static final Setting<Integer> SEARCH_MAX_TOP_K = Setting.integer("search.max.top.k", 200, 1, 10000,
            "Largest top_k a search may ask for; more is rejected with 400.");
    public static final Setting<Integer> CONVERSATIONS_RETENTION_DAYS = Setting.integer(
            "conversations.retention.days", 30, 0, 3650, "Conversations kept on the server (POST /v1/query with "
                    + "conversation_id) are deleted this many days after their last message; 0 keeps them until "
                    + "deleted (DELETE /v1/conversations/{id}).");
    public static final Setting<String> CONVERSATIONS_CONDENSE = Setting.choice("conversations.condense", "auto",
            List.of("auto", "offline"), "How a conversation's next question becomes its retrieval query: auto asks "
                    + "the configured language model (POLYRAG_LLM_PROVIDER) to condense the earlier questions and the "
                    + "new one into one standalone query, one short call per follow-up, and falls back to the offline "
                    + "rewrite when there is none or it fails; offline never asks it (the earlier turns' names and "
                    + "content words carried into an elliptical follow-up).");
    public static final Setting<Integer> SEARCH_CANDIDATES = Setting.integer("search.candidates", 100, 1, 10000,
            "Candidates each retriever returns, and how deep fusion scores each list. A search of top_k above it "
                    + "makes the legs top_k deep, whose tops can differ a little; a search's own 'candidates' (1-1000) "
                    + "or its knowledge base's tuning overrides it.");
    public static final Setting<Integer> SEARCH_TIMEOUT_MS = Setting.integer("search.timeout.ms", 10000, 1, 600000,
            "Time each retriever gets; one that runs over returns nothing and is reported as degraded.");
    public static final Setting<Integer> SEARCH_MAX_QUERY_CHARS = Setting.integer("search.max.query.chars", 2000, 1,
            100000, "Longest query accepted; longer is rejected with 400.");
    public static final Setting<String> FUSION_METHOD = Setting.choice("fusion.method", "weighted",
            List.of("weighted", "rrf"), "How rankings are fused: weighted normalised scores (a convex combination) "
                    + "or reciprocal rank fusion. docs/evaluation.md has the measurements behind the default.");
    public static final Setting<String> FUSION_NORMALIZATION = Setting.choice("fusion.normalization", "zscore",
            List.of("zscore", "minmax"), "How weighted fusion puts each retriever's scores on one scale: shifted to "
                    + "the list's lowest score, divided by the standard deviation (zscore) or the range (minmax).");
    public static final Setting<Integer> FUSION_RRF_K = Setting.integer("fusion.rrf.k", 60, 1, 100000,
            "The k of reciprocal rank fusion: score = sum of 1 / (k + rank).");
    public static final Setting<Double> FUSION_WEIGHT_VECTOR = Setting.decimal("fusion.weight.vector", 0.5, 0.0, 1.0,
            "Weight of the vector modality in weighted fusion.");
    public static final Setting<Double> FUSION_WEIGHT_FULLTEXT = Setting.decimal("fusion.weight.fulltext", 0.5, 0.0,
            1.0, "Weight of the full-text modality in weighted fusion.");
    public static final Setting<Double> DEDUP_OVERLAP = Setting.decimal("dedup.overlap", 0.8, 0.5, 1.0,
            "Word overlap (Jaccard) at which two hits count as duplicates and are merged.");

    public static final Setting<Integer> ANSWER_TOP_K = Setting.integer("answer.top.k", 8, 1, 100,
            "Hits an answer draws its sources from when the request does not say (after reranking, when on).");
    public static final Setting<Integer> ANSWER_NEIGHBOURS = Setting.integer("answer.neighbours", 1, 0, 5,
            "Chunks added before and after each retrieved chunk when an answer's sources are assembled.");
    public static final Setting<Boolean> CONTEXTUAL_ENABLED = Setting.bool("contextual.enabled", false,
            "Contextual retrieval: at ingest the language model (llm.provider) writes one or two sentences situating "
                    + "each chunk in its document, indexed with the chunk (embedded and full text; never shown in "
                    + "citations) and cached by model, prompt, document and chunk text. Chunks ingested before it was on get "
                    + "theirs from 'polyrag reindex --modality vector --all' (then fulltext).");
    public static final Setting<Integer> CONTEXTUAL_TOKEN_BUDGET = Setting.integer("contextual.token.budget", 0, 0,
            Integer.MAX_VALUE, "Most language-model tokens one ingest may spend on chunk contexts; when reached, the "
                    + "rest is indexed without one (a warning says so). 0 means no limit.");
    public static final Setting<Integer> CONTEXTUAL_CONCURRENCY = Setting.integer("contextual.concurrency", 4, 1, 64,
            "Chunk-context calls made to the language model at once during an ingest.");
    public static final Setting<Integer> CONTEXTUAL_DOCUMENT_WORDS = Setting.integer("contextual.document.words",
            2000, 100, 100_000, "How much of its document a chunk's context call shows the model, in words (the "
                    + "document's opening; the chunk itself is always sent whole).");
    public static final Setting<Boolean> ANSWER_ROUTER = Setting.bool("answer.router", false,
            "Decide what a question asks for before answering it (lookup, summary, comparison, list, small talk, out "
                    + "of scope) — by the language model when one is configured, else by rules over its words — and "
                    + "answer accordingly: small talk directly without searching, a summary from the document read "
                    + "in order, a list or comparison from a wider search. A request's 'route' overrides it.");

    // ---- knowledge graph
    public static final Setting<String> GRAPH_EXTRACTOR = Setting.choice("graph.extractor", "auto",
            List.of("auto", "offline", "llm"), "Entity and relation extractor: offline (part-of-speech noun phrases "
                    + "and co-occurrence, no key needed), llm (the configured language model), or auto (llm when "
                    + "llm.provider is set, else offline).");
    public static final Setting<String> GRAPH_STRATEGY = Setting.choice("graph.strategy", "dynamic",
            List.of("schema_constrained", "dynamic", "simple"), "How the language model extracts: only the "
                    + "types and relations of graph.schema.file, or without one the graph's own vocabulary "
                    + "(schema_constrained); the vocabulary where it fits and its own types and predicates where "
                    + "none does (dynamic); or plain names and relations (simple).");
    public static final Setting<Path> GRAPH_SCHEMA_FILE = Setting.path("graph.schema.file", null,
            "JSON ontology for schema_constrained extraction: {\"entities\": [types], \"relations\": "
                    + "[{\"name\", \"from\", \"to\"}]}. Unset: the graph's own vocabulary (docs/graph.md).");
    public static final Setting<Integer> GRAPH_TOKEN_BUDGET = Setting.integer("graph.token.budget", 0, 0,
            Integer.MAX_VALUE, "Most language-model tokens one ingest may spend on extraction; when reached, "
                    + "extraction stops cleanly and the rest is indexed without a graph part. 0 means no limit.");
    public static final Setting<Integer> GRAPH_EXTRACT_CHUNK_MS = Setting.integer("graph.extract.chunk.ms", 2000, 10,
            600_000, "Longest entity extraction may spend on one chunk; a document with a chunk that takes longer "
            + "(text no real document has) is indexed without graph relations, with a warning naming it.");
    public static final Setting<Integer> GRAPH_EXTRACT_BATCH_SECONDS = Setting.integer("graph.extract.batch.seconds",
            300, 1, 86400, "Longest entity extraction may take for one batch of documents being written; documents "
            + "it did not reach in time are indexed without graph relations, with a warning.");
    public static final Setting<Integer> GRAPH_MAX_HOPS = Setting.integer("graph.max.hops", 1, 0, 3,
            "Relations followed from the entities a query names to reach further entities (whose own relations "
                    + "are then read); 0 reads only the named entities' relations.");
    public static final Setting<Boolean> GRAPH_TEXT2CYPHER = Setting.bool("graph.text2cypher", false,
            "Also let the language model write a read-only Cypher query from the graph schema (write clauses, "
                    + "comments and more than one statement are refused, and it runs in a read-only transaction). It "
                    + "reads the whole graph store: keep it off on a server with several tenants (docs/tenancy.md).");
    public static final Setting<Double> FUSION_WEIGHT_GRAPH = Setting.decimal("fusion.weight.graph", 0.3, 0.0, 1.0,
            "Weight of the graph modality in weighted fusion (its scores are calibrated confidences, counted on the "
                    + "scale of the other lists' best).");
    public static final Setting<Double> FUSION_WEIGHT_RDF = Setting.decimal("fusion.weight.rdf", 0.3, 0.0, 1.0,
            "Weight of the RDF modality in weighted fusion (as the graph's).");
    public static final Setting<Integer> SEARCH_GRAPH_LAG_MS = Setting.integer("search.graph.lag.ms", 50, 0, 60_000,
            "How long after the slower text leg (vector, full text) the graph and RDF legs may still finish and "
                    + "count; a leg later than that is left out of that search and listed under degraded with the "
                    + "reason. Bounds what the graph legs add to a search's latency (reading their copy in memory "
                    + "they take about a millisecond; a networked graph store may take longer).");
    public static final Setting<Boolean> METRICS_TENANT_LABEL = Setting.bool("metrics.tenant.label", false,
            "Count each tenant's usage at /metrics too (polyrag_tenant_usage_total with tenant and metric labels): one "
                    + "series per tenant and metric, so only where the tenants are few. GET /v1/admin/usage has the "
                    + "same figures without it.");
    public static final Setting<Integer> SLOW_SEARCH_MS = Setting.integer("slow.search.ms", 1000, 0, 3_600_000,
            "A search (or an answer's search) that takes at least this long is logged once, as a warning, with where "
                    + "its time went: each retriever leg, fusion, the catalog join and dedup, reranking; 0 logs none.");
    public static final Setting<Double> FUSION_GRAPH_SURE_WEIGHT = Setting.decimal("fusion.graph.sure.weight", 1.5,
            0.0, 10.0, "Weight of a graph or RDF leg that is sure of a search: the query asks about two relations (a "
                    + "two-hop question) and the walk found strong evidence one relation beyond the entity it "
                    + "names. Its hits can then outrank the text legs'. Otherwise POLYRAG_FUSION_WEIGHT_GRAPH and "
                    + "_RDF apply, and a query naming nothing the graph knows is fused from the text legs alone.");

    // ---- ingest
    public static final Setting<String> INGEST_PARSER = Setting.name("ingest.parser", "tika",
            "Parser provider that extracts text and structure from files: tika (every common document format) or "
                    + "text (plain text, Markdown and HTML only).");
    public static final Setting<Integer> INGEST_MAX_TEXT_MB = Setting.integer("ingest.max.text.mb", 64, 1, 2048,
            "Most text one document may yield, in millions of characters; more stops its parse with a reason (a "
                    + "small file that expands to gigabytes of text is refused, not loaded).");
    public static final Setting<Integer> INGEST_MAX_EXPANDED_MB = Setting.integer("ingest.max.expanded.mb", 1024, 1,
            65536, "Most a zip-based document (Word, Excel, PowerPoint, OpenDocument, EPUB) may expand to when "
                    + "decompressed, in MiB, judged from its directory before it is parsed; more, an entry expanding "
                    + "over 100 times, or entries sharing their data is refused as a zip bomb.");
    public static final Setting<Integer> INGEST_PARSE_TIMEOUT_SECONDS = Setting.integer(
            "ingest.parse.timeout.seconds", 120, 1, 3600, "Longest one file's parse by Tika (and its OCR) may "
                    + "take; a slower one is abandoned and reported. Plain text, Markdown, HTML and code are read in "
                    + "one pass, bounded by POLYRAG_INGEST_MAX_TEXT_MB instead.");
    public static final Setting<Integer> INGEST_MAX_FILE_MB = Setting.integer("ingest.max.file.mb", 64, 1, 2047,
            "Largest file accepted for ingest, in MiB; larger files are skipped with a reason (a file is read whole: "
                    + "under 2 GiB).");
    public static final Setting<Integer> INGEST_BATCH_DOCUMENTS = Setting.integer("ingest.batch.documents", 0, 0,
            1024, "Documents written to the stores together (one durable commit per batch); 0 (auto): while "
                    + "vectors are on, as many chunks as the embedder took about a second for in the last batch (16 to "
                    + "256), so progress moves as the model works and cached or fast vectors are not committed a few "
                    + "at a time; with vectors off a batch closes at 1,024 chunks, since its commits are then most "
                    + "of its cost.");
    public static final Setting<String> INGEST_DUPLICATES = Setting.choice("ingest.duplicates", "skip",
            List.of("skip", "allow"), "A new file with the same content as another document in its knowledge base "
                    + "(under another name), uploaded or ingested: skip it with a reason, or index it anyway. A document "
                    + "already indexed under its own name that changes into such a copy is updated either way.");
    public static final Setting<Integer> INGEST_STAGING_HOURS = Setting.integer("ingest.staging.hours", 24, 1, 8760,
            "Uploaded files checked by POST /v1/ingest/upload are kept this long for an ingest to pick them up.");
    public static final Setting<Integer> INGEST_WORKERS = Setting.integer("ingest.workers", 1, 0, 64,
            "Background workers running ingest jobs in this process; 0 runs none (a replica that only serves).");
    public static final Setting<Boolean> WORKER_ENABLED = Setting.bool("worker.enabled", true,
            "Whether this process runs background jobs at all; false makes a replica API-only (its jobs are run by "
            + "the replicas that have workers), whatever POLYRAG_INGEST_WORKERS says.");
    public static final Setting<Integer> INGEST_JOB_ATTEMPTS = Setting.integer("ingest.job.attempts", 3, 1, 20,
            "Runs of a job that stop without finishing (the process killed or crashing) and without getting further "
            + "than the run before, before the job is failed. A run that got further, or one stopped on purpose "
            + "(shutdown, yielding to another tenant), does not count.");
    public static final Setting<Integer> INGEST_JOB_SLICE_SECONDS = Setting.integer("ingest.job.slice.seconds", 10,
            1, 86400, "How long a job of many files may keep a worker while another tenant's job waits for one; "
            + "then it yields at its next file and resumes after (what it finished is found unchanged).");
    public static final Setting<Integer> INGEST_JOB_MAX_PENDING = Setting.integer("ingest.job.max.pending", 200, 1,
            1_000_000, "Jobs (uploads, tunings, back-fills) one tenant may have queued or running at once; one more "
                    + "is refused with 429 and Retry-After until some finish. A source's sync counts but is never "
                    + "refused (one per source at most).");
    public static final Setting<Integer> INGEST_JOB_RETENTION_DAYS = Setting.integer("ingest.job.retention.days", 30,
            0, 3650, "Finished jobs (succeeded, partial, failed, canceled) are deleted this many days after they ended "
                    + "(GET /v1/jobs/{id} is 404 then); what they indexed stays. 0 keeps them until the catalog is "
                    + "deleted.");
    public static final Setting<Integer> INGEST_JOB_STALE_SECONDS = Setting.integer("ingest.job.stale.seconds", 300,
            5, 86400, "A running job with no progress for this long is considered abandoned and claimed again.");

    // ---- figures
    public static final Setting<String> FIGURES_EXTRACT = Setting.choice("figures.extract", "auto",
            List.of("auto", "force", "skip"), "Figures taken from PDFs and Office files when an ingest does not say: "
                    + "auto (embedded images, and vector drawings next to a caption such as \"Figure 3\"), force "
                    + "(also every other region of vector drawings) or skip (none).");
    public static final Setting<Integer> FIGURES_MAX = Setting.integer("figures.max", 3, 0, 20,
            "Most figures attached to one search response or answer: those anchored to the hits first, then those "
                    + "whose captions match the query; 0 attaches none.");
    public static final Setting<Integer> FIGURES_FILE_MAX = Setting.integer("figures.file.max", 50, 0, 1000,
            "Most figures kept from one file; the rest are left out with a warning (the text is still indexed).");
    public static final Setting<Integer> FIGURES_FILE_MAX_MB = Setting.integer("figures.file.max.mb", 16, 1, 1024,
            "Most figure bytes kept from one file, in MiB.");
    public static final Setting<Integer> FIGURES_INGEST_MAX = Setting.integer("figures.ingest.max", 5000, 0,
            Integer.MAX_VALUE, "Most figures kept by one ingest (one job), over all its files.");
    public static final Setting<Integer> FIGURES_INGEST_MAX_MB = Setting.integer("figures.ingest.max.mb", 1024, 1,
            1_048_576, "Most figure bytes kept by one ingest, in MiB.");

    // ---- sources kept in sync
    public static final Setting<String> SYNC_ALLOWED_ROOTS = Setting.string("sync.allowed.roots", "",
            "Folders under which the local tenant (local mode, the command line) may register a filesystem source "
            + "(comma-separated absolute paths, checked on the real path, so '..' and symbolic links cannot leave "
            + "them); the folders given on the command line (serve PATH and --watch DIR, ingest DIR --sync) are "
            + "always allowed. Tenants with API keys get theirs from POLYRAG_SYNC_TENANT_ROOTS.");
    public static final Setting<String> SYNC_TENANT_ROOTS = Setting.string("sync.tenant.roots", "",
            "Folders each tenant's filesystem sources may read, set by the operator: 'tenant=/path,/path;other=/path' "
            + "(e.g. acme=/srv/acme;globex=/srv/globex,/srv/shared). A tenant not named may register none. Every "
            + "file a scan opens must resolve (links followed) inside its tenant's folders and outside the data "
            + "directory, or it is skipped with the reason.");
    public static final Setting<Integer> SYNC_MAX_SOURCES = Setting.integer("sync.max.sources", 100, 1, 100_000,
            "Sync sources one tenant may register (local mode counts as one): each syncs at its interval, which the "
                    + "cap on queued jobs never refuses; one more is a 409.");
    public static final Setting<Integer> SYNC_MAX_DELETE_PERCENT = Setting.integer("sync.max.delete.percent", 50, 1,
            100, "A sync that would delete more than this share of its source's documents (and at least 10) deletes "
                    + "none and says so on the source: a site moved behind a sign-in, a share remounted nearly empty. "
                    + "100: no such limit. When most of a source is really gone (or its settings were narrowed), "
                    + "allow one sync instead: POST /v1/sync/sources/{id}/sync-now?max_delete_percent=100.");
    public static final Setting<Boolean> SYNC_WATCH = Setting.bool("sync.watch", true,
            "Watch filesystem sources for changes (the JDK WatchService), so edits are indexed within seconds "
            + "instead of at the next scheduled scan.");
    public static final Setting<Boolean> SYNC_SCHEDULE = Setting.bool("sync.schedule", true,
            "Let this process queue sources' scheduled and watched syncs (with job workers on). Off: sources sync "
            + "only when asked (POST /v1/sync/sources/{id}/sync-now), here; another process with it on still schedules "
            + "them. polyrag reindex and tune run with it off.");
    public static final Setting<Boolean> SYNC_WEB_ALLOW_PRIVATE = Setting.bool("sync.web.allow.private", false,
            "Let web sources reach loopback, private, link-local and other non-public addresses. Off, a web source "
            + "can only crawl the public internet, so no tenant can make the server fetch from its own network "
            + "(cloud metadata endpoints included); every hop of a redirect is checked too.");
    public static final Setting<Integer> SYNC_WEB_TIMEOUT_SECONDS = Setting.integer("sync.web.timeout.seconds", 20,
            1, 600, "How long one web request (connect, then the whole response) may take before it counts as a "
            + "transient failure (retried twice, then reported for that page).");
    public static final Setting<Integer> SYNC_WEB_MAX_PAGE_MB = Setting.integer("sync.web.max.page.mb", 10, 1, 1024,
            "The largest web page or file a web source fetches, in MiB; a larger one is skipped with that reason.");
    public static final Setting<Boolean> SYNC_S3_ALLOW_PRIVATE = Setting.bool("sync.s3.allow.private", false,
            "Let s3 sources name an endpoint on a loopback, private, link-local or other non-public address (a MinIO "
            + "on this network). Off, an s3 source reaches public endpoints only, so no tenant can make the server "
            + "call into its own network.");
    public static final Setting<Integer> SYNC_S3_MAX_OBJECT_MB = Setting.integer("sync.s3.max.object.mb", 100, 1,
            2047, "The largest object an s3 source reads, in MiB; a larger one is skipped with that reason (an object "
                    + "is read whole: under 2 GiB).");
    public static final Setting<Integer> SYNC_S3_TIMEOUT_SECONDS = Setting.integer("sync.s3.timeout.seconds", 30, 1,
            600, "How long one request of an s3 source may take (connect, then the whole response; an object's body "
            + "this plus a second per 256 KiB it holds) before it counts as a transient failure (retried twice by "
            + "the S3 client, then reported; a body past its deadline is read again at the next sync).");

    // ---- http
    public static final Setting<String> HTTP_HOST = Setting.string("http.host", "127.0.0.1",
            "Address the REST server binds to.");
    public static final Setting<Integer> HTTP_PORT = Setting.integer("http.port", 8080, 0, 65535,
            "Port the REST server listens on; 0 picks a free one.");
    public static final Setting<Integer> HTTP_MAX_REQUEST_MB = Setting.integer("http.max.request.mb", 256, 1, 4096,
            "Largest request body, in MiB (uploads included); larger requests get 413.");
    public static final Setting<String> HTTP_CORS_ORIGINS = Setting.string("http.cors.origins", "",
            "Origins a browser may call the API from, comma-separated (e.g. https://app.example.com); empty: CORS "
                    + "off (same origin only); * for any origin. In local mode (no API key) they are also the only "
                    + "other sites whose pages may write (others get 403), and their hosts the only names besides "
                    + "localhost the server answers to (others get 421); * admits none there (another site's page is "
                    + "refused even a read).");
    public static final Setting<Integer> HTTP_SSE_HEARTBEAT_SECONDS = Setting.integer("http.sse.heartbeat.seconds",
            15, 1, 300, "Seconds between heartbeat comments on an idle event stream (/v1/events, a streamed answer of /v1/query or "
                    + "/v1/chat/completions waiting for the model), so proxies keep it.");
    public static final Setting<Boolean> HTTP_REQUIRE_KEYS = Setting.bool("http.require.keys", false,
            "Require an API key on every data route from the first start, before any key exists: no local mode, so "
                    + "the server may bind a non-loopback address (a container, a cluster). The operator key "
                    + "(POLYRAG_HTTP_ADMIN_KEY) then creates tenants' keys over POST /v1/admin/keys. Off: local mode "
                    + "until the first key is created.");
    public static final Setting<String> HTTP_ADMIN_KEY = Setting.string("http.admin.key", "",
            "Operator key for /v1/admin routes (key management, the store check) once API keys exist: at least 16 "
                    + "visible ASCII characters (openssl rand -hex 24), a shorter one is refused at start; empty: those "
                    + "routes answer only in local mode (no keys, loopback).").secret();
    public static final Setting<Integer> HTTP_AUTH_FAILURES_PER_MINUTE = Setting.integer(
            "http.auth.failures.per.minute", 20, 1, 100000,
            "Failed authentications a client address may make per minute; after that its requests with a missing "
            + "or wrong key get 429 for the rest of the minute. A valid key is never refused for it, so a flood of "
            + "bad requests from behind a shared proxy locks no tenant out. The operator's routes (/v1/admin, "
            + "/metrics) count their failures apart and stop checking guesses of the operator key once over it.");
    public static final Setting<String> HTTP_TRUSTED_PROXIES = Setting.string("http.trusted.proxies", "",
            "Addresses of the load balancers or reverse proxies in front of the server (comma-separated IPs or "
            + "CIDR ranges, e.g. 10.0.0.0/8): for a request from one of them, the client's address (for the "
            + "failed-authentication limit and the logs) is the last address in X-Forwarded-For that is not one of "
            + "them. Empty: X-Forwarded-For is ignored, as any client could write it.");

    // ---- mcp
    public static final Setting<String> MCP_TRANSPORT = Setting.choice("mcp.transport", "stdio",
            List.of("stdio", "sse", "streamable-http"), "How 'polyrag mcp' talks to its client: stdio (a desktop "
            + "client starts it), streamable-http (at /mcp) or sse (the older transport, at /sse).");
    public static final Setting<String> MCP_BACKEND_URL = Setting.string("mcp.backend.url", "",
            "The polyrag REST API the MCP tools call (e.g. http://127.0.0.1:8080); empty: 'polyrag mcp' opens the "
            + "data directory itself and serves the API on a free loopback port for its own use.");
    public static final Setting<String> MCP_API_KEY = Setting.string("mcp.api.key", "",
            "API key the MCP tools send to the REST API (the tenant they act for); empty in local mode.").secret();
    public static final Setting<String> MCP_HOST = Setting.string("mcp.host", "127.0.0.1",
            "Address the networked MCP transports bind to.");
    public static final Setting<Integer> MCP_PORT = Setting.integer("mcp.port", 8090, 0, 65535,
            "Port of the networked MCP transports; 0 picks a free one.");
    public static final Setting<String> MCP_ALLOWED_ORIGINS = Setting.string("mcp.allowed.origins",
            "http://localhost:*,http://127.0.0.1:*", "Origins a request to the networked MCP transports may carry, "
            + "comma-separated ('scheme://host:*' for any port); a request with another Origin gets 403 (against DNS "
            + "rebinding). No CORS headers are sent, so a page's cross-origin calls are still refused by its browser: "
            + "browser clients connect through a proxy of their own.");
    public static final Setting<String> MCP_ALLOWED_HOSTS = Setting.string("mcp.allowed.hosts", "",
            "Host headers the networked transports accept besides localhost, 127.0.0.1 and the bound address "
            + "(comma-separated, 'host:*' for any port), against DNS rebinding; others get 421.");
    public static final Setting<String> MCP_JWT_JWKS_URL = Setting.string("mcp.jwt.jwks.url", "",
            "Identity provider's published keys (JWKS URL): when set, the networked transports require "
            + "'Authorization: Bearer <JWT>' signed by one of them; empty: no token needed, and then they bind only "
            + "a loopback address (a non-loopback POLYRAG_MCP_HOST without it refuses to start).");
    public static final Setting<String> MCP_ALLOWED_ROOTS = Setting.string("mcp.allowed.roots", "",
            "Folders on the MCP adapter's host that start_document_ingest may read, comma-separated (checked on the "
            + "real path, links resolved, at the moment each file is opened). Over stdio, empty means any file the "
            + "user can read (the client runs on the user's machine); over streamable-http and sse, empty means "
            + "none: a network client cannot make the adapter read its host's files unless the operator names "
            + "folders here (clients can upload files through the REST API instead). The data directory is never "
            + "readable.");
    public static final Setting<String> MCP_JWT_ISSUER = Setting.string("mcp.jwt.issuer", "",
            "Required 'iss' of MCP bearer tokens; empty: not checked.");
    public static final Setting<String> MCP_JWT_AUDIENCE = Setting.string("mcp.jwt.audience", "",
            "Required 'aud' of MCP bearer tokens; must be set with POLYRAG_MCP_JWT_JWKS_URL (an identity "
                    + "provider signs tokens for other applications too).");
    public static final Setting<Integer> MCP_REQUEST_TIMEOUT_SECONDS = Setting.integer(
            "mcp.request.timeout.seconds", 120, 1, 3600,
            "How long one MCP tool call waits for its REST request (answers with a language model take longest); an "
                    + "upload of files gets their time at 256 KB/s besides.");

    private static final List<Setting<?>> ALL = collect();

    /** Every declared setting, in declaration order. */
    public static List<Setting<?>> all() {
        return ALL;
    }

    /** Checks rules that span settings; called once a configuration is loaded. */
    static void validate(Config config) {
        List<String> errors = new ArrayList<>();
        if (!config.get(VECTOR_ENABLED) && !config.get(FULLTEXT_ENABLED) && !config.get(GRAPH_ENABLED)
                && !config.get(RDF_ENABLED)) {
            errors.add(VECTOR_ENABLED.env() + ", " + FULLTEXT_ENABLED.env() + ", " + GRAPH_ENABLED.env() + " and "
                    + RDF_ENABLED.env() + " are all false: at least one modality must stay enabled; set one to true");
        }
        if (config.get(CHUNK_OVERLAP_TOKENS) >= config.get(CHUNK_MAX_TOKENS)) {
            errors.add(CHUNK_OVERLAP_TOKENS.env() + "=" + config.get(CHUNK_OVERLAP_TOKENS) + " must be below "
                    + CHUNK_MAX_TOKENS.env() + "=" + config.get(CHUNK_MAX_TOKENS)
                    + ": lower the overlap or raise the chunk size");
        }
        if (config.get(SEARCH_TOP_K) > config.get(SEARCH_MAX_TOP_K)) {
            errors.add(SEARCH_TOP_K.env() + "=" + config.get(SEARCH_TOP_K) + " exceeds " + SEARCH_MAX_TOP_K.env()
                    + "=" + config.get(SEARCH_MAX_TOP_K) + ": lower the default or raise the maximum");
        }
        if (config.get(ANSWER_TOP_K) > config.get(SEARCH_MAX_TOP_K)) {
            errors.add(ANSWER_TOP_K.env() + "=" + config.get(ANSWER_TOP_K) + " exceeds " + SEARCH_MAX_TOP_K.env()
                    + "=" + config.get(SEARCH_MAX_TOP_K) + ": every question without top_k would be refused; lower "
                    + "the one or raise the other");
        }
        if (!errors.isEmpty()) {
            throw new ConfigException("invalid configuration:\n  - " + String.join("\n  - ", errors));
        }
    }

    private static List<Setting<?>> collect() {
        List<Setting<?>> list = new ArrayList<>();
        for (Field f : Settings.class.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == Setting.class) {
                try {
                    list.add((Setting<?>) f.get(null));
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException("cannot read setting " + f.getName(), e);
                }
            }
        }
        return Collections.unmodifiableList(list);
    }
}
