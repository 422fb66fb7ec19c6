package io.polyrag.server;

import static io.polyrag.server.Http.getAndHead;
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

    void register(io.javalin.config.RoutesConfig r) {
        getAndHead(r, "/v1/graph/entities", this::entities);
        getAndHead(r, "/v1/graph/entities/{id}/neighbours", this::neighbours);
    }

    private void entities(Context ctx) {
        String q = ctx.queryParam("q");
        if (q == null || q.isBlank()) {
            throw new InvalidInputException("query parameter 'q' is required: part of an entity's name");
        }
        Integer limit = intParam(ctx, "limit");
        String kb = ctx.queryParam("kb");
        ctx.json(AdminWire.entities(tenant(ctx).graph().find(q, kb == null || kb.isBlank() ? null : KnowledgeBase.of(kb),
                limit == null ? Limits.DEFAULT_ENTITIES : limit)));
    }

    private void neighbours(Context ctx) {
        Integer limit = intParam(ctx, "limit");
        ctx.json(AdminWire.of(tenant(ctx).graph().neighbours(ctx.pathParam("id"), limit == null ? Limits.DEFAULT_NEIGHBOURS
                : limit)));
    }
}
