package io.polyrag.server;

import io.polyrag.app.Json;
import io.javalin.Javalin;
import io.javalin.config.SizeUnit;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import io.javalin.http.HttpStatus;
import io.javalin.http.UploadedFile;
import io.javalin.json.JavalinJackson3;
import io.polyrag.app.Polyrag;
import org.eclipse.jetty.http.HttpException;
import io.polyrag.app.Requests;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.NotFoundException;
import io.polyrag.core.UnavailableException;
import io.polyrag.core.model.FusionMethod;
import io.polyrag.core.model.Modality;
import io.polyrag.core.model.SearchRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * The REST API over the {@link Polyrag} facade: it parses requests, calls one facade method and maps exceptions to
 * problem details; it holds no behaviour of its own. Requests run on virtual threads.
 *
 * <p>Errors: {@link InvalidInputException} → 400, {@link NotFoundException} → 404, an oversized body → 413, a wrong
 * content type → 415, {@link UnavailableException} → 503; anything else → 500 with an error id that is logged with
 * the stack trace, which never reaches the client.
 */
public final class RestServer implements io.polyrag.app.HttpFrontDoor {
    private static final System.Logger LOG = System.getLogger(RestServer.class.getName());
    private static final System.Logger ACCESS = System.getLogger("io.polyrag.server.access");
    private static final String REQUEST_ID = "polyrag.request.id";
    private static final String REQUEST_ID_HEADER = "X-Request-Id";
    private static final String PROBLEM = "application/problem+json";

    private final Polyrag polyrag;
    private final Javalin app;

    /**
     * Starts the server.
     *
     * @param host address to bind
     * @param port port to bind; 0 picks a free one ({@link #port()} tells which)
     * @param maxRequestBytes largest request body, uploads included
     */
    public RestServer(Polyrag polyrag, String host, int port, long maxRequestBytes) {
        this.polyrag = polyrag;
        this.app = Javalin.create(config -> {
            config.startup.showJavalinBanner = false;
            config.concurrency.useVirtualThreads = true;
            config.jsonMapper(new JavalinJackson3(Json.MAPPER, false));
            config.http.maxRequestSize = maxRequestBytes;
            config.http.prefer405over404 = true;
            config.jetty.modifyServer(server -> server.setErrorHandler(new ProblemErrorHandler()));
            config.jetty.modifyServletContextHandler(context -> context.setErrorHandler(new ProblemErrorHandler()));
            config.jetty.host = host;
            config.jetty.port = port;
            config.jetty.multipartConfig.maxFileSize(maxRequestBytes, SizeUnit.BYTES);
            config.jetty.multipartConfig.maxTotalRequestSize(maxRequestBytes, SizeUnit.BYTES);
            config.jetty.multipartConfig.maxInMemoryFileSize(1, SizeUnit.MB);
            cors(config, polyrag.config().get(io.polyrag.core.config.Settings.HTTP_CORS_ORIGINS));
            // One access-log line per request, under the id echoed in X-Request-Id.
            config.requestLogger.http((ctx, ms) -> ACCESS.log(ctx.statusCode() >= 500 ? System.Logger.Level.WARNING
                    : System.Logger.Level.INFO, () -> String.format(Locale.ROOT, "%s %s %s %d %.1f ms",
                    ctx.attribute(REQUEST_ID), ctx.method(), route(ctx), ctx.statusCode(), ms)));
            config.routes.before(RestServer::requestId);
            routes(config.routes);
            errors(config.routes, tooLarge(maxRequestBytes));
        });
        app.start();
    }

    public int port() {
        return app.port();
    }

