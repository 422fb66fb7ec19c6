package io.polyrag.server;

import static io.polyrag.server.Http.jsonBody;

import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import io.javalin.http.UploadedFile;
import io.polyrag.app.Json;
import io.polyrag.app.Polyrag;
import io.polyrag.app.api.FusionTuning;
import io.polyrag.app.api.JudgedQuery;
import io.polyrag.app.api.KbEvaluation;
import io.polyrag.app.wire.IngestWire;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.NotFoundException;
import io.polyrag.core.model.Ids;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * {@code /v1/knowledge-bases}: list, create, read (with counts) and delete (with every document in it); a knowledge
 * base's judged queries, the fusion tuned on them, and its evaluation on them.
 */
final class KnowledgeBaseRoutes {
    private final Polyrag polyrag;

    /** {@code POST /v1/knowledge-bases}. */
    record NewKnowledgeBase(String name, String description) {
    }

    /** {@code POST /v1/knowledge-bases/{name}/judgments} as JSON. */
    record NewJudgments(List<JudgedQuery> judgments) {
    }

    /** {@code GET /v1/knowledge-bases/{name}/judgments}. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record JudgmentList(String knowledgeBase, int queries, List<JudgedQuery> judgments) {
    }

    /** What adding or deleting judged queries did. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record JudgmentsChanged(String knowledgeBase, int added, int deleted, int queries) {
    }

    /** {@code POST /v1/knowledge-bases/{name}/tune}: the job, queued. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record TuneAccepted(String jobId, String status, String knowledgeBase, String location) {
    }

    /** The multipart form of a BEIR judgment upload. */
    private static final List<String> BEIR_FIELDS = List.of("qrels", "queries");

    KnowledgeBaseRoutes(Polyrag polyrag) {
        this.polyrag = polyrag;
    }

    /** The facets acting for the tenant the request authenticated as. */
    private Polyrag.TenantFacets tenant(Context ctx) {
        return polyrag.as(Auth.tenant(ctx));
    }

    void register(Api api) {
        api.get("/v1/knowledge-bases", ctx -> ctx.json(IngestWire.knowledgeBases(tenant(ctx).knowledgeBases()
                .list()))).summary("knowledge bases", "Your knowledge bases with their counts")
                .response(200, "the knowledge bases", IngestWire.KnowledgeBaseList.class);
        api.post("/v1/knowledge-bases", this::create).summary("knowledge bases", "Create an empty knowledge base")
                .body(api.schemas(), NewKnowledgeBase.class, "name")
                .response(201, "created", IngestWire.KnowledgeBase.class);
        api.get("/v1/knowledge-bases/{name}", ctx -> ctx.json(IngestWire.knowledgeBase(
                tenant(ctx).knowledgeBases().get(ctx.pathParam("name"))))).summary("knowledge bases",
                "A knowledge base with its document and chunk counts").path("name", "its name")
                .response(200, "the knowledge base", IngestWire.KnowledgeBase.class);
        api.delete("/v1/knowledge-bases/{name}", ctx -> {
            tenant(ctx).knowledgeBases().delete(ctx.pathParam("name"), Http.booleanParam(ctx, "force"));
            ctx.status(HttpStatus.NO_CONTENT);
        }).summary("knowledge bases", "Delete a knowledge base and every document in it; ingest jobs writing into it "
                + "are canceled first").path("name", "its name").query("force", "boolean", "also delete the sync "
                        + "sources feeding it (without it, a knowledge base a source feeds is a 409 naming them)")
                .response(204, "deleted", null);
        registerJudgments(api);
    }

