package io.polyrag.mcp;

import io.polyrag.app.api.Limits;
import io.polyrag.core.config.Settings;
import io.polyrag.core.fs.Confinement;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The tools: each normalises its arguments ({@link Args}), makes exactly one request to the REST API
 * ({@link Backend}) and answers one envelope with the same keys whatever happened: {@code ok}, {@code tool},
 * {@code status} (the REST status, null when no request was made), {@code data} (null on failure, but a failed
 * answer carries the sources it found) and {@code error} ({@code {message, field}}, null on success). No business
 * logic lives here: the REST API decides everything.
 */
final class Tools {
    static final int MAX_FILES = Limits.MAX_FILES_PER_REQUEST;
    private static final int MAX_TEXT = 10 * 1024 * 1024;
    private final Backend backend;
    private final HostFiles files;
    private final int maxTopK;

    Tools(Backend backend) {
        this(backend, new HostFiles(Confinement.NONE, null), Settings.SEARCH_MAX_TOP_K
                .defaultValue());
    }

    /**
     * @param files which files on this host {@code start_document_ingest} may read
     * @param maxTopK the largest {@code top_k} a search may ask for: the REST API's ({@code search.max.top.k})
     */
    Tools(Backend backend, HostFiles files, int maxTopK) {
        this.backend = backend;
        this.files = files;
        this.maxTopK = maxTopK;
    }

    /**
     * What {@code start_document_ingest} may read on this host: files {@code confinement} allows, or none at all
     * (null {@code refusal}: a network transport with no allowed roots, whose clients upload through the REST API).
     */
    record HostFiles(Confinement confinement, String refusal) {
    }

    /** One tool: its name, what an LLM needs to know to use it, its argument schema, and what it does. */
    record Tool(String name, String description, String inputSchema, Handler handler) {
    }

    @FunctionalInterface
    interface Handler {
        Map<String, Object> call(Args args) throws Args.Bad, Backend.Unreachable;
    }