    private void routes(io.javalin.config.RoutesConfig r) {
        getAndHead(r, "/health", ctx -> ctx.json(health()));
        getAndHead(r, "/ready", this::ready);
        getAndHead(r, "/v1/admin/check", ctx -> {
            if (ctx.queryParam("repair") != null) {
                throw new InvalidInputException("a repair changes the stores: send it as POST "
                        + "/v1/admin/check?repair=true (GET only reports)");
            }
            ctx.json(polyrag.check(false));
        });
        r.post("/v1/admin/check", ctx -> ctx.json(polyrag.check(booleanParam(ctx, "repair"))));
        getAndHead(r, "/v1/search", this::searchGet);
        r.post("/v1/search", this::searchPost);
        r.post("/v1/query", this::query);
        r.post("/v1/ingest/text", this::ingestText);
        r.post("/v1/ingest/files", this::ingestFiles);
        r.post("/v1/ingest/upload", this::upload);
        r.post("/v1/ingest/staged", this::ingestStaged);
        getAndHead(r, "/v1/formats", ctx -> ctx.json(polyrag.formats()));
        getAndHead(r, "/v1/jobs/{id}", ctx -> ctx.json(polyrag.job(ctx.pathParam("id"))));
        getAndHead(r, "/v1/documents", this::documents);
        r.delete("/v1/documents/{id}", this::deleteDocument);
        getAndHead(r, "/v1/graph/entities", this::entities);
        getAndHead(r, "/v1/graph/entities/{id}/neighbours", this::neighbours);
    }

    /**
     * Gives every request an id: the client's {@code X-Request-Id} when it is a sane token (letters, digits, {@code
     * -_.:}, at most 64), else a new UUID; echoed in the response and the access log.
     */
    private static void requestId(Context ctx) {
        String given = ctx.header(REQUEST_ID_HEADER);
        String id = given != null && given.matches("[A-Za-z0-9._:-]{1,64}") ? given : UUID.randomUUID().toString();
        ctx.attribute(REQUEST_ID, id);
        ctx.header(REQUEST_ID_HEADER, id);
    }

    /** The route pattern that answered ({@code /v1/jobs/{id}}), or the path when none did (a 404). */
    private static String route(Context ctx) {
        try {
            io.javalin.router.Endpoint e = ctx.endpoints().lastHttpEndpoint();
            return e == null ? ctx.path() : e.path;
        } catch (RuntimeException e) {
            return ctx.path();
        }
    }

    /** CORS for the configured origins; none configured: off, so browsers allow only the server's own origin. */
    private static void cors(io.javalin.config.JavalinConfig config, String origins) {
        List<String> list = Arrays.stream(origins.split(",")).map(String::strip).filter(o -> !o.isEmpty()).toList();
        if (list.isEmpty()) {
            return;
        }
        for (String o : list) {
            if (!o.equals("*") && !o.matches("https?://[A-Za-z0-9.-]+(:\\d{1,5})?")) {
                throw new io.polyrag.core.ConfigException("POLYRAG_HTTP_CORS_ORIGINS: '" + o + "' is not an origin: "
                        + "give scheme://host[:port] (e.g. https://app.example.com), or * for any");
            }
        }
        config.bundledPlugins.enableCors(cors -> cors.addRule(rule -> {
            if (list.contains("*")) {
                rule.anyHost();
            } else {
                list.forEach(o -> rule.allowHost(o));
            }
            rule.exposeHeader(REQUEST_ID_HEADER);
        }));
    }

    /** A GET route that also answers HEAD: the same handler, headers and status, no body (Jetty drops it). */
    private static void getAndHead(io.javalin.config.RoutesConfig r, String path, io.javalin.http.Handler handler) {
        r.get(path, handler);
        r.head(path, handler);
    }

    /** 200 when every store and model answers and agrees with the catalog; 503 naming what does not, and the fix. */
    private void ready(Context ctx) {
        List<String> problems = polyrag.readiness();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("status", problems.isEmpty() ? "ready" : "unavailable");
        out.put("problems", problems);
        ctx.status(problems.isEmpty() ? 200 : 503).json(out);
    }

    private Map<String, Object> health() {
        Polyrag.Status s = polyrag.status();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("status", s.problems().isEmpty() ? "ok" : "degraded");
        out.put("problems", s.problems());
        out.put("modalities", s.modalities());
        out.put("documents", s.documents());
        out.put("stores", s.storeRecords());
        out.put("embeddingModel", s.embeddingModel());
        return out;
    }

