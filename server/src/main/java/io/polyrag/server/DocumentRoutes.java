package io.polyrag.server;

import static io.polyrag.server.Http.getAndHead;
import static io.polyrag.server.Http.intParam;

import io.javalin.http.Context;
import io.polyrag.app.Polyrag;
import io.polyrag.app.api.Limits;
import io.polyrag.app.wire.AdminWire;
import io.polyrag.app.wire.IngestWire;
import io.polyrag.core.model.KnowledgeBase;
import io.javalin.http.HttpStatus;
import io.polyrag.core.NotFoundException;
import java.util.List;

/** {@code /v1/documents} and {@code /v1/formats}: what is indexed, and what is accepted. */
final class DocumentRoutes {
    private final Polyrag polyrag;

    DocumentRoutes(Polyrag polyrag) {
        this.polyrag = polyrag;
    }

    /** The facets acting for the tenant the request authenticated as. */
    private Polyrag.TenantFacets tenant(Context ctx) {
        return polyrag.as(Auth.tenant(ctx));
    }

    void register(io.javalin.config.RoutesConfig r) {
        getAndHead(r, "/v1/documents", this::documents);
        r.delete("/v1/documents/{id}", this::deleteDocument);
        getAndHead(r, "/v1/formats", ctx -> ctx.json(AdminWire.of(polyrag.ingest().formats())));
    }

    private void documents(Context ctx) {
        Integer offset = intParam(ctx, "offset");
        Integer limit = intParam(ctx, "limit");
        int o = offset == null ? 0 : offset;
        int l = limit == null ? Limits.DEFAULT_DOCUMENTS_PAGE : limit;
        String kb = ctx.queryParam("kb");
        ctx.json(IngestWire.page(tenant(ctx).documents().list(kb == null || kb.isBlank() ? null : KnowledgeBase.of(kb), o,
                l), o, l));
    }

    private void deleteDocument(Context ctx) {
        if (tenant(ctx).documents().delete(List.of(ctx.pathParam("id"))) == 0) {
            throw new NotFoundException("no document with id '" + ctx.pathParam("id") + "'");
        }
        ctx.status(HttpStatus.NO_CONTENT);
    }
}
