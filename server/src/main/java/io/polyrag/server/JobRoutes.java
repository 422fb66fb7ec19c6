package io.polyrag.server;

import static io.polyrag.server.Http.intParam;

import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import io.polyrag.app.Jobs;
import io.polyrag.app.Json;
import io.polyrag.app.Polyrag;
import io.polyrag.app.api.Limits;
import io.polyrag.app.wire.IngestWire;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.config.Settings;
import io.polyrag.core.model.Ids;
import io.polyrag.core.model.Tenant;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * {@code /v1/jobs} (list, read, cancel) and {@code /v1/events}: the tenant's job events as server-sent events,
 * resumable with {@code Last-Event-ID}, with a heartbeat comment when idle so proxies keep the stream open.
 */
final class JobRoutes {
    private final Polyrag polyrag;
    private final Auth auth;
    /** The longest an event stream waits before it looks again whether its server stops. */
    private static final Duration LOOK = Duration.ofSeconds(1);
    /** How often at most an event stream checks that its key still holds (a catalog read per stream). */
    private static final Duration AUTH_EVERY = Duration.ofSeconds(5);
    private final Duration heartbeat;
    private final BooleanSupplier stopping;

    /** @param stopping whether this front door is closing: its event streams end (the Polyrag may stay open) */
    JobRoutes(Polyrag polyrag, Auth auth, BooleanSupplier stopping) {
        this.polyrag = polyrag;
        this.auth = auth;
        this.stopping = stopping;
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

    /** Event streams one tenant may hold open in this process: every event woke every stream of every tenant. */
    static final int MAX_STREAMS_PER_TENANT = 32;
    private final ConcurrentHashMap<String, AtomicInteger> open = new ConcurrentHashMap<>();

    private void events(Context ctx) throws IOException {
        Jobs jobs = jobs(ctx);
        // Local mode's one user (no keys) is not limited: its streams are the machine owner's.
        Tenant tenant = Auth.tenant(ctx);
        AtomicInteger mine = open.computeIfAbsent(tenant.id(), t -> new AtomicInteger());
        if (mine.incrementAndGet() > MAX_STREAMS_PER_TENANT && !(tenant.isLocal() && tenant.name().isEmpty())) {
            mine.decrementAndGet();
            ctx.header("Retry-After", "10");
            throw new HttpResponseException(429, "this key's tenant has " + MAX_STREAMS_PER_TENANT + " event streams "
                    + "open here, the most it may: close one (one stream carries all of its jobs' events)");
        }
        try {
            stream(ctx, jobs);
        } finally {
            mine.decrementAndGet();
        }
    }

    private void stream(Context ctx, Jobs jobs) throws IOException {
        long after = lastEventId(ctx, jobs);
        ctx.status(200).contentType("text/event-stream; charset=utf-8").header("Cache-Control", "no-cache")
                .header("X-Accel-Buffering", "no");
        OutputStream out = ctx.res().getOutputStream();
        write(out, ": polyrag job events; resume with Last-Event-ID\nretry: 3000\n\n");
        try {
            long checked = System.nanoTime();
            long written = System.nanoTime();
            while (!jobs.closing() && !stopping.getAsBoolean()) {
                if (System.nanoTime() - checked > Math.min(AUTH_EVERY.toNanos(), heartbeat.toNanos())) {
                    if (!stillAllowed(ctx)) {
                        return; // the key was revoked (or the first key made): the stream ends here
                    }
                    checked = System.nanoTime();
                }
                // Waits of at most a second: a closing server ends the stream within one, not after a whole
                // heartbeat interval.
                Jobs.Events events = jobs.events(after, heartbeat.compareTo(LOOK) < 0 ? heartbeat : LOOK);
                after = events.lastId();
                if (events.shown().isEmpty()) {
                    if (System.nanoTime() - written >= heartbeat.toNanos()) {
                        write(out, ": heartbeat\n\n");
                        written = System.nanoTime();
                    }
                    continue;
                }
                written = System.nanoTime();
                StringBuilder sb = new StringBuilder();
                for (var e : events.shown()) {
                    sb.append("id: ").append(e.id()).append("\nevent: ").append(e.type()).append("\ndata: ")
                            .append(Json.MAPPER.writeValueAsString(IngestWire.of(e))).append("\n\n");
                }
                write(out, sb.toString());
            }
        } catch (IOException e) {
            // The client went away: the stream is over.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Whether the stream's key still holds; a catalog that cannot be read now (a failover) is asked again at the next
     * check instead of ending every open stream at once.
     */
    private boolean stillAllowed(Context ctx) {
        try {
            return auth.stillAllowed(ctx);
        } catch (RuntimeException e) {
            return true;
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