    private void searchGet(Context ctx) {
        String query = ctx.queryParam("q");
        if (query == null) {
            query = ctx.queryParam("query");
        }
        if (query == null) {
            throw new InvalidInputException("query parameter 'q' is missing: /v1/search?q=your+question");
        }
        Integer topK = intParam(ctx, "top_k");
        List<String> kbs = ctx.queryParams("kb").stream().flatMap(k -> Arrays.stream(k.split(","))).toList();
        List<String> modalities = ctx.queryParam("modalities") == null ? List.of()
                : List.of(ctx.queryParam("modalities").split(","));
        ctx.json(polyrag.search(request(query, topK, kbs, modalities, ctx.queryParam("fusion"))));
    }

    private void searchPost(Context ctx) {
        requireJson(ctx);
        Dtos.SearchBody b = Json.read(ctx.body(), Dtos.SearchBody.class);
        if (b.query() == null) {
            throw new InvalidInputException("field 'query' is missing: send {\"query\": \"your question\"}");
        }
        ctx.json(polyrag.search(request(b.query(), b.topK(), b.knowledgeBases(), b.modalities(), b.fusion())));
    }

    private void query(Context ctx) throws IOException {
        requireJson(ctx);
        Dtos.QueryBody b = Json.read(ctx.body(), Dtos.QueryBody.class);
        if (b.query() == null) {
            throw new InvalidInputException("field 'query' is missing: send {\"query\": \"your question\"}");
        }
        SearchRequest request = request(b.query(), b.topK() == null ? polyrag.defaultAnswerTopK() : b.topK(),
                b.knowledgeBases(), b.modalities(), b.fusion());
        boolean grounding = Boolean.TRUE.equals(b.grounding());
        if (Boolean.TRUE.equals(b.stream())) {
            streamAnswer(ctx, request, b.neighbours(), grounding);
        } else {
            ctx.json(polyrag.answer(request, b.neighbours(), grounding, t -> { }));
        }
    }

    /**
     * Server-sent events: {@code token} ({@code {"text": …}}) as the answer is written, then {@code answer} (the
     * whole answer with its sources), or {@code error} (a problem, with the sources when retrieval worked).
     */
    private void streamAnswer(Context ctx, SearchRequest request, Integer neighbours, boolean grounding)
            throws IOException {
        ctx.status(200).contentType("text/event-stream; charset=utf-8").header("Cache-Control", "no-cache");
        java.io.OutputStream out = ctx.res().getOutputStream();
        try {
            io.polyrag.core.model.Answer a = polyrag.answer(request, neighbours, grounding,
                    token -> event(out, "token", Map.of("text", token)));
            event(out, "answer", a);
        } catch (io.polyrag.core.AnswerUnavailableException e) {
            event(out, "error", new Dtos.AnswerProblem("about:blank", "Bad Gateway", 502, e.getMessage(),
                    e.sources()));
        } catch (InvalidInputException | UnavailableException e) {
            event(out, "error", Problem.of(e instanceof InvalidInputException ? 400 : 503,
                    e instanceof InvalidInputException ? "Bad Request" : "Service Unavailable", e.getMessage()));
        }
    }

