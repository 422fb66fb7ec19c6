package io.polyrag.server;

import static io.polyrag.server.Http.problem;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import io.javalin.http.HttpResponseException;
import io.javalin.http.HttpStatus;
import io.javalin.http.MethodNotAllowedResponse;
import io.javalin.http.NotFoundResponse;
import io.polyrag.app.Json;
import io.polyrag.app.api.Limits;
import io.polyrag.app.wire.SearchWire;
import io.polyrag.core.AnswerUnavailableException;
import io.polyrag.core.ConflictException;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.NotFoundException;
import io.polyrag.core.QuotaExceededException;
import io.polyrag.core.StorageProblems;
import io.polyrag.core.StoreException;
import io.polyrag.core.UnavailableException;
import io.polyrag.core.model.Tenant;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.RejectedExecutionException;
import org.eclipse.jetty.http.HttpException;

/**
 * Exceptions to problem details, for every route: {@link InvalidInputException} → 400, {@link NotFoundException} →
 * 404, a body over the limit → 413 naming the limit and the setting, a wrong method → 405 with {@code Allow},
 * {@link UnavailableException} → 503, a full disk → 507, a read-only or damaged store → 503; anything else → 500
 * with an error id that the log has with the stack trace, which never reaches the client.
 */
final class ProblemMapper {
    private static final System.Logger LOG = System.getLogger(RestServer.class.getName());

    private ProblemMapper() {
    }

    /** What a body over the limit is told: the limit and the setting that raises it. */
    static String tooLarge(long maxRequestBytes) {
        String limit = maxRequestBytes % (1024 * 1024) == 0 ? (maxRequestBytes >> 20) + " MiB"
                : String.format(Locale.ROOT, "%,d bytes", maxRequestBytes);
        return "the request body is larger than the limit of " + limit + ": raise POLYRAG_HTTP_MAX_REQUEST_MB, or "
                + "send less (uploads: fewer or smaller files per request)";
    }

    /**
     * The status a failure of the facade answers with, or 0 when it is none of the known ones (an internal error).
     * The JSON routes and the server-sent-event streams both ask here.
     */
    static int status(RuntimeException e) {
        return switch (e) {
            case InvalidInputException i -> 400;
            case NotFoundException n -> 404;
            case ConflictException c -> 409;
            case UnavailableException u -> 503;
            case QuotaExceededException q -> q.retryAfterSeconds() > 0 ? 429 : 413;
            // A request still running while the process stops: its stores and pools are closing.
            case RejectedExecutionException r -> 503;
            case StoreException s -> switch (StorageProblems.kind(s)) {
                case DISK_FULL -> 507;
                case NOT_WRITABLE, DAMAGED -> 503;
                // A networked store down or restarting: the same request succeeds once it is back.
                case OTHER -> StorageProblems.unreachable(s) ? 503 : 0;
            };
            default -> 0;
        };
    }

    /** The problem body for a known failure ({@link #status} not 0). */
    static Problem problemOf(RuntimeException e) {
        int status = status(e);
        HttpStatus s = HttpStatus.forStatus(status);
        return Problem.of(status, s == HttpStatus.UNKNOWN ? "Error" : s.getMessage(), e.getMessage());
    }

