package io.polyrag.server;

import static io.polyrag.server.Http.booleanParam;

import io.javalin.http.Context;
import io.polyrag.app.Polyrag;
import io.polyrag.app.api.Status;
import io.polyrag.app.wire.AdminWire;
import io.polyrag.app.wire.IngestWire;
import io.polyrag.core.InvalidInputException;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.locks.ReentrantLock;

/** {@code /health}, {@code /ready}, the store check {@code /v1/admin/check} and the back-fill {@code /v1/admin/reindex}. */
final class HealthRoutes {
    private final Polyrag polyrag;
    private final Auth auth;

    HealthRoutes(Polyrag polyrag, Auth auth) {
        this.polyrag = polyrag;
        this.auth = auth;
    }

    void register(Api api) {
        // Unauthenticated (for load balancers): with API keys, it says nothing about how much anyone has stored.
        api.get("/health", ctx -> {
            // Counts only where they are shown (local mode): with keys they are neither shown nor worth a count.
            boolean counts = !auth.keysRequired();
            var s = polyrag.admin().status(counts);
            ctx.json(AdminWire.health(new Status(s.modalities(), s.documents(), s.storeRecords(), s.embeddingModel(),
                    s.dimension(), shown(s.problems())), counts, RestServer.VERSION));
        })
                .summary("admin", "Status, enabled modalities, problems").noAuth()
                .response(200, "the server's state", AdminWire.Health.class);
        api.get("/metrics", ctx -> ctx.contentType("text/plain; version=0.0.4; charset=utf-8")
                .result(polyrag.metrics().scrape())).summary("admin", "Metrics in the Prometheus text format "
                        + "(operator, once API keys exist)").text(200, "the metrics");
        api.get("/v1/configuration", ctx -> ctx.json(AdminWire.of(polyrag.admin().configuration(
                RestServer.VERSION)))).summary("admin", "What this server runs: retrievers, their backends, the "
                        + "embedding model, fusion, reranker, answers; no secrets")
                .response(200, "the configuration", AdminWire.Configuration.class);
        api.post("/v1/sample-check", ctx -> ctx.json(AdminWire.of(polyrag.as(Auth.tenant(ctx)).sampleCheck())))
                .summary("admin", "End-to-end self-test: index a small text into a throw-away knowledge base, find "
                        + "it, delete it, check it is gone; each step timed")
                .response(200, "the steps; ok is false when one failed", AdminWire.SampleCheck.class);
        api.get("/ready", this::ready).summary("admin", "200 when every store and model answers; 503 naming what does "
                + "not").noAuth().response(200, "ready", AdminWire.Ready.class)
                .response(503, "not ready, with the problems", AdminWire.Ready.class);
        // No HEAD: it would compare every store with the catalog only to send nothing.
        api.stream("/v1/admin/check", ctx -> {
            if (Http.query(ctx, "repair") != null) {
                throw new InvalidInputException("a repair changes the stores: send it as POST "
                        + "/v1/admin/check?repair=true (GET only reports)");
            }
            ctx.json(AdminWire.of(polyrag.admin().check(false)));
        }).summary("admin", "Compare every store with the catalog (operator)")
                .query("repair", "boolean", "refused here: a repair is POST /v1/admin/check?repair=true")
                .response(200, "the report", AdminWire.Check.class);
        api.post("/v1/admin/reindex", ctx -> {
            String modality = Http.query(ctx, "modality");
            String id = polyrag.admin().reindex(modality, booleanParam(ctx, "all"));
            String location = "/v1/admin/jobs/" + id;
            ctx.status(202).header("Location", location).json(new AdminWire.Reindex(id, "queued",
                    modality == null || modality.isBlank() ? null : modality.strip().toLowerCase(Locale.ROOT),
                    location));
        }).summary("admin", "Back-fill, as a background job, what a store lacks (switched on, or a new embedding "
                + "model, after documents were indexed); its leg is searched again once whole (operator)")
                .query("modality", "string", "vector, fulltext, graph or rdf; absent: every store that lacks "
                        + "records").query("all", "boolean", "with a modality: rebuild that store from every "
                        + "document, not only where records are missing (graph: extracted again after an extractor "
                        + "upgrade; vector, fulltext: indexed again, with chunk contexts once contextual retrieval is on)")
                .response(202, "the job, queued", AdminWire.Reindex.class);
        api.get("/v1/admin/jobs/{id}", ctx -> ctx.json(IngestWire.of(polyrag.admin().job(
                ctx.pathParam("id"))))).summary("admin", "Any job, whoever's (operator)").path("id", "the job id")
                .response(200, "the job", IngestWire.Job.class);
        api.post("/v1/admin/jobs/{id}/cancel", ctx -> ctx.json(IngestWire.of(polyrag.admin().cancel(
                ctx.pathParam("id"))))).summary("admin", "Cancel any job, whoever's: a queued one at once, a running one "
                + "at its next step; what it indexed stays (operator)").path("id", "the job id")
                .response(200, "the job, canceled or stopping", IngestWire.Job.class);
        api.post("/v1/admin/check", ctx -> ctx.json(AdminWire.of(polyrag.admin().check(
                booleanParam(ctx, "repair"))))).summary("admin", "Compare, and with repair=true mend (operator)")
                .query("repair", "boolean", "remove orphans and re-index what a store lacks")
                .response(200, "the report", AdminWire.Check.class);
    }

