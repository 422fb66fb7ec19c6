package io.polyrag.server;

import static io.polyrag.server.Http.intParam;

import io.javalin.http.Context;
import io.polyrag.app.Polyrag;
import io.polyrag.app.api.Limits;
import io.polyrag.app.wire.AdminWire;
import io.polyrag.core.model.KnowledgeBase;
import io.polyrag.core.InvalidInputException;

/** {@code /v1/graph/*}: entities by name and the relations around one. */
final class GraphRoutes {
    private final Polyrag polyrag;

    GraphRoutes(Polyrag polyrag) {
        this.polyrag = polyrag;
    }

    /** The facets acting for the tenant the request authenticated as. */
    private Polyrag.TenantFacets tenant(Context ctx) {
        return polyrag.as(Auth.tenant(ctx));
    }

    void register(Api api) {
        api.get("/v1/graph/entities", this::entities).summary("graph",
                "Entities whose name or alias contains q, most mentioned first")
                .required("q", "string", "part of an entity's name").query("kb", "string", "count mentions in it only")
                .query("limit", "integer", "1-1000, default 20").response(200, "entities", AdminWire.Entities.class);
        api.get("/v1/graph/entities/{id}/neighbours", this::neighbours).summary("graph",
                "An entity and every relation touching it").path("id", "the entity id")
                .query("limit", "integer", "1-1000, default 50")
                .response(200, "the entity and its relations", AdminWire.Neighbourhood.class);
    }

    private void entities(Context ctx) {
        String q = Http.query(ctx, "q");
        if (q == null || q.isBlank()) {
            throw new InvalidInputException("query parameter 'q' is required: part of an entity's name");
        }
        Integer limit = intParam(ctx, "limit");
        String kb = Http.query(ctx, "kb");
        ctx.json(AdminWire.entities(tenant(ctx).graph().find(q, kb == null || kb.isBlank() ? null : KnowledgeBase.of(kb),
                limit == null ? Limits.DEFAULT_ENTITIES : limit)));
    }

    private void neighbours(Context ctx) {
        Integer limit = intParam(ctx, "limit");
        ctx.json(AdminWire.of(tenant(ctx).graph().neighbours(ctx.pathParam("id"), limit == null ? Limits.DEFAULT_NEIGHBOURS
                : limit)));
    }
}
