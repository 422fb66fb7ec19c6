package io.polyrag.server;

import io.polyrag.app.Json;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Errors Jetty answers itself, before a route runs (a request line too long, a malformed URI, headers too large),
 * as {@code application/problem+json} like every other error of the API, never Jetty's HTML page.
 */
final class ProblemErrorHandler extends ErrorHandler {
    private static final String PROBLEM = "application/problem+json";

    @Override
    protected void generateResponse(Request request, Response response, int code, String message, Throwable cause,
            Callback callback) {
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, PROBLEM);
        if (code == HttpStatus.SERVICE_UNAVAILABLE_503) {
            // Jetty's own 503 (the server draining at a stop) ran nothing: a client may send it again, and says when.
            response.getHeaders().put(HttpHeader.RETRY_AFTER, "5");
        }
        response.write(true, ByteBuffer.wrap(body(code, message)), callback);
    }

    @Override
    public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
        fields.put(new HttpField(HttpHeader.CONTENT_TYPE, PROBLEM));
        return ByteBuffer.wrap(body(status, reason));
    }

    static byte[] body(int status, String reason) {
        String title = HttpStatus.getMessage(status);
        return Json.MAPPER.writeValueAsString(new Problem("about:blank", title, status, detail(status, reason)))
                .getBytes(StandardCharsets.UTF_8);
    }

    private static String detail(int status, String reason) {
        return switch (status) {
            case 414 -> "the request URI is too long: send a long query in the body of POST /v1/search";
            case 431 -> "the request headers are too large: send fewer or shorter headers";
            default -> status == 400 ? "malformed request: " + (reason == null ? "bad request line or URI" : reason)
                    : reason == null ? HttpStatus.getMessage(status) : reason;
        };
    }
}