    // style: the list of MCP tools, one declaration each
    List<Tool> all() {
        return List.of(
                new Tool("check_backend_health", "Check that the polyrag server answers: its status, version, enabled "
                        + "retrievers (vector, fulltext, graph, rdf), document count and any problems. Call it first "
                        + "when other tools fail.", schema("{}", List.of()), a -> {
                            a.onlyKnown(Set.of());
                            return reply("check_backend_health", backend.get("/health"), Tools::json);
                        }),
                new Tool("describe_configuration", "Describe what the polyrag server runs: which retrievers are "
                        + "active and on which backend, the embedding model, fusion method and weights, reranker, and "
                        + "whether answers are extractive or written by a language model.", schema("{}", List.of()),
                        a -> {
                            a.onlyKnown(Set.of());
                            return reply("describe_configuration", backend.get("/v1/configuration"), Tools::json);
                        }),
                new Tool("list_knowledge_bases", "List the knowledge bases you can search, with their descriptions "
                        + "and document and chunk counts. Pass a name as knowledge_base to the other tools.",
                        schema("{}", List.of()), a -> {
                            a.onlyKnown(Set.of());
                            return reply("list_knowledge_bases", backend.get("/v1/knowledge-bases"), Tools::json);
                        }),
                new Tool("start_document_ingest", "Index files from this machine into polyrag as a background job "
                        + "(PDF, Word, Excel, PowerPoint, HTML, Markdown, text, code, images with OCR, …). Directories "
                        + "are read recursively. Returns a job_id: poll check_ingest_status until its status is "
                        + "succeeded, partial, failed or canceled.", schema("""
                        {"paths": {"type": "array", "items": {"type": "string"},
                           "description": "files or directories: a list, a JSON array string, or comma-separated"},
                         "knowledge_base": {"type": "string", "description": "where to index them (default: default)"},
                         "skip_graph": {"type": "boolean",
                           "description": "index without extracting entities and relations"},
                         "config": {"type": "object",
                           "description": "the same options as an object or JSON string: knowledge_base, skip_graph",
                           "properties": {"knowledge_base": {"type": "string"}, "skip_graph": {"type": "boolean"}}}}
                        """, List.of("paths")), this::ingestFiles),
                new Tool("ingest_raw_text", "Index one text now (not a job): notes, a transcript, a page you already "
                        + "have. The same text under the same uri is recognised and not indexed twice. Returns the "
                        + "document_id.", schema("""
                        {"text": {"type": "string", "description": "the content"},
                         "title": {"type": "string", "description": "its title (default: its first line)"},
                         "uri": {"type": "string", "description": "its identity; re-sending the same uri updates it"},
                         "format": {"type": "string", "enum": ["text", "markdown", "html"]},
                         "knowledge_base": {"type": "string"},
                         "skip_graph": {"type": "boolean"}}
                        """, List.of("text")), this::ingestText),
                new Tool("check_ingest_status", "The state of an ingest job: status (queued, running, succeeded, "
                        + "partial, failed, canceled), stage, percentage, ETA, counts and per-file errors.",
                        schema("""
                        {"job_id": {"type": "string", "description": "from start_document_ingest"}}
                        """, List.of("job_id")), a -> {
                            a.onlyKnown(Set.of("job_id"));
                            String id = a.string("job_id", true, 200);
                            return reply("check_ingest_status", backend.get("/v1/jobs/" + Backend.encode(id)),
                                    Tools::json);
                        }),
                new Tool("hybrid_search", "Search the indexed documents by meaning (vectors) and exact words (BM25), "
                        + "and by entities where the graph is on; the rankings are fused. Each hit has the title, uri, "
                        + "location (page, sheet, slide), text, score and its rank in each retriever: cite title and "
                        + "location.", schema("""
                        {"query": {"type": "string"},
                         "knowledge_base": {"type": "array", "items": {"type": "string"},
                           "description": "one name, a list, or comma-separated; default: all of yours"},
                         "top_k": {"type": "integer", "description": "hits to return, 1-MAX_TOP_K (default: the server's POLYRAG_SEARCH_TOP_K)"},
                         "modalities": {"type": "array", "items": {"type": "string"},
                           "description": "vector, fulltext, graph, rdf; default: every enabled one"},
                         "config": {"type": "object",
                           "description": "more search fields as an object or JSON string: fusion (weighted, rrf), category, document_ids, explain",
                           "properties": {"fusion": {"type": "string", "enum": ["weighted", "rrf"]},
                             "category": {"type": "string"}, "document_ids": {"type": "array", "items": {"type": "string"}},
                             "explain": {"type": "boolean"}}}}
                        """, List.of("query")), a -> search(a, false)),
                new Tool("answer_question", "Answer a question from the indexed documents, citing numbered sources "
                        + "[1], [2] … with their title, uri and the passages used. Answers are extractive unless the "
                        + "server has a language model configured.", schema("""
                        {"question": {"type": "string"},
                         "knowledge_base": {"type": "array", "items": {"type": "string"}},
                         "top_k": {"type": "integer", "description": "sources to consider, 1-MAX_TOP_K (default: the server's POLYRAG_ANSWER_TOP_K)"},
                         "config": {"type": "object",
                           "description": "more fields as an object or JSON string: modalities, fusion, neighbours, grounding, category, document_ids, route (true: decide first whether the question asks for a summary, a list, a comparison…)",
                           "properties": {"modalities": {"type": "array", "items": {"type": "string"}},
                             "fusion": {"type": "string", "enum": ["weighted", "rrf"]}, "neighbours": {"type": "integer"},
                             "grounding": {"type": "boolean"}, "category": {"type": "string"},
                             "document_ids": {"type": "array", "items": {"type": "string"}}, "route": {"type": "boolean"}}}}
                        """, List.of("question")), a -> search(a, true)),
                new Tool("run_sample_check", "End-to-end self-test of the server: indexes a small text into a "
                        + "throw-away knowledge base, finds it, deletes it and checks it is gone, timing each step.",
                        schema("{}", List.of()), a -> {
                            a.onlyKnown(Set.of());
                            return reply("run_sample_check", backend.postJson("/v1/sample-check", ""), Tools::json);
                        }),
                new Tool("delete_document", "Delete a document from every store (vector, full text, graph, RDF) "
                        + "and its stored original. Irreversible.", schema("""
                        {"document_id": {"type": "string", "description": "from a search hit or an ingest"}}
                        """, List.of("document_id")), a -> {
                            a.onlyKnown(Set.of("document_id"));
                            String id = a.string("document_id", true, 200);
                            return reply("delete_document", backend.delete("/v1/documents/" + Backend.encode(id)),
                                    body -> {
                                        ObjectNode d = Args.JSON.createObjectNode();
                                        d.put("document_id", id);
                                        d.put("deleted", true);
                                        return d;
                                    });
                        }));
    }

