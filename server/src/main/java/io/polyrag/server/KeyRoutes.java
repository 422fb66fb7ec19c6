package io.polyrag.server;

import static io.polyrag.server.Http.jsonBody;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import io.polyrag.app.Json;
import io.polyrag.app.Keys;
import io.polyrag.app.Polyrag;
import io.polyrag.app.wire.AdminWire;
import io.polyrag.core.InvalidInputException;

/**
 * {@code /v1/admin/keys}: API keys managed while the server runs, behind the operator key (or in local mode). The
 * CLI ({@code polyrag keys}) does the same on a stopped server.
 */
final class KeyRoutes {
    private final Polyrag polyrag;
    private final Auth auth;

    /**
     * {@code POST /v1/admin/keys}: the tenant the key acts for, and a name for it.
     *
     * @param adoptLocal make local mode's data (indexed with no key) the tenant's: one tenant, with no data of its own
     */
    record NewKey(String tenant, String name,
            @JsonProperty("adopt_local") Boolean adoptLocal) {
    }

    KeyRoutes(Polyrag polyrag, Auth auth) {
        this.polyrag = polyrag;
        this.auth = auth;
    }

    void register(Api api) {
        api.get("/v1/admin/keys", ctx -> ctx.json(AdminWire.keys(polyrag.keys().list(),
                polyrag.keys().localOwner()))).summary("admin",
                "List API keys, never the keys themselves (operator)").response(200, "the keys", AdminWire.KeyList.class);
        api.post("/v1/admin/keys", this::create).summary("admin", "Create an API key for a tenant; it is shown once "
                + "(operator)").body(api.schemas(), NewKey.class, "tenant")
                .response(201, "the key", AdminWire.NewKey.class);
        api.delete("/v1/admin/keys/{id}", ctx -> {
            polyrag.keys().revoke(ctx.pathParam("id"));
            auth.refresh();
            ctx.status(HttpStatus.NO_CONTENT);
        }).summary("admin", "Revoke an API key (operator)").path("id", "the key id").response(204, "revoked", null);
    }

    private void create(Context ctx) {
        NewKey b = Json.read(jsonBody(ctx), NewKey.class);
        if (b.tenant() == null || b.tenant().isBlank()) {
            throw new InvalidInputException("field 'tenant' is missing: send {\"tenant\": \"acme\", \"name\": \"ci\"}");
        }
        Keys.Created k = polyrag.keys().create(b.tenant(), b.name(), Boolean.TRUE.equals(b.adoptLocal()));
        auth.refresh();
        ctx.status(HttpStatus.CREATED).json(AdminWire.created(k));
    }
}