    private void registerJudgments(Api api) {
        String kbs = "knowledge bases";
        api.post("/v1/knowledge-bases/{name}/judgments", this::addJudgments).summary(kbs, "Add judged queries (a "
                + "query and its relevant documents, graded): JSON, or multipart/form-data with BEIR files 'qrels' "
                + "(query-id, corpus-id, score) and 'queries' (JSON lines); a query id judged before is replaced, as "
                + "is one question judged under another id")
                .path("name", "the knowledge base").body(api.schemas(), NewJudgments.class, "judgments")
                .orMultipart(BEIR_FIELDS)
                .response(200, "what was added", JudgmentsChanged.class);
        api.get("/v1/knowledge-bases/{name}/judgments", ctx -> {
            String name = ctx.pathParam("name");
            var list = tenant(ctx).knowledgeBases().judgments(name);
            ctx.json(new JudgmentList(name, list.size(), list));
        }).summary(kbs, "The knowledge base's judged queries").path("name", "the knowledge base")
                .response(200, "its judged queries", JudgmentList.class);
        api.delete("/v1/knowledge-bases/{name}/judgments", ctx -> {
            String name = ctx.pathParam("name");
            int deleted = tenant(ctx).knowledgeBases().deleteJudgments(name, Http.query(ctx, "query_id"));
            ctx.json(new JudgmentsChanged(name, 0, deleted, tenant(ctx).knowledgeBases().judgments(name).size()));
        }).summary(kbs, "Delete the knowledge base's judged queries, or one (query_id)").path("name",
                "the knowledge base").query("query_id", "string", "only this judged query")
                .response(200, "what was deleted", JudgmentsChanged.class);
        api.post("/v1/knowledge-bases/{name}/tune", ctx -> {
            String name = ctx.pathParam("name");
            String id = tenant(ctx).knowledgeBases().tune(name);
            String location = "/v1/jobs/" + id;
            ctx.status(HttpStatus.ACCEPTED).header("Location", location).json(new TuneAccepted(id, "queued", name,
                    location));
        }).summary(kbs, "Fit the knowledge base's fusion to its judged queries (at least 20), as a job: it is applied "
                + "to the knowledge base's searches only when it beats the configured fusion on held-out folds")
                .path("name", "the knowledge base").response(202, "the job, queued", TuneAccepted.class);
        api.get("/v1/knowledge-bases/{name}/tuning", ctx -> ctx.json(tenant(ctx).knowledgeBases().tuning(
                ctx.pathParam("name")).orElseThrow(() -> new NotFoundException("knowledge base '" + ctx.pathParam(
                        "name") + "' was not tuned: POST /v1/knowledge-bases/" + ctx.pathParam("name") + "/tune"))))
                .summary(kbs, "What the last tuning found, and whether its searches use it").path("name",
                        "the knowledge base").response(200, "the tuning", FusionTuning.class);
        api.delete("/v1/knowledge-bases/{name}/tuning", ctx -> {
            tenant(ctx).knowledgeBases().dropTuning(ctx.pathParam("name"));
            ctx.status(HttpStatus.NO_CONTENT);
        }).summary(kbs, "Drop the tuning: the knowledge base's searches use the configured fusion again")
                .path("name", "the knowledge base").response(204, "dropped", null);
        // No HEAD: it would run a whole evaluation to answer with headers alone.
        api.stream("/v1/knowledge-bases/{name}/evaluation", ctx -> {
            String name = ctx.pathParam("name");
            var facet = tenant(ctx).knowledgeBases();
            ctx.json(Http.booleanParam(ctx, "last") ? facet.lastEvaluation(name).orElseThrow(() ->
                    new NotFoundException("knowledge base '" + name + "' was never evaluated: GET "
                            + "/v1/knowledge-bases/" + name + "/evaluation")) : facet.evaluate(name));
        }).summary(kbs, "Measure the knowledge base's search on its judged queries: the configured fusion, the tuned "
                + "one and each leg alone (nDCG@10, Recall@100, MRR@10, 95% intervals, paired tests); kept as its "
                + "last evaluation").path("name", "the knowledge base").query("last", "boolean",
                        "return the last evaluation kept instead of running one")
                .response(200, "the evaluation", KbEvaluation.class);
    }

    private void addJudgments(Context ctx) {
        String name = ctx.pathParam("name");
        List<JudgedQuery> judged;
        if (ctx.isMultipartFormData()) {
            Http.checkFormFields(ctx, Set.of(), Set.copyOf(BEIR_FIELDS));
            for (String field : BEIR_FIELDS) {
                if (ctx.uploadedFile(field) == null && ctx.formParam(field) == null) {
                    throw new InvalidInputException("form field '" + field + "' is required: send "
                            + "BEIR qrels (query-id, corpus-id, score) and queries (JSON lines) together");
                }
            }
            Set<String> given = new TreeSet<>(ctx.formParamMap().keySet());
            given.addAll(ctx.uploadedFileMap().keySet());
            given.removeAll(BEIR_FIELDS);
            if (!given.isEmpty()) {
                throw new InvalidInputException("form field '" + Ids.abbreviate(
                        given.iterator().next(), 40) + "' is not one this route takes: it takes qrels and queries");
            }
            String qrels = part(ctx, "qrels");
            UploadedFile queries = ctx.uploadedFile("queries");
            if (queries == null) {
                judged = JudgedQuery.fromBeir(qrels, part(ctx, "queries"));
            } else {
                // Read as a stream, keeping the judged queries' texts only: a collection's queries file holds every
                // split's (a 16 MiB cap refused MS MARCO's), up to the server's request limit.
                try (InputStream in = queries.content()) {
                    judged = JudgedQuery.fromBeir(qrels, new InputStreamReader(in, StandardCharsets.UTF_8));
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read the uploaded queries", e);
                }
            }
        } else {
            judged = Json.read(jsonBody(ctx), NewJudgments.class).judgments();
        }
        var facet = tenant(ctx).knowledgeBases();
        int added = facet.addJudgments(name, judged);
        ctx.json(new JudgmentsChanged(name, added, 0, facet.judgments(name).size()));
    }

    /**
     * A BEIR part, at most {@link Http#JSON_MAX_BYTES} (413 past it): a 256 MiB qrels file of one-character lines was
     * split into a hundred million strings before its line count was checked.
     */
    private static String part(Context ctx, String field) {
        UploadedFile f = ctx.uploadedFile(field);
        if (f == null) {
            String value = ctx.formParam(field);
            if (value != null && value.length() > Http.JSON_MAX_BYTES) {
                throw new Http.BodyTooLarge();
            }
            return value;
        }
        if (f.size() > Http.JSON_MAX_BYTES) {
            throw new Http.BodyTooLarge();
        }
        try (InputStream in = f.content()) {
            byte[] bytes = in.readNBytes(Http.JSON_MAX_BYTES + 1);
            if (bytes.length > Http.JSON_MAX_BYTES) {
                throw new Http.BodyTooLarge();
            }
            return new String(bytes, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the uploaded " + field, e);
        }
    }

    private void create(Context ctx) {
        NewKnowledgeBase b = Json.read(jsonBody(ctx), NewKnowledgeBase.class);
        var created = tenant(ctx).knowledgeBases().create(b.name(), b.description());
        String location = "/v1/knowledge-bases/" + created.name();
        ctx.status(HttpStatus.CREATED).header("Location", location).json(IngestWire.knowledgeBase(created));
    }
}