    private Map<String, Object> ingestFiles(Args a) throws Args.Bad, Backend.Unreachable {
        a.onlyKnown(Set.of("paths", "knowledge_base", "skip_graph", "config"));
        Map<String, Object> merged = new LinkedHashMap<>(a.object("config"));
        Args config = new Args(merged);
        config.onlyKnown(Set.of("knowledge_base", "skip_graph"));
        String kb = a.string("knowledge_base", false, 64);
        kb = kb != null ? kb : config.string("knowledge_base", false, 64);
        boolean skipGraph = a.bool("skip_graph", config.bool("skip_graph", false));
        List<String> given = HostPaths.given(a, files, MAX_FILES);
        if (given.isEmpty()) {
            throw new Args.Bad("paths", "'paths' is required: files or directories on this machine");
        }
        if (files.refusal() != null) {
            throw new Args.Bad("paths", files.refusal());
        }
        Confinement confinement = files.confinement();
        // Each file once, named by its path from the home folder (notes/2024/summary.md), else from the root: one
        // file, one document, however it was named (by its file name alone, two folders' summary.md were one
        // document, the second ingest replacing the first).
        Map<Path, String> chosen = new LinkedHashMap<>();
        for (String p : given) {
            Path path = HostPaths.path(p);
            refuseOutside(path, confinement);
            if (Files.isDirectory(path)) {
                try {
                    FolderWalk.walk(FolderWalk.realFolder(path), MAX_FILES + 1 - chosen.size(), confinement)
                            .forEach(f -> chosen.putIfAbsent(f, FolderWalk.sentName(f)));
                } catch (IOException | UncheckedIOException e) {
                    throw new Args.Bad("paths", "cannot read the directory " + path + ": " + e.getMessage());
                }
            } else if (Files.isRegularFile(path)) {
                chosen.putIfAbsent(path, FolderWalk.sentName(path));
            } else {
                throw new Args.Bad("paths", "no such file or directory: " + path);
            }
            if (chosen.size() > MAX_FILES) {
                throw new Args.Bad("paths", "more than " + MAX_FILES + " files; ingest a narrower directory");
            }
        }
        // The same file named twice (a folder and a file in it, or through a link) is sent once.
        Map<String, Path> byName = new LinkedHashMap<>();
        chosen.forEach((f, name) -> byName.putIfAbsent(name, f));
        List<Path> found = new ArrayList<>(byName.values());
        List<String> names = new ArrayList<>(byName.keySet());
        if (found.isEmpty()) {
            throw new Args.Bad("paths", "the directories hold no files");
        }
        Map<String, String> fields = new LinkedHashMap<>();
        if (kb != null) {
            fields.put("kb", kb);
        }
        fields.put("skip_graph", Boolean.toString(skipGraph));
        return reply("start_document_ingest", backend.postFiles("/v1/ingest/files", "files", found, names, fields,
                confinement), Tools::json);
    }

    /** A path given outside the readable roots, or into a data directory: refused naming it. */
    private static void refuseOutside(Path path, Confinement confinement) throws Args.Bad {
        if (confinement.confined()) {
            // A path outside every root is refused before the file system is asked: "no such file" for a
            // missing one and "outside" for an existing one told a network client what exists elsewhere. The
            // roots are real paths, so the path is compared as one (a root named through a link took nothing).
            Path real = HostPaths.real(path);
            var refused = confinement.roots().stream().noneMatch(real::startsWith)
                    ? Optional.of(path + ": resolves outside the folders this reader may open")
                    : Files.exists(path) ? confinement.refusal(path) : Optional.<String>empty();
            if (refused.isPresent()) {
                throw new Args.Bad("paths", refused.get().replace("; skipped", "") + " (allowed: "
                        + confinement.roots() + ", POLYRAG_MCP_ALLOWED_ROOTS)");
            }
        }
        if (Files.exists(path) && FolderWalk.leadsInsideDataDirectory(path)) {
            throw new Args.Bad("paths", path + " is inside a polyrag data directory (stored originals, indexes): "
                    + "never read");
        }
    }

    private Map<String, Object> ingestText(Args a) throws Args.Bad, Backend.Unreachable {
        a.onlyKnown(Set.of("text", "title", "uri", "format", "knowledge_base", "skip_graph"));
        ObjectNode body = Args.JSON.createObjectNode();
        body.put("text", a.string("text", true, MAX_TEXT));
        putIf(body, "title", a.string("title", false, 1024));
        putIf(body, "uri", a.string("uri", false, 4096));
        putIf(body, "format", a.string("format", false, 16));
        putIf(body, "kb", a.string("knowledge_base", false, 64));
        body.put("skip_graph", a.bool("skip_graph", false));
        return reply("ingest_raw_text", backend.postJson("/v1/ingest/text", body.toString()), Tools::json);
    }

