package io.polyrag.server;

import static io.polyrag.server.Http.jsonBody;

import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import io.polyrag.app.Json;
import io.polyrag.app.Polyrag;
import io.polyrag.app.Sources;
import io.polyrag.app.api.SourceRegistration;
import io.polyrag.app.wire.IngestWire;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.model.Ids;

/**
 * {@code /v1/sync}: sources (server folders, web sites, S3 buckets) kept in sync with the index — register, list, read, change, enable,
 * disable, sync now (one or all), delete.
 */
final class SourceRoutes {
    private final Polyrag polyrag;

    SourceRoutes(Polyrag polyrag) {
        this.polyrag = polyrag;
    }

    private Polyrag.TenantFacets tenant(Context ctx) {
        return polyrag.as(Auth.tenant(ctx));
    }

    void register(Api api) {
        api.post("/v1/sync/sources", this::create).summary("sources", "Register a source (a server folder, a web site, an S3 bucket) to "
                + "keep in sync with a knowledge base; its first sync starts at once (with enabled=false it is indexed "
                + "once and not kept in sync)")
                .body(api.schemas(), Dtos.SourceBody.class, "source_id", "type", "config")
                .response(201, "registered, with its first sync's job", IngestWire.SourceRegistered.class);
        api.get("/v1/sync/sources", ctx -> ctx.json(new IngestWire.SourceList(tenant(ctx).sources().list().stream()
                .map(IngestWire::of).toList()))).summary("sources", "Your sources, with their last scan")
                .response(200, "the sources", IngestWire.SourceList.class);
        api.get("/v1/sync/sources/{id}", ctx -> ctx.json(IngestWire.of(tenant(ctx).sources().get(ctx.pathParam("id")))))
                .summary("sources", "A source: settings, last scan, its error, items indexed").path("id", "its id")
                .response(200, "the source", IngestWire.Source.class);
        api.put("/v1/sync/sources/{id}", this::update).summary("sources", "Change a source's settings; a sync "
                + "reconciles the index with them").path("id", "its id")
                .body(api.schemas(), Dtos.SourceBody.class, "type", "config")
                .response(200, "changed, with the sync it started", IngestWire.SourceRegistered.class);
        api.post("/v1/sync/sources/{id}/enable", ctx -> ctx.json(registered(tenant(ctx).sources().enable(
                ctx.pathParam("id"), true)))).summary("sources", "Enable a source: it is scanned and watched again, "
                        + "and a sync starts").path("id", "its id")
                .response(200, "enabled, with its sync's job", IngestWire.SourceRegistered.class);
        api.post("/v1/sync/sources/{id}/disable", ctx -> ctx.json(registered(tenant(ctx).sources().enable(
                ctx.pathParam("id"), false)))).summary("sources", "Disable a source; its settings and state are "
                        + "kept").path("id", "its id")
                .response(200, "disabled", IngestWire.SourceRegistered.class);
        api.post("/v1/sync/sync-now", ctx -> ctx.status(HttpStatus.ACCEPTED).json(new IngestWire.SyncsStarted(
                tenant(ctx).sources().syncAll()))).summary("sources", "Sync every enabled source now, each as a job")
                .response(202, "each source's job", IngestWire.SyncsStarted.class);
        api.post("/v1/sync/sources/{id}/sync-now", ctx -> {
            String job = tenant(ctx).sources().sync(ctx.pathParam("id"), Http.intParam(ctx, "max_delete_percent"));
            String location = "/v1/jobs/" + job;
            ctx.status(HttpStatus.ACCEPTED).header("Location", location).json(new IngestWire.SyncStarted(job,
                    location));
        }).summary("sources", "Sync a source now, as a job").path("id", "its id")
                .query("max_delete_percent", "integer", "this sync's own cap on deletes, 1-100 (the server's "
                        + "POLYRAG_SYNC_MAX_DELETE_PERCENT otherwise): 100 confirms that most of the source is gone "
                        + "(or narrowed settings no longer select it); 409 while a sync of it is queued or running")
                .response(202, "the sync's job", IngestWire.SyncStarted.class);
        api.delete("/v1/sync/sources/{id}", ctx -> {
            boolean documents = Http.booleanParam(ctx, "documents");
            int n = tenant(ctx).sources().delete(ctx.pathParam("id"), documents);
            ctx.json(new IngestWire.SourceDeleted(ctx.pathParam("id"), n));
        }).summary("sources", "Stop syncing a source (its running sync is canceled first; 409 when it has not stopped "
                + "within 30 s); with documents=true also delete what it indexed")
                .path("id", "its id").query("documents", "boolean", "also delete its documents from every store")
                .response(200, "deleted", IngestWire.SourceDeleted.class);
    }

    private void create(Context ctx) {
        Dtos.SourceBody b = Json.read(jsonBody(ctx), Dtos.SourceBody.class);
        var r = tenant(ctx).sources().register(new SourceRegistration(b.id(), b.type(), b.config(), b.knowledgeBase(),
                b.intervalSeconds(), b.enabled()));
        ctx.status(HttpStatus.CREATED).header("Location", "/v1/sync/sources/" + r.source().id())
                .json(registered(r));
    }

    private static IngestWire.SourceRegistered registered(Sources.Registered r) {
        return new IngestWire.SourceRegistered(IngestWire.of(r.source()), r.jobId());
    }

    private void update(Context ctx) {
        Dtos.SourceBody b = Json.read(jsonBody(ctx), Dtos.SourceBody.class);
        String id = ctx.pathParam("id");
        if (b.id() != null && !b.id().equals(id)) {
            throw new InvalidInputException("'source_id' in the body (" + Ids.abbreviate(b.id(), 64) + ") differs from "
                    + "the path (" + id + "): "
                    + "a source's id cannot change");
        }
        var r = tenant(ctx).sources().update(new SourceRegistration(id, b.type(), b.config(), b.knowledgeBase(),
                b.intervalSeconds(), b.enabled()));
        ctx.json(new IngestWire.SourceRegistered(IngestWire.of(r.source()), r.jobId()));
    }
}