    static void register(RoutesConfig r, String tooLarge) {
        for (Class<? extends RuntimeException> known : List.of(InvalidInputException.class, NotFoundException.class,
                ConflictException.class)) {
            r.exception(known, (e, ctx) -> problem(ctx, status(e), e.getMessage()));
        }
        // Something the request needs is busy or away for now (every parser busy, a model loading): say when to
        // try again, as for a store that is down.
        r.exception(UnavailableException.class, (e, ctx) -> {
            ctx.header("Retry-After", "5");
            problem(ctx, 503, e.getMessage());
        });
        r.exception(AnswerUnavailableException.class, (e, ctx) -> ctx.status(502)
                .contentType(Http.PROBLEM)
                .result(Json.MAPPER.writeValueAsBytes(new Dtos.AnswerProblem("about:blank", "Bad Gateway", 502,
                        e.getMessage(), SearchWire.sources(e.sources())))));
        r.exception(Http.BodyTooLarge.class, (e, ctx) -> problem(ctx, 413, e.getMessage()));
        r.exception(Http.RangeNotSatisfiable.class, (e, ctx) -> problem(ctx, 416, e.getMessage()));
        r.exception(NotFoundResponse.class, (e, ctx) -> problem(ctx, 404,
                "no route " + ctx.method() + " " + ctx.path() + "; the API is under /v1"));
        r.exception(MethodNotAllowedResponse.class, (e, ctx) -> {
            ctx.header("Allow", allowed(e.getDetails()));
            problem(ctx, 405, "method " + ctx.method() + " is not allowed on " + ctx.path() + "; use "
                    + allowed(e.getDetails()));
        });
        r.exception(HttpResponseException.class, (e, ctx) -> problem(ctx, e.getStatus(), e.getStatus() == 413
                ? tooLarge : e.getMessage()));
        // A full disk is 507, a read-only or damaged store 503, each with its one line; other store failures are
        // internal errors like any other.
        r.exception(StoreException.class, (e, ctx) -> {
            if (status(e) != 0) {
                if (StorageProblems.unreachable(e)) {
                    ctx.header("Retry-After", "5");
                }
                problem(ctx, status(e), e.getMessage());
            } else {
                internal(e, ctx, tooLarge);
            }
        });
        r.exception(QuotaExceededException.class, (e, ctx) -> {
            if (e.retryAfterSeconds() > 0) {
                ctx.header("Retry-After", Long.toString(e.retryAfterSeconds()));
            }
            problem(ctx, status(e), e.getMessage());
        });
        r.exception(RejectedExecutionException.class, (e, ctx) -> {
            ctx.header("Retry-After", "5");
            problem(ctx, 503, "the server is stopping: retry in a moment (another replica, or this one once it is "
                    + "back)");
        });
        // A stream whose client went away (a chat closed before the last chunk): nothing to answer and nobody to
        // answer it to; it was logged as an internal error.
        r.exception(UncheckedIOException.class, (e, ctx) -> {
            if (!EventStream.GONE.equals(e.getMessage())) {
                internal(e, ctx, tooLarge);
            } else if (!ctx.res().isCommitted()) {
                // Work stopped because the connection read as closed, before any answer: a client that closed its
                // sending half after the request (shutdownOutput) still reads, and got an empty 200.
                problem(ctx, 400, "the request was stopped: its connection was closed for sending after the request "
                        + "(a half-close reads as a client gone): keep the connection open until the answer");
            }
        });
        r.exception(Exception.class, (e, ctx) -> internal(e, ctx, tooLarge));
    }

    /**
     * The handler with an {@link Error} thrown inside it (a stack overflow, a class missing at run time, memory
     * exhausted for one request's buffer) turned into an exception, so that it becomes an internal-error problem
     * with its id like any other failure: Javalin maps exceptions only, and an error left to Jetty answers an empty
     * 500.
     */
    static Handler guarded(Handler h) {
        return ctx -> {
            try {
                h.handle(ctx);
            } catch (Error e) {
                throw new HandlerError(e);
            }
        };
    }

    /** An {@link Error} out of a route handler, carried to the exception mappers. */
    static final class HandlerError extends RuntimeException {
        HandlerError(Error cause) {
            super(cause.toString(), cause);
        }
    }

    /** The methods a path answers, from Javalin's 405 details, in a fixed order, HEAD wherever GET is. */
    static String allowed(Map<String, String> details) {
        String all = String.join(",", details.values()).toUpperCase(Locale.ROOT);
        List<String> out = new ArrayList<>();
        for (String m : List.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE")) {
            if (all.contains(m) || m.equals("HEAD") && all.contains("GET")) {
                out.add(m);
            }
        }
        return String.join(", ", out);
    }