    private Map<String, Object> search(Args a, boolean answer) throws Args.Bad, Backend.Unreachable {
        String tool = answer ? "answer_question" : "hybrid_search";
        String queryField = answer ? "question" : "query";
        a.onlyKnown(answer ? Set.of("question", "knowledge_base", "top_k", "config")
                : Set.of("query", "knowledge_base", "top_k", "modalities", "config"));
        ObjectNode body = Args.JSON.valueToTree(a.object("config"));
        for (String reserved : List.of("query", "top_k", "kb", "stream")) {
            if (body.has(reserved)) {
                throw new Args.Bad("config", "'config' must not set '" + reserved + "': "
                        + (reserved.equals("stream") ? "the tool answers in one piece" : "use the tool's own argument"));
            }
        }
        body.put("query", a.string(queryField, true, 4096));
        // Without its own top_k, the server's: POLYRAG_ANSWER_TOP_K for an answer, POLYRAG_SEARCH_TOP_K for a search
        // (8 was sent, so that setting did nothing here, and a server whose max is under 8 refused every search).
        Integer topK = a.integer("top_k", null, 1, maxTopK);
        if (topK != null) {
            body.put("top_k", topK);
        }
        List<String> kbs = a.list("knowledge_base", 64);
        if (!kbs.isEmpty()) {
            ArrayNode arr = body.putArray("kb");
            kbs.forEach(arr::add);
        }
        if (!answer) {
            List<String> modalities = a.list("modalities", 4);
            if (!modalities.isEmpty()) {
                ArrayNode arr = body.putArray("modalities");
                modalities.forEach(arr::add);
            }
        }
        return reply(tool, backend.postJson(answer ? "/v1/query" : "/v1/search", body.toString()),
                answer ? Tools::answered : Tools::hits);
    }

    /** Search results as a model needs them to cite: per hit its text, where it is, and how each retriever ranked it. */
    private static JsonNode hits(JsonNode r) {
        ObjectNode out = Args.JSON.createObjectNode();
        out.set("query", r.get("query"));
        out.set("took_ms", r.get("took_ms"));
        out.set("modalities", r.get("modalities"));
        out.set("degraded", r.get("degraded"));
        // "N documents are still being indexed", "the reranker failed": without them an agent takes few or no hits
        // for the content not being there.
        out.set("warnings", r.get("warnings"));
        if (r.hasNonNull("fusion")) {
            // What explain asked for: the fusion's arithmetic in words.
            out.set("fusion", r.get("fusion"));
        }
        ArrayNode hits = out.putArray("hits");
        long text = 0;
        int left = 0;
        for (JsonNode h : r.path("hits")) {
            // A result an agent can read: hits past a budget of text are left out, and it says so (200 hits of
            // whole chunks were near a megabyte, which clients refuse or cut).
            text += h.path("text").asString("").length();
            if (text > MAX_RESULT_TEXT && !hits.isEmpty()) {
                left++;
                continue;
            }
            ObjectNode o = hits.addObject();
            for (String f : List.of("rank", "score", "title", "uri", "location", "text", "heading_path",
                    "knowledge_base", "document_id", "chunk_id")) {
                o.set(f, h.get(f));
            }
            o.set("retrievers", h.get("retrievers"));
            if (h.path("figures").size() > 0) {
                // What a client needs to show a figure or fetch it: its caption, place and image route.
                o.set("figures", h.get("figures"));
            }
            if (h.hasNonNull("explain")) {
                o.set("explain", h.get("explain"));
            }
        }
        if (left > 0) {
            ArrayNode warnings = out.path("warnings").isArray() ? ((ArrayNode) out.get("warnings")).deepCopy()
                    : Args.JSON.createArrayNode();
            warnings.add(left + " more hits were left out to keep this result under " + MAX_RESULT_TEXT
                    + " characters of text: ask for fewer (top_k) or a narrower search");
            out.set("warnings", warnings);
        }
        return out;
    }

    /** Characters of hit text one search result carries to the agent. */
    static final int MAX_RESULT_TEXT = 60_000;

    private static JsonNode json(JsonNode body) {
        return body;
    }