    /** How long a readiness verdict answers every probe: the route needs no key, and each verdict reads every store. */
    private static final long READY_FRESH_NANOS = 1_000_000_000L;
    private final ReentrantLock readyLock = new ReentrantLock();
    private volatile long readyAt;
    private volatile long checkingSince;
    private volatile List<String> readyProblems;
    /** How long a verdict being worked out may keep answering with the last one: past it, the wait is the problem. */
    private static final long CHECK_STALE_NANOS = 10_000_000_000L;

    /**
     * The readiness verdict, worked out at most once a second and once at a time: each one reads every store and
     * runs the embedding model, and a few hundred unauthenticated calls a second took the CPU and the store pools
     * searches need. A probe that finds it being worked out (a store slow to answer) takes the last verdict; only
     * the first ever waits. A lock, not a monitor: a virtual thread blocked in a monitor pins its carrier (JDK 21),
     * and a few probes waiting on a store's timeout stalled every request.
     */
    private List<String> readiness() {
        List<String> last = readyProblems;
        if (last != null && System.nanoTime() - readyAt <= READY_FRESH_NANOS) {
            return last;
        }
        if (last != null && !readyLock.tryLock()) {
            long waited = System.nanoTime() - checkingSince;
            // A store that hangs (a lock held by a migration, a dropped network): not ready, not the last 200.
            return waited <= CHECK_STALE_NANOS ? last : List.of("the readiness check has not finished in "
                    + waited / 1_000_000_000L + " s: a store or the embedding model is not answering");
        }
        if (last == null) {
            readyLock.lock();
        }
        try {
            checkingSince = System.nanoTime();
            if (readyProblems == null || System.nanoTime() - readyAt > READY_FRESH_NANOS) {
                readyProblems = polyrag.admin().readiness();
                readyAt = System.nanoTime();
            }
            return readyProblems;
        } finally {
            readyLock.unlock();
        }
    }

    /** 200 when every store and model answers and agrees with the catalog; 503 naming what does not, and the fix. */
    private void ready(Context ctx) {
        List<String> problems = readiness();
        ctx.status(problems.isEmpty() ? 200 : 503).json(AdminWire.ready(shown(problems)));
    }

    /**
     * Problem lines as anyone may read them: in local mode as they are; with API keys without what they hold (record
     * counts, store addresses, a database's error text), which the operator reads in the log and with the admin
     * routes (the probe needs only the status).
     */
    private List<String> shown(List<String> problems) {
        if (problems.isEmpty() || !auth.keysRequired()) {
            return problems;
        }
        if (!problems.equals(logged)) {
            logged = problems;
            System.getLogger(HealthRoutes.class.getName()).log(System.Logger.Level.WARNING, "not ready: "
                    + String.join("; ", problems));
        }
        return List.of(problems.size() + (problems.size() == 1 ? " problem" : " problems") + " (a store or model "
                + "that does not answer, or a store that is incomplete): the server log and GET /v1/admin/check "
                + "(operator key) say which");
    }

    /** The problems last written to the log, so a probe every few seconds logs each change once. */
    private volatile List<String> logged = List.of();
}
