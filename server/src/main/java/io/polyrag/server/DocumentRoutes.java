package io.polyrag.server;

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

    void register(Api api) {
        api.get("/v1/documents", this::documents).summary("documents", "List visible documents, by uri")
                .query("kb", "string", "one knowledge base; default: all of yours")
                .query("offset", "integer", "documents to skip").query("limit", "integer", "page size, 1-1000")
                .response(200, "a page of documents", IngestWire.DocumentPage.class);
        api.delete("/v1/documents/{id}", this::deleteDocument).summary("documents",
                "Delete a document from the catalog and every store").path("id", "the document id")
                .response(204, "deleted", null);
        api.get("/v1/formats", ctx -> ctx.json(AdminWire.of(polyrag.ingest().formats()))).summary("documents",
                "What this server accepts: media types, extensions, the size limit, OCR")
                .response(200, "the accepted formats", AdminWire.FormatList.class);
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
