package io.polyrag.server;

import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import io.javalin.http.HttpStatus;
import io.polyrag.app.Json;
import io.polyrag.app.Tracing;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.model.Ids;
import java.util.Locale;

/** What every routes class shares: reading parameters and bodies strictly, and registering GET with HEAD. */
final class Http {
    static final String PROBLEM = "application/problem+json";

    private Http() {
    }

    static boolean flag(String value, String name) {
        if (value == null || value.isBlank()) {
            return false;
        }
        return switch (value.strip().toLowerCase(Locale.ROOT)) {
            case "true", "1", "yes" -> true;
            case "false", "0", "no" -> false;
            default -> throw new InvalidInputException("form field '" + name + "' must be true or false, was '"
                    + Ids.abbreviate(value, 20) + "'");
        };
    }

    static Integer intParam(Context ctx, String name) {
        String v = ctx.queryParam(name);
        if (v == null || v.isBlank()) {
            return null;
        }
        try {
            return Integer.parseInt(v.strip());
        } catch (NumberFormatException e) {
            throw new InvalidInputException("query parameter '" + name + "' must be an integer, was '"
                    + Ids.abbreviate(v, 40) + "'");
        }
    }

    static Double doubleParam(Context ctx, String name) {
        String v = ctx.queryParam(name);
        if (v == null || v.isBlank()) {
            return null;
        }
        try {
            double d = Double.parseDouble(v.strip());
            if (Double.isFinite(d)) {
                return d;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new InvalidInputException("query parameter '" + name + "' must be a number, was '"
                + Ids.abbreviate(v, 40) + "'");
    }

    static boolean booleanParam(Context ctx, String name) {
        String v = ctx.queryParam(name);
        if (v == null || v.equalsIgnoreCase("false")) {
            return false;
        }
        if (v.equalsIgnoreCase("true")) {
            return true;
        }
        throw new InvalidInputException("query parameter '" + name + "' must be true or false, was '"
                + Ids.abbreviate(v, 40) + "'");
    }

    static void requireJson(Context ctx) {
        String type = ctx.contentType();
        if (type == null || !type.toLowerCase(Locale.ROOT).startsWith("application/json")) {
            throw new HttpResponseException(HttpStatus.UNSUPPORTED_MEDIA_TYPE.getCode(),
                    "send the body as JSON with Content-Type: application/json (got " + type + ")");
        }
    }

    static void problem(Context ctx, int status, String detail) {
        HttpStatus s = HttpStatus.forStatus(status);
        // Bytes, not a String: Javalin would encode a String in ISO-8859-1 for a type without a charset, and a detail
        // that quotes the client's non-ASCII input must reach it as UTF-8 (RFC 8259).
        Tracing.Request traced = ctx.attribute(RestServer.TRACE);
        ctx.status(status).contentType(PROBLEM).result(Json.MAPPER.writeValueAsBytes(
                Problem.of(status, s == HttpStatus.UNKNOWN ? "Error" : s.getMessage(), detail)
                        .traced(traced == null ? null : traced.traceId())));
    }
}
