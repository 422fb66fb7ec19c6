// style(file): the Java client users import: one entry point and the API's response records beside the calls that return them
package io.polyrag.client;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;

/**
 * A typed client for polyrag's REST API on the JDK's {@link HttpClient}: search, cited answers (plain and streamed),
 * ingest of text and files, documents, jobs (read, poll, cancel), knowledge bases and sync sources.
 *
 * <pre>{@code
 * PolyragClient polyrag = PolyragClient.builder().baseUrl("http://127.0.0.1:8080").apiKey(key).build();
 * SearchResults r = polyrag.search(Search.of("how long does the levain ferment").topK(5).knowledgeBases("recipes"));
 * }</pre>
 *
 * <p>Every call has a timeout; a transient failure (no connection, 429, 502, 503, 504) is tried again up to
 * {@code retries} times with a growing pause (and a server's {@code Retry-After}), the rule the server's own outbound
 * client follows; anything else fails at once with a {@link PolyragApiException} carrying the problem+json fields.
 * Unknown fields in answers are ignored, so a newer server does not break an older client. Safe for concurrent use.
 */
public final class PolyragClient implements AutoCloseable {
    /** Routes this client calls (method and path as docs/openapi.json names them); a test holds it to the document. */
    public static final Set<String> ROUTES = Set.of("GET /health", "GET /ready", "POST /v1/search", "GET /v1/search",
            "POST /v1/query", "POST /v1/ingest/text", "POST /v1/ingest/files", "POST /v1/documents", "GET /v1/documents",
            "GET /v1/documents/{id}", "DELETE /v1/documents/{id}", "GET /v1/documents/{id}/content",
            "GET /v1/documents/{id}/figures/{figure}", "GET /v1/jobs", "GET /v1/jobs/{id}",
            "POST /v1/jobs/{id}/cancel", "GET /v1/events", "GET /v1/knowledge-bases", "POST /v1/knowledge-bases",
            "GET /v1/knowledge-bases/{name}", "DELETE /v1/knowledge-bases/{name}", "GET /v1/sync/sources",
            "POST /v1/sync/sources", "GET /v1/sync/sources/{id}", "PUT /v1/sync/sources/{id}",
            "DELETE /v1/sync/sources/{id}", "POST /v1/sync/sources/{id}/enable", "POST /v1/sync/sources/{id}/disable",
            "POST /v1/sync/sources/{id}/sync-now", "POST /v1/sync/sync-now", "GET /v1/formats",
            "GET /v1/graph/entities", "GET /v1/graph/entities/{id}/neighbours", "GET /v1/configuration",
            "GET /v1/conversations", "GET /v1/conversations/{id}", "DELETE /v1/conversations/{id}",
            "GET /v1/knowledge-bases/{name}/judgments", "POST /v1/knowledge-bases/{name}/judgments",
            "DELETE /v1/knowledge-bases/{name}/judgments", "POST /v1/knowledge-bases/{name}/tune",
            "GET /v1/knowledge-bases/{name}/tuning", "DELETE /v1/knowledge-bases/{name}/tuning",
            "GET /v1/knowledge-bases/{name}/evaluation", "GET /v1/usage");