    private static void event(java.io.OutputStream out, String name, Object data) {
        try {
            out.write(("event: " + name + "\ndata: " + Json.MAPPER.writeValueAsString(data) + "\n\n")
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8));
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("the client went away", e);
        }
    }

    private SearchRequest request(String query, Integer topK, List<String> kbs, List<String> modalities,
            String fusion) {
        Set<Modality> mods = new HashSet<>();
        for (String m : modalities == null ? List.<String>of() : modalities) {
            if (!m.isBlank()) {
                mods.add(Modality.parse(m));
            }
        }
        return new SearchRequest(query, topK == null ? polyrag.defaultTopK() : topK,
                kbs == null ? List.of() : kbs.stream().filter(k -> !k.isBlank()).toList(), mods,
                fusion == null || fusion.isBlank() ? null : FusionMethod.parse(fusion));
    }

    private void ingestText(Context ctx) {
        requireJson(ctx);
        Dtos.TextBody b = Json.read(ctx.body(), Dtos.TextBody.class);
        io.polyrag.core.model.IngestReport r = polyrag.ingestText(new Requests.TextIngest(b.text(), b.title(), b.uri(),
                b.format(), b.knowledgeBase(), Boolean.TRUE.equals(b.skipGraph())));
        // The one document's id and version at the top, so a client can fetch or delete it without a search.
        tools.jackson.databind.node.ObjectNode out = Json.MAPPER.valueToTree(r);
        io.polyrag.core.model.IndexedDocument d = r.indexed().isEmpty() ? null : r.indexed().getFirst();
        out.put("documentId", d == null ? null : d.documentId());
        out.put("version", d == null ? 0 : d.version());
        ctx.json(out);
    }

    private void ingestFiles(Context ctx) {
        List<UploadedFile> files = uploadedFiles(ctx, "ingest");
        String kb = io.polyrag.core.model.Ids.knowledgeBase(ctx.formParam("kb"));
        Path staging = polyrag.newStagingDir();
        String id;
        try {
            id = polyrag.submitUpload(kb, staging, stage(files, staging), flag(ctx.formParam("skip_graph"),
                    "skip_graph"));
        } catch (RuntimeException e) {
            polyrag.discardStaging(staging);
            throw e;
        }
        String location = "/v1/jobs/" + id;
        ctx.status(HttpStatus.ACCEPTED).header("Location", location)
                .json(new Dtos.Accepted(id, "queued", files.size(), location));
    }

    /** Stages and checks files; ingests nothing. 200 with what was accepted and what was skipped, and why. */
    private void upload(Context ctx) {
        List<UploadedFile> files = uploadedFiles(ctx, "stage");
        String kb = io.polyrag.core.model.Ids.knowledgeBase(ctx.formParam("kb"));
        Path tmp = polyrag.newStagingDir();
        try {
            ctx.json(polyrag.stage(kb, stage(files, tmp)));
        } finally {
            polyrag.discardStaging(tmp);
        }
    }

    private void ingestStaged(Context ctx) {
        requireJson(ctx);
        Dtos.StagedBody b = Json.read(ctx.body(), Dtos.StagedBody.class);
        if (b.ids() == null || b.ids().isEmpty()) {
            throw new InvalidInputException("'ids' is required: the ids POST /v1/ingest/upload accepted");
        }
        String id = polyrag.ingestStaged(b.ids(), b.knowledgeBase(), Boolean.TRUE.equals(b.skipGraph()));
        String location = "/v1/jobs/" + id;
        ctx.status(HttpStatus.ACCEPTED).header("Location", location)
                .json(new Dtos.Accepted(id, "queued", b.ids().size(), location));
    }

    /** The request's parts named {@code files}: 415 when it is not multipart, 400 when there are none. */
    private static List<UploadedFile> uploadedFiles(Context ctx, String verb) {
        if (!ctx.isMultipartFormData()) {
            throw new HttpResponseException(HttpStatus.UNSUPPORTED_MEDIA_TYPE.getCode(),
                    "send the files as multipart/form-data, one part named 'files' per file");
        }
        List<UploadedFile> files = ctx.uploadedFiles("files");
        if (files.isEmpty()) {
            throw new InvalidInputException("no files: add one part named 'files' per file to " + verb);
        }
        return files;
    }

    private static List<Requests.StagedFile> stage(List<UploadedFile> files, Path staging) {
        List<Requests.StagedFile> staged = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < files.size(); i++) {
            UploadedFile f = files.get(i);
            Path target = staging.resolve(Integer.toString(i));
            try (InputStream in = f.content()) {
                Files.copy(in, target);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot stage upload " + f.filename(), e);
            }
            staged.add(new Requests.StagedFile(unique(UploadNames.sanitise(f.filename()), names), target));
        }
        return staged;
    }

    private static String unique(String name, Set<String> taken) {
        String candidate = name;
        for (int n = 2; !taken.add(candidate); n++) {
            int dot = name.lastIndexOf('.');
            candidate = dot > 0 ? name.substring(0, dot) + " (" + n + ")" + name.substring(dot)
                    : name + " (" + n + ")";
        }
        return candidate;
    }

    private void documents(Context ctx) {
        Integer offset = intParam(ctx, "offset");
        Integer limit = intParam(ctx, "limit");
        int o = offset == null ? 0 : offset;
        int l = limit == null ? io.polyrag.app.Limits.DEFAULT_DOCUMENTS_PAGE : limit;
        ctx.json(new Dtos.DocumentPage(polyrag.documents(ctx.queryParam("kb"), o, l), o, l));
    }

    private void deleteDocument(Context ctx) {
        if (polyrag.deleteDocuments(List.of(ctx.pathParam("id"))) == 0) {
            throw new NotFoundException("no document with id '" + ctx.pathParam("id") + "'");
        }
        ctx.status(HttpStatus.NO_CONTENT);
    }

    private void entities(Context ctx) {
        String q = ctx.queryParam("q");
        if (q == null || q.isBlank()) {
            throw new InvalidInputException("query parameter 'q' is required: part of an entity's name");
        }
        Integer limit = intParam(ctx, "limit");
        ctx.json(new Dtos.EntityPage(polyrag.findEntities(q, ctx.queryParam("kb"), limit == null
                ? io.polyrag.app.Limits.DEFAULT_ENTITIES : limit)));
    }

    private void neighbours(Context ctx) {
        Integer limit = intParam(ctx, "limit");
        ctx.json(polyrag.neighbours(ctx.pathParam("id"), limit == null ? io.polyrag.app.Limits.DEFAULT_NEIGHBOURS
                : limit));
    }

    private static boolean flag(String value, String name) {
        if (value == null || value.isBlank()) {
            return false;
        }
        return switch (value.strip().toLowerCase(java.util.Locale.ROOT)) {
            case "true", "1", "yes" -> true;
            case "false", "0", "no" -> false;
            default -> throw new InvalidInputException("form field '" + name + "' must be true or false, was '"
                    + io.polyrag.core.model.Ids.abbreviate(value, 20) + "'");
        };
    }

    private static Integer intParam(Context ctx, String name) {
        String v = ctx.queryParam(name);
        if (v == null || v.isBlank()) {
            return null;
        }
        try {
            return Integer.parseInt(v.strip());
        } catch (NumberFormatException e) {
            throw new InvalidInputException("query parameter '" + name + "' must be an integer, was '"
                    + io.polyrag.core.model.Ids.abbreviate(v, 40) + "'");
        }
    }

    private static boolean booleanParam(Context ctx, String name) {
        String v = ctx.queryParam(name);
        if (v == null || v.equalsIgnoreCase("false")) {
            return false;
        }
        if (v.equalsIgnoreCase("true")) {
            return true;
        }
        throw new InvalidInputException("query parameter '" + name + "' must be true or false, was '"
                + io.polyrag.core.model.Ids.abbreviate(v, 40) + "'");
    }

    private static void requireJson(Context ctx) {
        String type = ctx.contentType();
        if (type == null || !type.toLowerCase(Locale.ROOT).startsWith("application/json")) {
            throw new HttpResponseException(HttpStatus.UNSUPPORTED_MEDIA_TYPE.getCode(),
                    "send the body as JSON with Content-Type: application/json (got " + type + ")");
        }
    }

    /** What a body over the limit is told: the limit and the setting that raises it. */
    private static String tooLarge(long maxRequestBytes) {
        String limit = maxRequestBytes % (1024 * 1024) == 0 ? (maxRequestBytes >> 20) + " MiB"
                : String.format(Locale.ROOT, "%,d bytes", maxRequestBytes);
        return "the request body is larger than the limit of " + limit + ": raise POLYRAG_HTTP_MAX_REQUEST_MB, or "
                + "send less (uploads: fewer or smaller files per request)";
    }

    private static void errors(io.javalin.config.RoutesConfig r, String tooLarge) {
        r.exception(InvalidInputException.class, (e, ctx) -> problem(ctx, 400, e.getMessage()));
        r.exception(NotFoundException.class, (e, ctx) -> problem(ctx, 404, e.getMessage()));
        r.exception(UnavailableException.class, (e, ctx) -> problem(ctx, 503, e.getMessage()));
        r.exception(io.polyrag.core.AnswerUnavailableException.class, (e, ctx) -> ctx.status(502).contentType(PROBLEM)
                .result(Json.MAPPER.writeValueAsString(new Dtos.AnswerProblem("about:blank", "Bad Gateway", 502,
                        e.getMessage(), e.sources()))));
        r.exception(io.javalin.http.NotFoundResponse.class, (e, ctx) -> problem(ctx, 404,
                "no route " + ctx.method() + " " + ctx.path() + "; the API is under /v1"));
        r.exception(io.javalin.http.MethodNotAllowedResponse.class, (e, ctx) -> {
            ctx.header("Allow", allowed(e.getDetails()));
            problem(ctx, 405, "method " + ctx.method() + " is not allowed on " + ctx.path() + "; use "
                    + allowed(e.getDetails()));
        });
        r.exception(HttpResponseException.class, (e, ctx) -> problem(ctx, e.getStatus(), e.getStatus() == 413 ? tooLarge
                : e.getMessage()));
        // A full disk is 507, a read-only or damaged store 503, each with its one line; other store failures are
        // internal errors like any other.
        r.exception(io.polyrag.core.StoreException.class, (e, ctx) -> {
            switch (io.polyrag.core.StorageProblems.kind(e)) {
                case DISK_FULL -> problem(ctx, 507, e.getMessage());
                case NOT_WRITABLE, DAMAGED -> problem(ctx, 503, e.getMessage());
                case OTHER -> internal(e, ctx, tooLarge);
            }
        });
        r.exception(Exception.class, (e, ctx) -> internal(e, ctx, tooLarge));
    }

    /** The methods a path answers, from Javalin's 405 details, in a fixed order, HEAD wherever GET is. */
    private static String allowed(Map<String, String> details) {
        String all = String.join(",", details.values()).toUpperCase(Locale.ROOT);
        List<String> out = new ArrayList<>();
        for (String m : List.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE")) {
            if (all.contains(m) || m.equals("HEAD") && all.contains("GET")) {
                out.add(m);
            }
        }
        return String.join(", ", out);
    }

    /** Jetty's multipart parser past maxFileSize or maxTotalRequestSize: a "bad multipart" 400 caused by a limit. */
    private static boolean multipartTooLarge(Throwable e) {
        boolean badMultipart = false;
        for (Throwable t = e; t != null; t = t.getCause()) {
            badMultipart |= t instanceof HttpException h && h.getCode() == 400;
            if (badMultipart && String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT).contains("exceeded")) {
                return true;
            }
        }
        return false;
    }

    private static void internal(Exception e, Context ctx, String tooLarge) {
        if (multipartTooLarge(e)) {
            problem(ctx, 413, tooLarge);
            return;
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof HttpResponseException h) {
                problem(ctx, h.getStatus(), h.getStatus() == 413 ? tooLarge : h.getMessage());
                return;
            }
            if (t instanceof HttpException b) {
                problem(ctx, b.getCode(), b.getCode() == 413 ? tooLarge : "malformed request: " + b.getReason());
                return;
            }
        }
        String id = UUID.randomUUID().toString();
        LOG.log(System.Logger.Level.ERROR, "internal error " + id + " on " + ctx.method() + " " + ctx.path(), e);
        problem(ctx, 500, "internal error; the server log has the details under error id " + id);
    }

    private static void problem(Context ctx, int status, String detail) {
        HttpStatus s = HttpStatus.forStatus(status);
        ctx.status(status).contentType(PROBLEM).result(Json.MAPPER.writeValueAsString(
                Problem.of(status, s == HttpStatus.UNKNOWN ? "Error" : s.getMessage(), detail)));
    }

    @Override
    public void close() {
        app.stop();
    }

    /** How a launcher starts this front door (registered for {@link java.util.ServiceLoader}). */
    public static final class Factory implements io.polyrag.app.HttpFrontDoor.Factory {
        @Override
        public io.polyrag.app.HttpFrontDoor start(Polyrag polyrag, String host, int port, long maxRequestBytes) {
            return new RestServer(polyrag, host, port, maxRequestBytes);
        }
    }
}
