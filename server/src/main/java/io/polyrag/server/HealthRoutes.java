package io.polyrag.server;

import static io.polyrag.server.Http.booleanParam;
import static io.polyrag.server.Http.getAndHead;

import io.javalin.http.Context;
import io.polyrag.app.Polyrag;
import io.polyrag.app.wire.AdminWire;
import io.polyrag.core.InvalidInputException;
import java.util.List;

/** {@code /health}, {@code /ready} and the store check {@code /v1/admin/check}. */
final class HealthRoutes {
    private final Polyrag polyrag;
    private final Auth auth;

    HealthRoutes(Polyrag polyrag, Auth auth) {
        this.polyrag = polyrag;
        this.auth = auth;
    }

    void register(io.javalin.config.RoutesConfig r) {
        // Unauthenticated (for load balancers): with API keys, it says nothing about how much anyone has stored.
        getAndHead(r, "/health", ctx -> ctx.json(AdminWire.health(polyrag.admin().status(), !auth.keysRequired())));
        getAndHead(r, "/ready", this::ready);
        getAndHead(r, "/v1/admin/check", ctx -> {
            if (ctx.queryParam("repair") != null) {
                throw new InvalidInputException("a repair changes the stores: send it as POST "
                        + "/v1/admin/check?repair=true (GET only reports)");
            }
            ctx.json(AdminWire.of(polyrag.admin().check(false)));
        });
        r.post("/v1/admin/check", ctx -> ctx.json(AdminWire.of(polyrag.admin().check(
                booleanParam(ctx, "repair")))));
    }

    /** 200 when every store and model answers and agrees with the catalog; 503 naming what does not, and the fix. */
    private void ready(Context ctx) {
        List<String> problems = polyrag.admin().readiness();
        ctx.status(problems.isEmpty() ? 200 : 503).json(AdminWire.ready(problems));
    }
}
