package io.polyrag.server;

import static io.polyrag.server.Http.requireJson;

import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import io.polyrag.app.Json;
import io.polyrag.app.Polyrag;
import io.polyrag.app.wire.IngestWire;

/** {@code /v1/knowledge-bases}: list, create, read (with counts) and delete (with every document in it). */
final class KnowledgeBaseRoutes {
    private final Polyrag polyrag;

    /** {@code POST /v1/knowledge-bases}. */
    record NewKnowledgeBase(String name, String description) {
    }

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
    }

    private void create(Context ctx) {
        requireJson(ctx);
        NewKnowledgeBase b = Json.read(ctx.body(), NewKnowledgeBase.class);
        var created = tenant(ctx).knowledgeBases().create(b.name(), b.description());
        String location = "/v1/knowledge-bases/" + created.name();
        ctx.status(HttpStatus.CREATED).header("Location", location).json(IngestWire.knowledgeBase(created));
    }
}
