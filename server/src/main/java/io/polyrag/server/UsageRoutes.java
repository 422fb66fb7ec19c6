package io.polyrag.server;

import static io.polyrag.server.Http.jsonBody;

import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import io.polyrag.app.Json;
import io.polyrag.app.Polyrag;
import io.polyrag.app.Usage;
import io.polyrag.app.wire.AdminWire;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.port.UsageStore;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;

/**
 * {@code /v1/usage} (a tenant's own), {@code /v1/admin/usage} (every tenant's) and {@code
 * /v1/admin/tenants/{tenant}/quotas} (the operator's limits).
 */
final class UsageRoutes {
    private final Polyrag polyrag;

    UsageRoutes(Polyrag polyrag) {
        this.polyrag = polyrag;
    }

    void register(Api api) {
        api.get("/v1/usage", ctx -> {
            LocalDate[] period = period(ctx);
            ctx.json(AdminWire.usage(polyrag.usage().report(Auth.tenant(ctx), period[0], period[1])));
        }).summary("admin", "What this tenant holds, what it used (searches, answers, documents indexed, chunks "
                + "embedded, model tokens by model) and its quotas")
                .query("from", "string", "first day counted, YYYY-MM-DD (UTC); default: the first of the month of 'to'")
                .query("to", "string", "last day counted, YYYY-MM-DD (UTC); default: today")
                .response(200, "the tenant's report", AdminWire.UsageReport.class);
        api.get("/v1/admin/usage", ctx -> {
            LocalDate[] period = period(ctx);
            ctx.json(new AdminWire.UsageReports(polyrag.usage().reports(period[0], period[1],
                    polyrag.keys().localOwner()).stream().map(AdminWire::usage).toList()));
        }).summary("admin", "Every tenant's usage and quotas (operator)")
                .query("from", "string", "first day counted, YYYY-MM-DD (UTC); default: the first of the month of 'to'")
                .query("to", "string", "last day counted, YYYY-MM-DD (UTC); default: today")
                .response(200, "one report per tenant that holds, used or has quotas", AdminWire.UsageReports.class);
        api.get("/v1/admin/tenants/{tenant}/quotas", ctx -> ctx.json(AdminWire.quotas(polyrag.usage().quotas(
                id(ctx))))).summary("admin", "A tenant's quotas; null: no limit (operator)")
                .path("tenant", "the tenant").response(200, "the quotas", AdminWire.Quotas.class);
        api.put("/v1/admin/tenants/{tenant}/quotas", this::put).summary("admin", "Set a tenant's quotas: documents, "
                + "stored_mb, extraction_tokens_per_day, searches_per_minute; a null or missing one is no limit "
                + "(operator)").path("tenant", "the tenant").body(api.schemas(), AdminWire.Quotas.class)
                .response(200, "the quotas now", AdminWire.Quotas.class);
        api.delete("/v1/admin/tenants/{tenant}/quotas", ctx -> {
            polyrag.usage().setQuotas(id(ctx), UsageStore.Quotas.NONE);
            ctx.status(HttpStatus.NO_CONTENT);
        }).summary("admin", "Remove a tenant's quotas (operator)").path("tenant", "the tenant")
                .response(204, "removed", null);
    }

    private void put(Context ctx) {
        AdminWire.Quotas q = Json.read(jsonBody(ctx), AdminWire.Quotas.class);
        if (q == null) {
            throw new InvalidInputException("the body is empty: send {\"searches_per_minute\": 600, \"documents\": "
                    + "100000} (a missing field is no limit)");
        }
        ctx.json(AdminWire.quotas(polyrag.usage().setQuotas(id(ctx), q.toPort())));
    }

    private String id(Context ctx) {
        return Usage.idOf(ctx.pathParam("tenant"), polyrag.keys().localOwner());
    }

    /** The period {@code from}..{@code to}: by default this month so far (UTC). */
    private static LocalDate[] period(Context ctx) {
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        LocalDate to = date(ctx, "to", today);
        // The first of the month of 'to' (?to=2024-12-31 alone was refused as after a 'from' never sent).
        LocalDate from = date(ctx, "from", to.withDayOfMonth(1));
        return new LocalDate[] {from, to};
    }

    private static LocalDate date(Context ctx, String name, LocalDate otherwise) {
        String raw = Http.query(ctx, name);
        if (raw == null || raw.isBlank()) {
            return otherwise;
        }
        try {
            LocalDate d = LocalDate.parse(raw.strip());
            // Years of four digits: "+9999999-01-01" parses, and PostgreSQL refused it (a 500, "date out of range").
            if (d.getYear() < 1 || d.getYear() > 9999) {
                throw new DateTimeParseException("year out of range", raw, 0);
            }
            return d;
        } catch (DateTimeParseException e) {
            throw new InvalidInputException("query parameter '" + name + "' is not a date: give YYYY-MM-DD, e.g. "
                    + LocalDate.now(ZoneOffset.UTC));
        }
    }
}