    // A field an older server does not send is its type's default, whatever Jackson version the application's
    // dependency management pins (some fail on a primitive left null).
    static final JsonMapper JSON = JsonMapper.builder().propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES).build();

    private final String base;
    private final String apiKey;
    private final Duration timeout;
    private final int retries;
    private final HttpClient http;

    private PolyragClient(Builder b) {
        String url = b.baseUrl == null ? "" : b.baseUrl.strip();
        if (!url.matches("https?://.+")) {
            throw new IllegalArgumentException("baseUrl must be an http(s) URL such as http://127.0.0.1:8080, got '"
                    + url + "'");
        }
        this.base = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
        // Stripped (a key read from a file keeps its line end), and refused, not quoted, if a character HTTP headers
        // do not allow is left inside: the HTTP client's own message quoted the whole header, the key in it.
        // A byte-order mark (a key file saved by PowerShell) is never part of a key. Any other character but visible
        // ASCII is refused by its position: the JDK refuses those above 255 too, quoting the header, key and all.
        String key = b.apiKey == null ? null : b.apiKey.strip();
        this.apiKey = key != null && key.startsWith("\uFEFF") ? key.substring(1).strip() : key;
        if (apiKey != null) {
            for (int i = 0; i < apiKey.length(); i++) {
                char c = apiKey.charAt(i);
                if (c < 0x21 || c > 0x7e) {
                    throw new IllegalArgumentException(String.format("apiKey holds U+%04X at position %d, which a "
                            + "key never does (a line break, a space or an invisible character pasted with it?): give "
                            + "the key alone", (int) c, i));
                }
            }
        }
        this.timeout = b.timeout;
        this.retries = b.retries;
        this.http = HttpClient.newBuilder().connectTimeout(b.connectTimeout).build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Releases the HTTP client's connections and threads; a closed client sends nothing more. Streams still being read
     * (an {@link #events} loop on another thread) end first: the JDK's close waits for every exchange in flight, and
     * an event stream never ends by itself, so closing hung for as long as the server ran.
     */
    @Override
    public void close() {
        for (InputStream body : streaming) {
            try {
                body.close();
            } catch (IOException ignored) {
                // closing is all that was wanted
            }
        }
        // An exchange still waiting for its headers has no body to close: shut down now, or close() waited for it.
        http.shutdownNow();
        http.close();
    }

    /** Bodies of the event streams being read now, closed by {@link #close}. */
    private final Set<InputStream> streaming = ConcurrentHashMap.newKeySet();

    /** How the client reaches the server. */
    public static final class Builder {
        private String baseUrl;
        private String apiKey;
        private Duration timeout = Duration.ofSeconds(60);
        private Duration connectTimeout = Duration.ofSeconds(5);
        private int retries = 2;

        /** The server, e.g. {@code http://127.0.0.1:8080}. */
        public Builder baseUrl(String baseUrl) {
            this.baseUrl = baseUrl;
            return this;
        }

        /** The API key (none in local mode). */
        public Builder apiKey(String apiKey) {
            this.apiKey = apiKey;
            return this;
        }

        /** How long one request may take (default 60 s; answers with a language model take longest). */
        public Builder timeout(Duration timeout) {
            this.timeout = timeout;
            return this;
        }

        public Builder connectTimeout(Duration connectTimeout) {
            this.connectTimeout = connectTimeout;
            return this;
        }

        /** Tries after the first for a transient failure (default 2; 0 for none). */
        public Builder retries(int retries) {
            if (retries < 0 || retries > 10) {
                throw new IllegalArgumentException("retries must be 0-10, got " + retries);
            }
            this.retries = retries;
            return this;
        }

        public PolyragClient build() {
            return new PolyragClient(this);
        }
    }

    // ---------------------------------------------------------------------------------------------- requests

    /** A search or a question: the query and every retrieval option of {@code POST /v1/search} and {@code /v1/query}. */
    public static final class Search {
        private final Map<String, Object> body = new LinkedHashMap<>();

        private Search(String query) {
            if (query == null || query.isBlank()) {
                throw new IllegalArgumentException("query must not be blank");
            }
            body.put("query", query);
        }

        public static Search of(String query) {
            return new Search(query);
        }

        /**
         * {@code text} cut at a word boundary to at most {@code maxChars} characters: what a framework's retriever
         * searches for a chat message longer than the server takes (a pasted email), which failed the whole turn.
         */
        public static String fitted(String text, int maxChars) {
            if (text == null || text.length() <= maxChars) {
                return text;
            }
            int cut = maxChars;
            while (cut > maxChars / 2 && !Character.isWhitespace(text.charAt(cut))) {
                cut--;
            }
            return text.substring(0, cut > maxChars / 2 ? cut : maxChars).strip();
        }

        public Search topK(int topK) {
            body.put("top_k", topK);
            return this;
        }

        /** Only these knowledge bases (none: all of the caller's). */
        public Search knowledgeBases(String... names) {
            return knowledgeBases(List.of(names));
        }

        /**
         * Only these knowledge bases; an empty list: all of the caller's (said explicitly, so a question of a kept
         * conversation is asked in all of them, not in the scope of its last narrowed one).
         */
        public Search knowledgeBases(List<String> names) {
            body.put("kb", List.copyOf(names));
            return this;
        }

        /** Only these retrievers: vector, fulltext, graph, rdf. */
        public Search modalities(String... modalities) {
            return modalities(List.of(modalities));
        }

        /** Only these retrievers; an empty list: every one the server runs. */
        public Search modalities(List<String> modalities) {
            if (modalities.isEmpty()) {
                body.remove("modalities");
            } else {
                body.put("modalities", List.copyOf(modalities));
            }
            return this;
        }

        /** weighted or rrf. */
        public Search fusion(String method) {
            body.put("fusion", method);
            return this;
        }

        public Search rrfK(int k) {
            body.put("rrf_k", k);
            return this;
        }

        public Search weights(Map<String, Double> weights) {
            body.put("weights", weights);
            return this;
        }

        /** Each leg's depth for this search, 1-1000 (default: the server's search.candidates). */
        public Search candidates(int depth) {
            body.put("candidates", depth);
            return this;
        }

        /** The full-text leg's blend of each passage with its whole document, 0-1 (0: passages alone). */
        public Search fulltextDocumentWeight(double weight) {
            body.put("fulltext_document_weight", weight);
            return this;
        }

        /**
         * The vector leg's blend of each passage with its document's whole vector where it has one, 0-1 (0: passages
         * alone).
         */
        public Search vectorDocumentWeight(double weight) {
            body.put("vector_document_weight", weight);
            return this;
        }

        public Search rerank(boolean rerank) {
            body.put("rerank", rerank);
            return this;
        }

        public Search category(String category) {
            body.put("category", category);
            return this;
        }

        public Search documentIds(String... ids) {
            body.put("document_ids", List.of(ids));
            return this;
        }

        /** Search only: what each retriever added to each hit's score. */
        public Search explain(boolean explain) {
            body.put("explain", explain);
            return this;
        }

        /** Answers only: chunks added around each hit (default the server's). */
        public Search neighbours(int n) {
            body.put("neighbours", n);
            return this;
        }

        /** Answers only: decide first what the question asks for (a lookup, a summary, …); {@link Answer#route}. */
        public Search route(boolean route) {
            body.put("route", route);
            return this;
        }

        /**
         * Answers only: the next turn of the conversation the server keeps under this id (created by its first
         * question); a follow-up leans on the earlier turns.
         */
        public Search conversationId(String id) {
            body.put("conversation_id", id);
            return this;
        }

        /** Answers only: per answer sentence, the sources that support it. */
        public Search grounding(boolean grounding) {
            body.put("grounding", grounding);
            return this;
        }

        Map<String, Object> body(boolean answer) {
            Map<String, Object> b = new LinkedHashMap<>(body);
            if (answer) {
                b.remove("explain");
            } else {
                b.remove("neighbours");
                b.remove("grounding");
                b.remove("conversation_id");
                b.remove("route");
            }
            return b;
        }
    }

    // ---------------------------------------------------------------------------------------------- answers

    /** A retriever's rank and score for a hit. */
    public record RetrieverScore(int rank, double score) {
    }

    /** A retriever that could not answer; the others still did. */
    public record Degraded(String modality, String reason) {
    }

    /** With {@link Search#explain}: what each retriever added to the hit's fused score; they sum to it. */
    public record Explain(double score, Map<String, Double> contributions) {
    }

    /**
     * A figure that belongs with a hit (a chart, a diagram); its image is at {@code url} on the server. {@code box}:
     * where it sits on its page or slide, in points from the top left, when the format says.
     */
    public record Figure(String id, int number, String caption, String location, String mediaType, int width,
            int height, boolean anchored, String url, List<Double> box) {
    }

    /**
     * One fused hit: the chunk, where it is, and each retriever's rank and score ({@code retrievers}); {@code explain}
     * with {@link Search#explain} (else null), {@code figures} those that belong with it (empty when none).
     */
    public record Hit(int rank, double score, String documentId, String chunkId, String uri, String title, String text,
            String kind, List<String> headingPath, String location, String knowledgeBase, long version, int ordinal,
            Map<String, RetrieverScore> retrievers, List<String> merged, Explain explain, List<Figure> figures) {
        /**
         * Where the hit came from, as flat metadata for a framework's document: {@code document_id},
         * {@code chunk_id}, {@code title}, {@code uri}, {@code location}, {@code knowledge_base}, {@code score} and
         * {@code rank_<retriever>} for each retriever that found it.
         */
        public Map<String, Object> metadata() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("document_id", documentId);
            m.put("chunk_id", chunkId);
            m.put("title", title == null ? "" : title);
            m.put("uri", uri == null ? "" : uri);
            m.put("location", location == null ? "" : location);
            m.put("knowledge_base", knowledgeBase == null ? "" : knowledgeBase);
            m.put("score", score);
            if (retrievers != null) {
                retrievers.forEach((retriever, s) -> m.put("rank_" + retriever, s.rank()));
            }
            return m;
        }
    }

    public record SearchResults(String query, long tookMs, List<String> modalities, List<Degraded> degraded,
            List<String> warnings, String fusion, List<Hit> hits) {
        /**
         * Whether no retriever answered: every one the search ran is listed under {@code degraded}, so the empty
         * {@code hits} say nothing about the knowledge base (a framework's retriever fails then rather than let a
         * model answer as if nothing were relevant).
         */
        public boolean unanswered() {
            if (modalities == null || modalities.isEmpty() || degraded == null || degraded.isEmpty()
                    || (hits != null && !hits.isEmpty())) {
                return false;
            }
            Set<String> failed = new HashSet<>();
            degraded.forEach(d -> failed.add(d.modality()));
            return failed.containsAll(modalities);
        }

        /** These results, or a 503 {@link PolyragApiException} naming each retriever's failure when {@link #unanswered()}. */
        public SearchResults requireAnswered() {
            if (!unanswered()) {
                if (!degraded.isEmpty() || !warnings.isEmpty()) {
                    // Answered in part (a retriever down, a reranker failed, an ingest still running): said where an
                    // operator looks, or a framework's retriever passed on fewer hits without a word.
                    StringBuilder what = new StringBuilder("polyrag answered in part:");
                    degraded.forEach(d -> what.append(' ').append(d.modality()).append(" not searched (")
                            .append(d.reason()).append(");"));
                    warnings.forEach(w -> what.append(' ').append(w).append(';'));
                    System.getLogger(PolyragClient.class.getName()).log(System.Logger.Level.WARNING,
                            what.toString());
                }
                return this;
            }
            StringBuilder why = new StringBuilder("no retriever answered:");
            degraded.forEach(d -> why.append(' ').append(d.modality()).append(" (").append(d.reason()).append(')'));
            throw new PolyragApiException(503, "about:blank", "Service Unavailable", why.toString(), null);
        }
    }

    /** A chunk of a cited source; {@code hit} false for a neighbour added for context. */
    public record Passage(String chunkId, int ordinal, String kind, List<String> headingPath, String text, boolean hit,
            String location) {
    }

    /** A numbered source an answer cites as [n], with the figures (charts, diagrams) that belong with its passages. */
    public record Source(int number, String documentId, String title, String uri, String knowledgeBase,
            List<Passage> passages, List<Figure> figures) {
    }

    /** What the intent router decided a question asks for ({@code route: true}), and why. */
    public record Route(String intent, String scope, String reason, String by, int topK, int neighbours,
            String style) {
    }

    public record Grounded(String sentence, List<Integer> supportedBy, List<Integer> cited, boolean supported) {
    }

    /**
     * An answer citing numbered sources; {@code mode} says who wrote it (extractive, or the model's name);
     * {@code rewrittenQuery} the query a follow-up was retrieved with (null when it was searched as asked);
     * {@code route} what the intent router decided (null unless asked for); {@code warnings} what the search
     * behind it warned of (a failed reranker, an ingest still running).
     */
    public record Answer(String query, String answer, String mode, String note, long tookMs, List<Source> sources,
            List<Degraded> degraded, List<String> warnings, List<Grounded> grounding, String rewrittenQuery,
            String conversationId, Route route) {
    }

    /** A message of a conversation: {@code role} user or assistant. */
    public record Message(String role, String content) {
    }

    /** A conversation the server keeps ({@code messages} empty in a list of them). */
    public record Conversation(String id, String title, int turns, Instant createdAt, Instant updatedAt,
            List<Message> messages) {
    }

    public record Indexed(String uri, String documentId, long version, String outcome) {
    }

    public record Problem(String source, String reason) {
    }

    /** What a synchronous ingest did, with the model tokens it spent on extraction and chunk contexts. */
    public record IngestReport(int documents, int added, int updated, int unchanged, int failed, int chunks,
            long tookMs, List<String> warnings, List<Problem> errors, List<Indexed> indexed, String documentId,
            long version, int relations, long extractionTokens, long contextTokens) {
    }

    /** A job queued for files sent: follow it with {@link #job} or {@link #awaitJob}. */
    public record Accepted(String jobId, String status, int files, String location) {
    }

    public record DocumentAccepted(String jobId, String documentId, String status, String location) {
    }

    /** A job's progress: counts so far, the stores written, and an estimate's model calls and tokens. */
    public record Progress(String stage, int total, int processed, int added, int updated, int unchanged, int deleted,
            int failed, int chunks, List<String> warnings, List<Problem> errors, int relations, long extractionTokens,
            long estimatedCalls, long estimatedTokens, List<String> storesWritten) {
    }

    /** A background job: its status (queued, running, succeeded, partial, failed, canceled) and progress. */
    public record Job(String id, String kind, String status, String error, int attempts, Instant createdAt,
            Instant updatedAt, int percentage, Long etaSeconds, Progress progress, String knowledgeBase,
            String sourceId, Instant startedAt) {
        public boolean finished() {
            return !status.equals("queued") && !status.equals("running");
        }
    }

    public record Document(String id, String knowledgeBase, String uri, String title, String mediaType,
            String contentHash, long sizeBytes, String status, long version, int chunks, Instant updatedAt,
            List<String> categories, String subcategory, String externalRef, boolean original) {
    }

    public record DocumentPage(List<Document> documents, int offset, int limit, long total) {
    }

    public record StoreState(long expected, long held, String state) {
    }

    public record DocumentDetail(Document document, Map<String, StoreState> stores) {
    }

    public record KnowledgeBase(String name, String description, long documents, long chunks, Instant createdAt) {
    }

    /** A sync source: what it reads ({@code config}), where it writes, how often, and its last scan. */
    public record SyncSource(String sourceId, String type, Map<String, Object> config, String knowledgeBase,
            int intervalSeconds, boolean enabled, Instant createdAt, Instant lastScanAt, String lastError,
            long items) {
    }

    public record SourceRegistered(SyncSource source, String jobId) {
    }

    /** A job event of {@code GET /v1/events}: its id (to resume from), type and the job as it then was. */
    public record JobEvent(long id, String type, Job job) {
    }

    /** Bytes the server keeps: a document's original or a figure. */
    public record Content(String mediaType, String fileName, byte[] bytes) {
    }

    // ---------------------------------------------------------------------------------------------- calls

    /** {@code GET /health}: {@code status} and whether keys are required, as a tree. */
    public JsonNode health() {
        return send("GET", "/health", null, null, JsonNode.class);
    }

    /** {@code GET /ready}: true when every store and model answers. */
    public boolean ready() {
        // Asked once: a 503 is the answer here, not a failure to try again (sent through the retrying exchange it
        // was asked three times, waiting out each Retry-After).
        HttpResponse<byte[]> r;
        try {
            r = within(request("/ready").GET().build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw new PolyragApiException(0, "about:blank", "Unavailable", "polyrag at " + base + " did not answer: "
                    + e.getMessage(), null, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PolyragApiException(0, "about:blank", "Interrupted", "interrupted", null, e);
        }
        if (r.statusCode() / 100 == 2) {
            return true;
        }
        if (r.statusCode() == 503) {
            return false;
        }
        throw PolyragApiException.of(r.statusCode(), problem(r.body(), r.headers(), r.statusCode()));
    }

    /** {@code GET /v1/configuration}: modalities, backends, models, as a tree. */
    public JsonNode configuration() {
        return send("GET", "/v1/configuration", null, null, JsonNode.class);
    }

    /** One metric of a tenant's usage over the period, on one model ({@code ""}: none). */
    public record UsageCount(String metric, String model, long amount) {
    }

    /** A tenant's limits ({@code null}: none). */
    public record Quotas(Long documents, Long storedMb, Long extractionTokensPerDay, Integer searchesPerMinute) {
    }

    /**
     * {@code GET /v1/usage}: what the tenant holds now, what it used from {@code from} to {@code to} (UTC days), and
     * its quotas.
     */
    public record Usage(String tenant, String from, String to, long documents, long chunks, long storedBytes,
            List<UsageCount> usage, Quotas quotas) {
    }

    /** {@code GET /v1/usage} over this month so far. */
    public Usage usage() {
        return send("GET", "/v1/usage", null, null, Usage.class);
    }

    /** {@code GET /v1/usage} over the UTC days {@code from} to {@code to}, both included. */
    public Usage usage(LocalDate from, LocalDate to) {
        return send("GET", "/v1/usage?from=" + from + "&to=" + to, null, null, Usage.class);
    }

    /** {@code GET /v1/formats}: the media types and extensions the server reads, as a tree. */
    public JsonNode formats() {
        return send("GET", "/v1/formats", null, null, JsonNode.class);
    }

    /** {@code POST /v1/search}: the fused hits. */
    public SearchResults search(Search search) {
        // A search changes nothing (but the usage it counts): tried again like a GET.
        return send("POST", "/v1/search", search.body(false), Map.of(), SearchResults.class, true);
    }

    /** {@code GET /v1/search?q=…&top_k=…}: the simple form. */
    public SearchResults search(String query, int topK) {
        return send("GET", "/v1/search?q=" + param(query) + "&top_k=" + topK, null, null, SearchResults.class);
    }

    /** {@code POST /v1/query}: a cited answer. */
    public Answer query(Search question) {
        return send("POST", "/v1/query", question.body(true), null, Answer.class);
    }

    /**
     * {@code POST /v1/query} with {@code stream: true}: each piece of the answer to {@code tokens} as it is written,
     * then the whole answer with its sources.
     */
    public Answer query(Search question, Consumer<String> tokens) {
        Map<String, Object> body = question.body(true);
        body.put("stream", true);
        Answer[] answer = new Answer[1];
        PolyragApiException[] error = new PolyragApiException[1];
        stream("POST", "/v1/query", body, (event, data) -> {
            switch (event) {
                case "token" -> tokens.accept(data.path("text").asString(""));
                case "answer" -> answer[0] = JSON.convertValue(data, Answer.class);
                case "error" -> error[0] = PolyragApiException.of(data.path("status").asInt(502), data);
                default -> {
                    // An event this client does not know: skipped.
                }
            }
            return answer[0] == null && error[0] == null;
        });
        if (error[0] != null) {
            throw error[0];
        }
        if (answer[0] == null) {
            throw new PolyragApiException(502, "about:blank", "Bad Gateway", "the answer stream ended without an "
                    + "answer", null);
        }
        return answer[0];
    }

    /** {@code POST /v1/ingest/text}: indexes text at once (into {@code knowledgeBase}, or the default one if null). */
    public IngestReport ingestText(String text, String title, String uri, String knowledgeBase) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("text", text);
        putIf(body, "title", title);
        putIf(body, "uri", uri);
        putIf(body, "kb", knowledgeBase);
        return send("POST", "/v1/ingest/text", body, null, IngestReport.class);
    }

    /** {@code POST /v1/ingest/files}: queues the files (multipart); follow the job. */
    public Accepted ingestFiles(List<Path> files, String knowledgeBase) {
        Multipart m = new Multipart();
        for (Path f : files) {
            m.file("files", f);
        }
        if (knowledgeBase != null) {
            m.field("kb", knowledgeBase);
        }
        return send("POST", "/v1/ingest/files", m, null, Accepted.class);
    }

    /** {@code POST /v1/documents}: one file with its description (title, categories…); its original is kept. */
    public DocumentAccepted upload(Path file, String knowledgeBase, Map<String, String> description) {
        Multipart m = new Multipart().file("file", file);
        if (knowledgeBase != null) {
            m.field("kb", knowledgeBase);
        }
        if (description != null) {
            description.forEach(m::field);
        }
        return send("POST", "/v1/documents", m, null, DocumentAccepted.class);
    }

    /** {@code GET /v1/documents}: a page of the caller's documents ({@code knowledgeBase} null: all). */
    public DocumentPage documents(String knowledgeBase, int offset, int limit) {
        return send("GET", "/v1/documents?offset=" + offset + "&limit=" + limit + (knowledgeBase == null ? ""
                : "&kb=" + param(knowledgeBase)), null, null, DocumentPage.class);
    }

    /** {@code GET /v1/documents/{id}}: the document and what each store holds of it. */
    public DocumentDetail document(String id) {
        return send("GET", "/v1/documents/" + enc(id), null, null, DocumentDetail.class);
    }

    /** {@code DELETE /v1/documents/{id}}: from every store. */
    public void deleteDocument(String id) {
        send("DELETE", "/v1/documents/" + enc(id), null, null, Void.class);
    }

    /** {@code GET /v1/documents/{id}/content}: the original an upload or a web page kept. */
    public Content content(String id) {
        return bytes("/v1/documents/" + enc(id) + "/content");
    }

    /** {@code GET /v1/documents/{id}/figures/{n}}: figure {@code n}'s image. */
    public Content figure(String id, int number) {
        return bytes("/v1/documents/" + enc(id) + "/figures/" + number);
    }

    /** {@code GET /v1/jobs}: the caller's jobs, newest first. */
    public List<Job> jobs(int offset, int limit) {
        return send("GET", "/v1/jobs?offset=" + offset + "&limit=" + limit, null, null, JobPage.class).jobs();
    }

    private record JobPage(List<Job> jobs, int offset, int limit) {
    }

    /** {@code GET /v1/jobs/{id}}. */
    public Job job(String id) {
        return send("GET", "/v1/jobs/" + enc(id), null, null, Job.class);
    }

    /** {@code POST /v1/jobs/{id}/cancel}. */
    public Job cancelJob(String id) {
        return send("POST", "/v1/jobs/" + enc(id) + "/cancel", Map.of(), null, Job.class);
    }

    /** Polls a job until it finishes or {@code within} passes (then the job as it is). */
    public Job awaitJob(String id, Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        Job j = job(id);
        while (!j.finished() && System.nanoTime() < deadline) {
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return j;
            }
            j = job(id);
        }
        return j;
    }

    /**
     * {@code GET /v1/events}: the caller's job events as they happen (after {@code afterId}; 0 for from now), to
     * {@code listener} until it returns false or the server ends the stream.
     */
    public void events(long afterId, Predicate<JobEvent> listener) {
        Map<String, String> headers = afterId > 0 ? Map.of("Last-Event-ID", Long.toString(afterId)) : Map.of();
        long[] id = {afterId};
        streamGet("/v1/events", headers, (event, idLine, data) -> {
            if (idLine != null) {
                id[0] = Long.parseLong(idLine);
            }
            return listener.test(new JobEvent(data.path("id").asLong(id[0]), data.path("type").asString(event),
                    JSON.convertValue(data.path("job"), Job.class)));
        });
    }

    /** {@code GET /v1/knowledge-bases}. */
    public List<KnowledgeBase> knowledgeBases() {
        return send("GET", "/v1/knowledge-bases", null, null, KnowledgeBaseList.class).knowledgeBases();
    }

    private record KnowledgeBaseList(List<KnowledgeBase> knowledgeBases) {
    }

    /** {@code GET /v1/knowledge-bases/{name}}. */
    public KnowledgeBase knowledgeBase(String name) {
        return send("GET", "/v1/knowledge-bases/" + enc(name), null, null, KnowledgeBase.class);
    }

    /** {@code POST /v1/knowledge-bases}. */
    public KnowledgeBase createKnowledgeBase(String name, String description) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", name);
        putIf(body, "description", description);
        return send("POST", "/v1/knowledge-bases", body, null, KnowledgeBase.class);
    }

    /** {@code DELETE /v1/knowledge-bases/{name}} (with {@code force}, also one a sync source feeds). */
    public void deleteKnowledgeBase(String name, boolean force) {
        send("DELETE", "/v1/knowledge-bases/" + enc(name) + (force ? "?force=true" : ""), null, null, Void.class);
    }

    /** {@code GET /v1/sync/sources}. */
    public List<SyncSource> sources() {
        return send("GET", "/v1/sync/sources", null, null, SourceList.class).sources();
    }

    private record SourceList(List<SyncSource> sources) {
    }

    /** {@code GET /v1/sync/sources/{id}}. */
    public SyncSource source(String id) {
        return send("GET", "/v1/sync/sources/" + enc(id), null, null, SyncSource.class);
    }

    /**
     * {@code POST /v1/sync/sources}: registers a source ({@code type} filesystem with {@code config.root}, or web with
     * {@code config.url}) and starts its first sync.
     */
    public SourceRegistered addSource(String id, String type, Map<String, Object> config, String knowledgeBase,
            Integer intervalSeconds) {
        return send("POST", "/v1/sync/sources", sourceBody(id, type, config, knowledgeBase, intervalSeconds, null),
                null, SourceRegistered.class);
    }

    /** {@code PUT /v1/sync/sources/{id}}: a source's new settings. */
    public SourceRegistered updateSource(String id, String type, Map<String, Object> config, String knowledgeBase,
            Integer intervalSeconds, Boolean enabled) {
        return send("PUT", "/v1/sync/sources/" + enc(id), sourceBody(id, type, config, knowledgeBase, intervalSeconds,
                enabled), null, SourceRegistered.class);
    }

    private static Map<String, Object> sourceBody(String id, String type, Map<String, Object> config, String kb,
            Integer interval, Boolean enabled) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("source_id", id);
        body.put("type", type);
        body.put("config", config);
        putIf(body, "kb", kb);
        putIf(body, "interval_seconds", interval);
        putIf(body, "enabled", enabled);
        return body;
    }

    /** {@code DELETE /v1/sync/sources/{id}} ({@code documents}: also the documents it brought). */
    public void deleteSource(String id, boolean documents) {
        send("DELETE", "/v1/sync/sources/" + enc(id) + (documents ? "?documents=true" : ""), null, null, JsonNode.class);
    }

    /** {@code POST /v1/sync/sources/{id}/enable} or {@code /disable}. */
    public SourceRegistered enableSource(String id, boolean enabled) {
        return send("POST", "/v1/sync/sources/" + enc(id) + (enabled ? "/enable" : "/disable"), Map.of(), null,
                SourceRegistered.class);
    }

    /** {@code POST /v1/sync/sources/{id}/sync-now}: the sync job's id. */
    public String syncNow(String id) {
        return send("POST", "/v1/sync/sources/" + enc(id) + "/sync-now", Map.of(), null, JsonNode.class)
                .path("job_id").asString();
    }

    /**
     * {@code POST /v1/sync/sources/{id}/sync-now?max_delete_percent=N}: a sync with its own cap on deletes (100
     * confirms that most of the source is gone); a {@link PolyragApiException} with status 409 while a sync of the
     * source is queued or running. The sync job's id.
     */
    public String syncNow(String id, int maxDeletePercent) {
        return send("POST", "/v1/sync/sources/" + enc(id) + "/sync-now?max_delete_percent=" + maxDeletePercent,
                Map.of(), null, JsonNode.class).path("job_id").asString();
    }

    /** {@code POST /v1/sync/sync-now}: every source at once; source id to job id. */
    public Map<String, String> syncAll() {
        JsonNode jobs = send("POST", "/v1/sync/sync-now", Map.of(), null, JsonNode.class).path("jobs");
        Map<String, String> out = new LinkedHashMap<>();
        jobs.properties().forEach(e -> out.put(e.getKey(), e.getValue().isObject() ? e.getValue().path("job_id")
                .asString() : e.getValue().asString()));
        return out;
    }

    /** {@code GET /v1/conversations}: the caller's conversations, most recent first. */
    public List<Conversation> conversations(int offset, int limit) {
        return send("GET", "/v1/conversations?offset=" + offset + "&limit=" + limit, null, null,
                ConversationList.class).conversations();
    }

    private record ConversationList(List<Conversation> conversations, int offset, int limit) {
    }

    /** {@code GET /v1/conversations/{id}}: with its messages. */
    public Conversation conversation(String id) {
        return send("GET", "/v1/conversations/" + enc(id), null, null, Conversation.class);
    }

    /** {@code DELETE /v1/conversations/{id}}. */
    public void deleteConversation(String id) {
        send("DELETE", "/v1/conversations/" + enc(id), null, null, Void.class);
    }

    /**
     * A judged query of a knowledge base: its text and the documents relevant to it, the grade (1-10; 0 judged not
     * relevant) by document id or URI.
     */
    public record Judgment(String queryId, String query, Map<String, Integer> relevant) {
    }

    private record JudgmentList(String knowledgeBase, int queries, List<Judgment> judgments) {
    }

    private record JudgmentsBody(List<Judgment> judgments) {
    }

    /** {@code GET /v1/knowledge-bases/{name}/judgments}. */
    public List<Judgment> judgments(String knowledgeBase) {
        return send("GET", "/v1/knowledge-bases/" + enc(knowledgeBase) + "/judgments", null, null,
                JudgmentList.class).judgments();
    }

    /**
     * {@code POST /v1/knowledge-bases/{name}/judgments}: adds judged queries (a query id judged before is replaced);
     * how many the knowledge base holds now.
     */
    public int addJudgments(String knowledgeBase, List<Judgment> judgments) {
        return send("POST", "/v1/knowledge-bases/" + enc(knowledgeBase) + "/judgments", new JudgmentsBody(judgments),
                null, JsonNode.class).path("queries").asInt();
    }

    /** {@code DELETE /v1/knowledge-bases/{name}/judgments}: one judged query, or all ({@code queryId} null). */
    public int deleteJudgments(String knowledgeBase, String queryId) {
        return send("DELETE", "/v1/knowledge-bases/" + enc(knowledgeBase) + "/judgments"
                + (queryId == null ? "" : "?query_id=" + param(queryId)), null, null, JsonNode.class).path("deleted")
                .asInt();
    }

    /**
     * {@code POST /v1/knowledge-bases/{name}/tune}: starts fitting the knowledge base's fusion to its judged queries
     * (at least 20); the job's id ({@link #job}).
     */
    public String tune(String knowledgeBase) {
        return send("POST", "/v1/knowledge-bases/" + enc(knowledgeBase) + "/tune", Map.of(), null, JsonNode.class)
                .path("job_id").asString();
    }

    /** {@code GET /v1/knowledge-bases/{name}/tuning}: what the last tuning found (applied, reason, candidates), as a tree. */
    public JsonNode tuning(String knowledgeBase) {
        return send("GET", "/v1/knowledge-bases/" + enc(knowledgeBase) + "/tuning", null, null, JsonNode.class);
    }

    /** {@code DELETE /v1/knowledge-bases/{name}/tuning}: back to the configured fusion. */
    public void dropTuning(String knowledgeBase) {
        send("DELETE", "/v1/knowledge-bases/" + enc(knowledgeBase) + "/tuning", null, null, Void.class);
    }

    /**
     * {@code GET /v1/knowledge-bases/{name}/evaluation}: the knowledge base's search measured on its judged queries
     * (runs with nDCG@10, Recall@100, MRR@10 and paired tests), as a tree; {@code last}: the last one kept instead.
     */
    public JsonNode evaluation(String knowledgeBase, boolean last) {
        // A new evaluation runs every judged query and is kept: sent again only when it surely did not run.
        return send("GET", "/v1/knowledge-bases/" + enc(knowledgeBase) + "/evaluation" + (last ? "?last=true" : ""),
                null, null, JsonNode.class, last);
    }

    /** {@code GET /v1/graph/entities?q=…}: entities whose name matches, as a tree. */
    public JsonNode entities(String query, int limit) {
        return send("GET", "/v1/graph/entities?q=" + param(query) + "&limit=" + limit, null, null, JsonNode.class);
    }

    /** {@code GET /v1/graph/entities/{id}/neighbours}: an entity's relations, as a tree. */
    public JsonNode neighbours(String entityId) {
        return send("GET", "/v1/graph/entities/" + enc(entityId) + "/neighbours", null, null, JsonNode.class);
    }

    // ---------------------------------------------------------------------------------------------- transport

    private static void putIf(Map<String, Object> body, String key, Object value) {
        if (value != null) {
            body.put(key, value);
        }
    }

    /** A path segment, percent-encoded; "." and ".." are refused (a server resolves them into another path). */
    private static String enc(String s) {
        if (s == null || s.isEmpty() || s.equals(".") || s.equals("..")) {
            throw new IllegalArgumentException("an id must not be empty, '.' or '..', got '" + s + "'");
        }
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** A query parameter's value, percent-encoded (any text: ".", "..", empty are values like any other). */
    private static String param(String s) {
        return URLEncoder.encode(s == null ? "" : s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private HttpRequest.Builder request(String path) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(timeout)
                .header("Accept", "application/json");
        if (apiKey != null && !apiKey.isBlank()) {
            b.header("Authorization", "Bearer " + apiKey);
        }
        return b;
    }

    private <T> T send(String method, String path, Object body, Map<String, String> headers, Class<T> type) {
        // Reads only: a DELETE or PUT that may have run (a gateway's 502 after the server did it) answered 404 or
        // 409 when sent again, so a delete that worked was reported as failed.
        return send(method, path, body, headers, type, method.equals("GET") || method.equals("HEAD"));
    }

    /** {@code safe}: whether the request may be sent again after an answer or a failure that says nothing. */
    private <T> T send(String method, String path, Object body, Map<String, String> headers, Class<T> type,
            boolean safe) {
        HttpResponse<byte[]> r = exchange(() -> {
            HttpRequest.Builder b = request(path);
            if (headers != null) {
                headers.forEach(b::header);
            }
            if (body instanceof Multipart m) {
                // The whole exchange is bounded, the upload included: its files' time at a slow link's rate
                // (256 KB/s) is added, so 150 MB could be sent at all within a 60 s timeout.
                b.timeout(timeout.plusMillis(m.bytes() / 256)).header("Content-Type", m.contentType())
                        .method(method, m.publisher());
            } else if (body != null) {
                b.header("Content-Type", "application/json").method(method,
                        HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body)));
            } else {
                b.method(method, HttpRequest.BodyPublishers.noBody());
            }
            return b.build();
        }, HttpResponse.BodyHandlers.ofByteArray(), safe);
        if (type == Void.class || r.body().length == 0) {
            return null;
        }
        try {
            return JSON.readValue(r.body(), type);
        } catch (JacksonException e) {
            // A 2xx that is not polyrag's JSON: the base URL reaches something else (a login page, another app).
            throw new PolyragApiException(r.statusCode(), "about:blank", "Not polyrag's answer", "the answer ("
                    + r.headers().firstValue("Content-Type").orElse("no content type") + ") is not polyrag's JSON: "
                    + "check the base URL " + base, null, e);
        }
    }

    /**
     * A download: its headers within the timeout, its body for as long as it keeps coming (an original of hundreds of
     * megabytes over a slow link was cut at the timeout however fast its bytes came), given up once silent for the
     * timeout.
     */
    private Content bytes(String path) {
        HttpResponse<InputStream> r = exchange(() -> request(path).header("Accept", "*/*").GET().build(),
                HttpResponse.BodyHandlers.ofInputStream(), true);
        byte[] body = readAll(r.body(), timeout);
        String disposition = r.headers().firstValue("Content-Disposition").orElse("");
        // The UTF-8 name (filename*, RFC 6266) when there is one, else the plain one.
        Matcher utf8 = Pattern.compile("filename\\*=UTF-8''([^;\\s]+)", Pattern.CASE_INSENSITIVE).matcher(disposition);
        Matcher m = Pattern.compile("filename=\"?([^\";]+)").matcher(disposition);
        String name = utf8.find() ? URLDecoder.decode(utf8.group(1).replace("+", "%2B"), StandardCharsets.UTF_8)
                : m.find() ? m.group(1) : null;
        return new Content(r.headers().firstValue("Content-Type").orElse("application/octet-stream"), name, body);
    }

    private static byte[] readAll(InputStream body, Duration idle) {
        AtomicLong last = new AtomicLong(System.nanoTime());
        AtomicBoolean silent = new AtomicBoolean();
        ScheduledFuture<?> watch = closeWhenSilent(body, idle, last, silent);
        try (InputStream in = body) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buffer = new byte[64 * 1024];
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                out.write(buffer, 0, n);
                last.set(System.nanoTime());
            }
            if (silent.get()) {
                throw new IOException("closed");
            }
            return out.toByteArray();
        } catch (IOException e) {
            throw new PolyragApiException(0, "about:blank", "Unavailable", silent.get() ? "the download sent nothing "
                    + "for " + idle.toMillis() + " ms and was given up" : "the download was cut: " + e.getMessage(),
                    null, e);
        } finally {
            watch.cancel(false);
        }
    }

    /**
     * Sends, trying a transient failure again; a non-2xx answer is a {@link PolyragApiException}. {@code safe}: the
     * request may be sent again though the server may have run it (reads, idempotent writes); any other is sent again
     * only when it surely did not run (no connection made, or 429 or 503).
     */
    private <T> HttpResponse<T> exchange(Supplier<HttpRequest> make, HttpResponse.BodyHandler<T> handler,
            boolean safe) {
        for (int attempt = 0; ; attempt++) {
            HttpResponse<T> r;
            HttpRequest request = make.get();
            try {
                r = within(request, handler);
            } catch (IOException e) {
                boolean unsent = e instanceof ConnectException || e instanceof HttpConnectTimeoutException
                        || e.getCause() instanceof ConnectException;
                boolean timedOut = e instanceof HttpTimeoutException && !unsent;
                if (attempt < retries && !timedOut && (safe || unsent)) {
                    pause(attempt, 0);
                    continue;
                }
                throw new PolyragApiException(0, "about:blank", "Unavailable", "polyrag at " + base
                        + " did not answer: " + e.getMessage(), null, e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new PolyragApiException(0, "about:blank", "Interrupted", "interrupted", null, e);
            }
            int s = r.statusCode();
            if (s / 100 == 2) {
                return r;
            }
            JsonNode problem = problem(r.body(), r.headers(), s); // reads, and so closes, a streamed body too
            long wait = retryAfterMs(r.headers().firstValue("Retry-After").orElse(null));
            // A change is sent again on a 503 only when it says when (polyrag's own, which ran nothing): a proxy's
            // bare 503 may come after the request reached polyrag, and a create sent twice answered "exists".
            if ((s == 429 || s == 503 && (safe || wait > 0) || (safe && (s == 502 || s == 504)))
                    && attempt < retries && wait <= MAX_PAUSE_MS) {
                pause(attempt, wait);
                continue;
            }
            throw PolyragApiException.of(s, problem, wait / 1000);
        }
    }

    /**
     * One exchange within the request's timeout, the answer's body included: the JDK's own timeout ends when the
     * headers come, and a body that stalls after them would hold the caller for ever. A streamed body (read as it
     * comes) is bounded by its reader's idle watchdog instead.
     */
    private <T> HttpResponse<T> within(HttpRequest request, HttpResponse.BodyHandler<T> handler)
            throws IOException, InterruptedException {
        Duration bound = request.timeout().orElse(timeout);
        CompletableFuture<HttpResponse<T>> answer = http.sendAsync(request, handler);
        try {
            return answer.get(bound.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            answer.cancel(true);
            throw new HttpTimeoutException("no whole answer within " + bound.toMillis() + " ms");
        } catch (InterruptedException e) {
            answer.cancel(true);
            throw e;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof HttpTimeoutException && !(cause instanceof HttpConnectTimeoutException)) {
                // The JDK's own timer and the bound above are the same length, and either may fire first: one
                // message, whichever did.
                throw new HttpTimeoutException("no whole answer within " + bound.toMillis() + " ms");
            }
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            throw new IOException(cause);
        }
    }

    /**
     * The problem an error answer holds; for one that is not polyrag's JSON (a proxy's HTML page: nginx's 413 for a
     * body over its limit, a gateway's 502), a problem saying where it came from, with its opening, so the caller is
     * not sent looking in polyrag.
     */
    private static JsonNode problem(Object body, HttpHeaders headers, int status) {
        byte[] bytes;
        try {
            if (body instanceof InputStream in) {
                try (in) {
                    bytes = in.readNBytes(1 << 20);
                }
            } else {
                bytes = body instanceof byte[] b ? b : body instanceof String t ? t.getBytes(StandardCharsets.UTF_8)
                        : null;
            }
        } catch (IOException e) {
            return null;
        }
        if (bytes == null || bytes.length == 0) {
            return null;
        }
        try {
            JsonNode n = JSON.readTree(bytes);
            if (n != null && n.isObject()) {
                return n;
            }
        } catch (RuntimeException e) {
            // not JSON: told below
        }
        String text = new String(bytes, 0, Math.min(bytes.length, 4096), StandardCharsets.UTF_8)
                .replaceAll("<[^>]*>", " ").replaceAll("\\s+", " ").strip();
        String server = headers.firstValue("Server").map(v -> ", server " + v).orElse("");
        var n = JSON.createObjectNode();
        n.put("status", status);
        n.put("title", "HTTP " + status);
        n.put("detail", "the answer did not come from polyrag's API (" + headers.firstValue("Content-Type")
                .orElse("no content type") + server + "): " + (text.length() > 200 ? text.substring(0, 200) + "…"
                : text) + (status == 413 ? "; a proxy in front of polyrag may limit request bodies (nginx: "
                + "client_max_body_size)" : ""));
        return n;
    }

    /** The longest a call waits before trying again; a server asking for longer gets its 429 or 503 at once. */
    private static final long MAX_PAUSE_MS = 30_000L;

    /** A {@code Retry-After} in seconds as milliseconds; 0 when there is none or it is not a number of seconds. */
    private static long retryAfterMs(String retryAfter) {
        if (retryAfter == null || !retryAfter.strip().matches("\\d{1,9}")) {
            return 0;
        }
        return Long.parseLong(retryAfter.strip()) * 1000L;
    }

    private static void pause(int attempt, long retryAfterMs) {
        long ms = Math.max(250L << Math.min(attempt, 4), retryAfterMs);
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private interface EventHandler {
        /** @return whether to go on reading */
        boolean on(String event, String id, JsonNode data);
    }

    private void stream(String method, String path, Object body, BiPredicate<String, JsonNode> on) {
        HttpResponse<InputStream> r = exchange(() -> request(path).header("Accept", "text/event-stream")
                .header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body))).build(),
                HttpResponse.BodyHandlers.ofInputStream(), false);
        streaming.add(r.body());
        try {
            read(r, (event, id, data) -> on.test(event, data), timeout);
        } finally {
            streaming.remove(r.body());
        }
    }

    private void streamGet(String path, Map<String, String> headers, EventHandler on) {
        HttpResponse<InputStream> r = exchange(() -> {
            // Headers within the stream's idle bound (a day before: a server or proxy that took the connection and
            // never answered held the caller, and close(), for as long).
            HttpRequest.Builder b = request(path).header("Accept", "text/event-stream")
                    .timeout(timeout.compareTo(EVENTS_IDLE) > 0 ? timeout : EVENTS_IDLE);
            headers.forEach(b::header);
            return b.GET().build();
        }, HttpResponse.BodyHandlers.ofInputStream(), true);
        // The job stream is quiet between jobs but for the server's heartbeats (every 15 s by default, at most 300 s
        // as POLYRAG_HTTP_SSE_HEARTBEAT_SECONDS allows): twice the longest.
        streaming.add(r.body());
        try {
            read(r, on, timeout.compareTo(EVENTS_IDLE) > 0 ? timeout : EVENTS_IDLE);
        } finally {
            streaming.remove(r.body());
        }
    }

    /** How long the job event stream may stay silent: twice the longest heartbeat interval a server may have. */
    private static final Duration EVENTS_IDLE = Duration.ofSeconds(600);

    /** Closes streams that went silent; one daemon thread for every client in the process. */
    /** Its thread ends a minute after the last stream: kept, each redeploy of an application left one behind. */
    private static final ScheduledExecutorService WATCHDOG = watchdog();

    private static ScheduledExecutorService watchdog() {
        ScheduledThreadPoolExecutor e = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "polyrag-client-stream-watchdog");
            t.setDaemon(true);
            return t;
        });
        e.setKeepAliveTime(60, TimeUnit.SECONDS);
        e.allowCoreThreadTimeOut(true);
        e.setRemoveOnCancelPolicy(true);
        return e;
    }

    /** Closes {@code body} once nothing came for {@code idle} since {@code last}, saying so in {@code silent}. */
    private static ScheduledFuture<?> closeWhenSilent(InputStream body, Duration idle, AtomicLong last,
            AtomicBoolean silent) {
        long period = Math.max(50, idle.toMillis() / 4);
        return WATCHDOG.scheduleAtFixedRate(() -> {
            if (System.nanoTime() - last.get() > idle.toNanos() && silent.compareAndSet(false, true)) {
                try {
                    body.close();
                } catch (IOException ignored) {
                    // closing is all that was wanted
                }
            }
        }, period, period, TimeUnit.MILLISECONDS);
    }

    /**
     * Reads server-sent events (event, id, data lines; a blank line ends one) until told to stop or the end. A
     * stream with no line for {@code idle} is given up (its body closed): the request timeout stops counting once
     * the headers are in, so a connection that went half-open (a replica lost behind a balancer) blocked for ever.
     */
    private static void read(HttpResponse<InputStream> r, EventHandler on, Duration idle) {
        AtomicLong lastLine = new AtomicLong(System.nanoTime());
        AtomicBoolean silent = new AtomicBoolean();
        InputStream body = r.body();
        ScheduledFuture<?> watch = closeWhenSilent(body, idle, lastLine, silent);
        try {
            readLines(body, on, lastLine);
        } catch (PolyragApiException e) {
            if (silent.get()) {
                throw new PolyragApiException(0, "about:blank", "Unavailable", "the event stream sent nothing for "
                        + idle.toSeconds() + " s and was given up", null, e);
            }
            throw e;
        } finally {
            watch.cancel(false);
        }
    }

    private static void readLines(InputStream body, EventHandler on, AtomicLong lastLine) {
        try (InputStream in = body; BufferedReader lines = new BufferedReader(new InputStreamReader(in,
                StandardCharsets.UTF_8))) {
            String event = "message";
            String id = null;
            StringBuilder data = new StringBuilder();
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                lastLine.set(System.nanoTime());
                if (line.isEmpty()) {
                    if (!data.isEmpty()) {
                        if (!on.on(event, id, JSON.readTree(data.toString()))) {
                            return;
                        }
                    }
                    event = "message";
                    id = null;
                    data.setLength(0);
                } else if (line.startsWith("event:")) {
                    event = line.substring(6).strip();
                } else if (line.startsWith("id:")) {
                    id = line.substring(3).strip();
                } else if (line.startsWith("data:")) {
                    data.append(data.isEmpty() ? "" : "\n").append(line.substring(5).strip());
                }
            }
        } catch (IOException e) {
            throw new PolyragApiException(0, "about:blank", "Unavailable", "the event stream broke: "
                    + e.getMessage(), null, e);
        }
    }

    /** A multipart/form-data body. */
    private static final class Multipart {
        private final String boundary = "polyrag-" + UUID.randomUUID();
        /** Each part's publisher: files are read as they are sent, never held whole (300 files of 10 MB each). */
        private final List<HttpRequest.BodyPublisher> parts = new ArrayList<>();
        /** The files' bytes when they were added. */
        private long bytes;

        long bytes() {
            return bytes;
        }

        private void text(String s) {
            parts.add(HttpRequest.BodyPublishers.ofString(s, StandardCharsets.UTF_8));
        }

        Multipart field(String name, String value) {
            text("--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + headerSafe(name)
                    + "\"\r\n\r\n" + value + "\r\n");
            return this;
        }

        /** A name in a part header: no quote, backslash or line break can end it or start another header. */
        private static String headerSafe(String s) {
            if (s.chars().anyMatch(ch -> ch == '\r' || ch == '\n' || ch == '"' || ch == '\\')) {
                throw new IllegalArgumentException("a multipart name must not hold quotes, backslashes or line "
                        + "breaks: '" + s.replaceAll("[\\r\\n]", " ") + "'");
            }
            return s;
        }

        Multipart file(String name, Path file) {
            // Checked here, before anything is sent: a file found unreadable while the request is under way failed
            // it as "did not answer", after the files before it had been uploaded.
            try (InputStream probe = Files.newInputStream(file)) {
                if (!Files.isRegularFile(file)) {
                    throw new IOException("not a regular file");
                }
                bytes += Files.size(file);
                // Read as it is sent, opened again by a retry; of no declared length (the request is chunked), so
                // a file still being written is sent as it is then, where a length taken now failed the upload.
                HttpRequest.BodyPublisher bytes = HttpRequest.BodyPublishers.ofInputStream(() -> {
                    try {
                        return Files.newInputStream(file);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
                String fileName = file.getFileName().toString().replaceAll("[\"\\\\\\r\\n]", "_");
                text("--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + headerSafe(name)
                        + "\"; filename=\"" + fileName + "\"\r\nContent-Type: application/octet-stream\r\n\r\n");
                parts.add(bytes);
                text("\r\n");
                return this;
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage(), e);
            }
        }

        String contentType() {
            return "multipart/form-data; boundary=" + boundary;
        }

        HttpRequest.BodyPublisher publisher() {
            List<HttpRequest.BodyPublisher> all = new ArrayList<>(parts);
            all.add(HttpRequest.BodyPublishers.ofString("--" + boundary + "--\r\n", StandardCharsets.UTF_8));
            return HttpRequest.BodyPublishers.concat(all.toArray(HttpRequest.BodyPublisher[]::new));
        }
    }
}