    /** Jetty's multipart parser past maxFileSize or maxTotalRequestSize: a "bad multipart" 400 caused by a limit. */
    static boolean multipartTooLarge(Throwable e) {
        boolean badMultipart = false;
        for (Throwable t = e; t != null; t = t.getCause()) {
            badMultipart |= t instanceof HttpException h && h.getCode() == 400;
            if (badMultipart && String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT).contains("exceeded")) {
                return true;
            }
        }
        return false;
    }

    /**
     * The parser stopped part way through the request's body, so Jetty closes the connection after this answer: say
     * so in it, or a client that keeps connections alive sends its next request on one about to close and reads
     * nothing back.
     */
    private static void unread(Context ctx) {
        ctx.header("Connection", "close");
    }

    /** Jetty's limits on a multipart request's shape, in the words of the limit and its fix; null for others. */
    static String multipartShape(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String m = String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT);
            if (m.contains("headers max length exceeded")) {
                return "a part's headers (its file name or field name) are longer than Jetty's 8 KiB: name each "
                        + "file with at most 255 characters";
            }
            if (m.contains("too many keys")) {
                return "at most " + Limits.MAX_FILES_PER_REQUEST + " files per request (and "
                        + (Limits.MAX_FORM_PARTS - Limits.MAX_FILES_PER_REQUEST)
                        + " other fields): send the files in several requests";
            }
        }
        return null;
    }

    static void internal(Exception e, Context ctx, String tooLarge) {
        String shape = multipartShape(e);
        if (shape != null) {
            unread(ctx);
            problem(ctx, 400, shape);
            return;
        }
        if (multipartTooLarge(e)) {
            unread(ctx);
            problem(ctx, 413, tooLarge);
            return;
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof HttpResponseException h) {
                problem(ctx, h.getStatus(), h.getStatus() == 413 ? tooLarge : h.getMessage());
                return;
            }
            if (t instanceof HttpException b) {
                // Jetty gave up on the body (a bad multipart): the rest of it is still on the connection, which it
                // closes after the answer; say so, or a client reuses it and its next request finds it dead (found
                // by fuzzing: Java's HTTP client then fails with "header parser received no bytes").
                unread(ctx);
                problem(ctx, b.getCode(), b.getCode() == 413 ? tooLarge : "malformed request: " + b.getReason());
                return;
            }
        }
        if (StorageProblems.kind(e) == StorageProblems.Kind.DISK_FULL) {
            // Receiving an upload into staging (or Jetty spooling its parts) on a full disk: the 507 the other
            // writes answer, not an internal error with a stack trace in the log.
            unread(ctx);
            problem(ctx, 507, StorageProblems.describe("server", "its data directory", "receive the upload", e));
            return;
        }
        problem(ctx, 500, logged(e, ctx));
    }

    /** Logs an unexpected failure under a fresh error id; returns what the client is told. */
    static String logged(Exception e, Context ctx) {
        String id = UUID.randomUUID().toString();
        Tenant tenant = ctx.attribute(Auth.TENANT);
        LOG.log(System.Logger.Level.ERROR, "internal error " + id + " on " + ctx.method() + " " + ctx.path()
                + " (request " + ctx.attribute(RestServer.REQUEST_ID) + ", tenant " + (tenant == null || tenant.name().isEmpty()
                        ? "-" : tenant.name()) + ")", e);
        return "internal error; the server log has the details under error id " + id;
    }

    /**
     * What a stream whose headers are sent says of a failure, as its last event: the problem, or for an unexpected
     * failure a 500 naming the error id it was logged under (rethrown, it only cut the stream off: the status and
     * problem could no longer be sent). Null when the client went away: nothing can reach it.
     */
    static Problem inStream(RuntimeException e, Context ctx) {
        if (e instanceof UncheckedIOException && "the client went away".equals(e.getMessage())) {
            return null;
        }
        return status(e) == 0 ? Problem.of(500, "Internal Server Error", logged(e, ctx)) : problemOf(e);
    }
}