    /**
     * An answer as the REST API gives it, its sources' passages cut to a few lines each once they pass the result's
     * budget of text, and left out once even their openings would pass it by a quarter (every source kept, so each
     * [n] still names its document: a wide answer with neighbours was megabytes, and without a language model no
     * source is fitted to a prompt first).
     */
    static JsonNode answered(JsonNode body) {
        if (!body.path("sources").isArray()) {
            return body;
        }
        JsonNode out = body.deepCopy();
        long text = 0;
        int cut = 0;
        int dropped = 0;
        for (JsonNode source : out.path("sources")) {
            if (!(source.path("passages") instanceof ArrayNode passages)) {
                continue;
            }
            for (int i = 0; i < passages.size(); i++) {
                String t = passages.get(i).path("text").asString("");
                if (text + t.length() <= MAX_RESULT_TEXT) {
                    text += t.length();
                } else if (text + OPENING <= MAX_RESULT_TEXT + MAX_RESULT_TEXT / 4
                        && passages.get(i) instanceof ObjectNode o) {
                    o.put("text", t.length() > OPENING ? t.substring(0, OPENING) + "…" : t);
                    text += Math.min(t.length(), OPENING);
                    cut++;
                } else {
                    passages.remove(i--);
                    dropped++;
                }
            }
        }
        if (cut + dropped > 0 && out instanceof ObjectNode o) {
            o.put("note_on_sources", (cut > 0 ? cut + " passages were cut to their opening" : "")
                    + (cut > 0 && dropped > 0 ? " and " : "") + (dropped > 0 ? dropped + " left out" : "")
                    + " to keep this result under " + MAX_RESULT_TEXT + " characters of text: ask with a smaller "
                    + "top_k or fewer neighbours for them whole");
        }
        return out;
    }

    /** Characters of a passage kept once an answer's sources are past the budget. */
    private static final int OPENING = 200;

    private static void putIf(ObjectNode o, String field, String value) {
        if (value != null) {
            o.put(field, value);
        }
    }

    /** The envelope of a request that was made: data on 2xx, the problem's detail otherwise. */
    private static Map<String, Object> reply(String tool, Backend.Reply r, Function<JsonNode,
            JsonNode> shape) {
        JsonNode body = null;
        if (r.body() != null && !r.body().isBlank()) {
            try {
                body = Args.JSON.readTree(r.body());
            } catch (JacksonException e) {
                body = null;
            }
        }
        if (r.ok() && body == null && r.body() != null && !r.body().isBlank()) {
            // A 2xx that is not polyrag's JSON (a login page, a web app answering every path): the wrong address,
            // not an empty result an agent would take as "nothing there".
            return envelope(tool, false, r.status(), null, "the server answered " + r.status() + " with "
                    + (r.contentType() == null ? "a body" : r.contentType()) + " that is not polyrag's JSON: check "
                    + "the address (--backend-url or POLYRAG_MCP_BACKEND_URL)", null);
        }
        if (r.ok()) {
            return envelope(tool, true, r.status(), shape.apply(body == null ? Args.JSON.createObjectNode() : body),
                    null, null);
        }
        String message = body != null && body.hasNonNull("detail") ? body.get("detail").asString()
                : "the REST API answered " + r.status() + (r.body() == null ? "" : ": " + r.body().substring(0,
                        Math.min(200, r.body().length())));
        if (r.status() == 401) {
            message += " (send a valid API key: --api-key or POLYRAG_MCP_API_KEY)";
        }
        // A model that failed still leaves the sources it would have cited: an agent can answer from them.
        JsonNode sources = body == null ? null : body.get("sources");
        ObjectNode data = null;
        if (sources != null && sources.isArray() && !sources.isEmpty()) {
            data = Args.JSON.createObjectNode();
            // Within the same budget as an answer's: a failure's sources were whole (a long-context model's
            // hundreds of thousands of characters), and a client keeping an error's head lost its reason.
            JsonNode fitted = answered(body);
            data.set("sources", fitted.get("sources"));
            if (fitted.hasNonNull("note_on_sources")) {
                data.set("note_on_sources", fitted.get("note_on_sources"));
            }
        }
        return envelope(tool, false, r.status(), data, message, null);
    }

    /** The one shape every tool answers. */
    static Map<String, Object> envelope(String tool, boolean ok, Integer status, JsonNode data, String message,
            String field) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("ok", ok);
        e.put("tool", tool);
        e.put("status", status);
        // The error before the data: a client that cuts a long result keeps why it failed.
        if (ok) {
            e.put("error", null);
        } else {
            Map<String, Object> error = new LinkedHashMap<>();
            error.put("message", message);
            error.put("field", field);
            e.put("error", error);
        }
        e.put("data", data == null ? null : Args.JSON.convertValue(data, Object.class));
        return e;
    }

    /** A JSON schema for a tool's arguments: these properties, these required. */
    private String schema(String properties, List<String> required) {
        ObjectNode s = Args.JSON.createObjectNode();
        s.put("type", "object");
        s.set("properties", Args.JSON.readTree(properties.replace("MAX_TOP_K", Integer.toString(maxTopK))));
        ArrayNode req = s.putArray("required");
        required.forEach(req::add);
        s.put("additionalProperties", false);
        return s.toString();
    }
}
