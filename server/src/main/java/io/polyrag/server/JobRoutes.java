package io.polyrag.server;

import static io.polyrag.server.Http.intParam;

import io.javalin.http.Context;
import io.polyrag.app.Jobs;
import io.polyrag.app.Json;
import io.polyrag.app.Polyrag;
import io.polyrag.app.api.Limits;
import io.polyrag.app.wire.IngestWire;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.config.Settings;
import io.polyrag.core.model.Ids;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * {@code /v1/jobs} (list, read, cancel) and {@code /v1/events}: the tenant's job events as server-sent events,
 * resumable with {@code Last-Event-ID}, with a heartbeat comment when idle so proxies keep the stream open.
 */
final class JobRoutes {
    private final Polyrag polyrag;
    private final Auth auth;
    private final Duration heartbeat;

    JobRoutes(Polyrag polyrag, Auth auth) {
        this.polyrag = polyrag;
        this.auth = auth;
        this.heartbeat = Duration.ofSeconds(polyrag.config().get(Settings.HTTP_SSE_HEARTBEAT_SECONDS));
    }

    private Jobs jobs(Context ctx) {
        return polyrag.as(Auth.tenant(ctx)).jobs();
    }

    void register(Api api) {
        api.get("/v1/jobs", ctx -> {
            Integer offset = intParam(ctx, "offset");
            Integer limit = intParam(ctx, "limit");
            int o = offset == null ? 0 : offset;
            int l = limit == null ? Limits.DEFAULT_DOCUMENTS_PAGE : limit;
            ctx.json(IngestWire.jobs(jobs(ctx).list(o, l), o, l));
        }).summary("jobs", "Your jobs, newest first").query("offset", "integer", "jobs to skip")
                .query("limit", "integer", "page size, 1-1000").response(200, "a page of jobs", IngestWire.JobPage.class);
        api.get("/v1/jobs/{id}", ctx -> ctx.json(IngestWire.of(jobs(ctx).get(ctx.pathParam("id"))))).summary("jobs",
                "A job: status, stage, percentage, ETA, counts, per-file errors").path("id", "the job id")
                .response(200, "the job", IngestWire.Job.class);
        api.post("/v1/jobs/{id}/cancel", ctx -> ctx.json(IngestWire.of(jobs(ctx).cancel(ctx.pathParam("id")))))
                .summary("jobs", "Cancel a queued or running job").path("id", "the job id")
                .response(200, "the job, canceled or stopping", IngestWire.Job.class);
        api.stream("/v1/events", this::events).summary("jobs", "Your job events as server-sent events: created, "
                + "progress, finished; data is a JobEvent").header("Last-Event-ID", "resume after this event id")
                .events("the stream (text/event-stream), until the client leaves");
    }

    private void events(Context ctx) throws IOException {
        Jobs jobs = jobs(ctx);
        long after = lastEventId(ctx, jobs);
        ctx.status(200).contentType("text/event-stream; charset=utf-8").header("Cache-Control", "no-cache")
                .header("X-Accel-Buffering", "no");
        OutputStream out = ctx.res().getOutputStream();
        write(out, ": polyrag job events; resume with Last-Event-ID\nretry: 3000\n\n");
        try {
            long checked = System.nanoTime();
            while (!jobs.closing()) {
                if (System.nanoTime() - checked > 1_000_000_000L) {
                    if (!auth.stillAllowed(ctx)) {
                        return; // the key was revoked (or the first key made): the stream ends here
                    }
                    checked = System.nanoTime();
                }
                var events = jobs.events(after, heartbeat);
                if (events.isEmpty()) {
                    write(out, ": heartbeat\n\n");
                    continue;
                }
                StringBuilder sb = new StringBuilder();
                for (var e : events) {
                    sb.append("id: ").append(e.id()).append("\nevent: ").append(e.type()).append("\ndata: ")
                            .append(Json.MAPPER.writeValueAsString(IngestWire.of(e))).append("\n\n");
                    after = e.id();
                }
                write(out, sb.toString());
            }
        } catch (IOException e) {
            // The client went away: the stream is over.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Where the stream starts: after the client's {@code Last-Event-ID}, or now. */
    private static long lastEventId(Context ctx, Jobs jobs) {
        String given = ctx.header("Last-Event-ID");
        if (given == null || given.isBlank()) {
            return jobs.lastEventId();
        }
        try {
            return Long.parseLong(given.strip());
        } catch (NumberFormatException e) {
            throw new InvalidInputException("header 'Last-Event-ID' must be the id of an event this stream sent, was '"
                    + Ids.abbreviate(given, 40) + "'");
        }
    }

    private static void write(OutputStream out, String s) throws IOException {
        out.write(s.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }
}
