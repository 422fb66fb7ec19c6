package io.polyrag.server;

import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import io.javalin.http.HttpStatus;
import io.polyrag.app.Json;
import io.polyrag.app.Tracing;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.model.Ids;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.Part;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

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

    /**
     * The query parameter's values, in order, decoded strictly as UTF-8 from the query string itself. Javalin's own
     * map drops a value with a malformed escape ({@code query_id=q%zz} read as absent made a judgments DELETE take
     * every judged query; {@code kb=a%} listed everything) and decodes by the charset of the request's Content-Type
     * (an unknown one dropped every value; {@code charset} without a value was a 500).
     */
    static List<String> queries(Context ctx, String name) {
        List<String> out = new ArrayList<>(1);
        String query = ctx.queryString();
        if (query == null || query.isEmpty()) {
            return out;
        }
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            if (!pair.isEmpty() && decoded(eq < 0 ? pair : pair.substring(0, eq), null).equals(name)) {
                out.add(eq < 0 ? "" : decoded(pair.substring(eq + 1), name));
            }
        }
        return out;
    }

    /** The query parameter's first value ({@link #queries}), "" when given without one, null when absent. */
    static String query(Context ctx, String name) {
        List<String> values = queries(ctx, name);
        return values.isEmpty() ? null : values.getFirst();
    }

    /**
     * A query string's name or value, percent-decoded ('+' a space) and read as UTF-8; a malformed escape or bytes
     * that are not UTF-8 are a 400 naming the parameter ({@code of}; null: the text is a parameter's name).
     */
    static String decoded(String raw, String of) {
        if (raw.indexOf('%') < 0 && raw.indexOf('+') < 0) {
            return raw;
        }
        ByteBuffer bytes = ByteBuffer.allocate(raw.length() * 3);
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '%') {
                int hi = i + 2 < raw.length() ? Character.digit(raw.charAt(i + 1), 16) : -1;
                int lo = hi < 0 ? -1 : Character.digit(raw.charAt(i + 2), 16);
                if (lo < 0) {
                    throw new InvalidInputException("query " + (of == null ? "parameter name '" + Ids.abbreviate(raw,
                            40) + "'" : "parameter '" + of + "'") + " has a malformed %-escape: write a % sign as %25 "
                            + "and other bytes as %XX (two hex digits)");
                }
                bytes.put((byte) (hi * 16 + lo));
                i += 2;
            } else if (c == '+') {
                bytes.put((byte) ' ');
            } else {
                int end = i + 1;
                while (end < raw.length() && raw.charAt(end) != '%' && raw.charAt(end) != '+') {
                    end++;
                }
                bytes.put(raw.substring(i, end).getBytes(StandardCharsets.UTF_8));
                i = end - 1;
            }
        }
        bytes.flip();
        try {
            String text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(bytes).toString();
            // No parameter takes a NUL, and PostgreSQL refuses one in any text: a filter with %00 was a 500 there.
            if (text.indexOf('\u0000') >= 0) {
                throw new InvalidInputException("query " + (of == null ? "parameter name" : "parameter '" + of + "'")
                        + " holds a NUL character (%00): no parameter takes one");
            }
            return text;
        } catch (CharacterCodingException e) {
            throw new InvalidInputException("query " + (of == null ? "parameter name" : "parameter '" + of + "'")
                    + " is not UTF-8 once decoded: percent-encode the text's UTF-8 bytes");
        }
    }

    static Integer intParam(Context ctx, String name) {
        String v = query(ctx, name);
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
        String v = query(ctx, name);
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
        String v = query(ctx, name);
        if (v == null || v.equalsIgnoreCase("false")) {
            return false;
        }
        if (v.equalsIgnoreCase("true")) {
            return true;
        }
        throw new InvalidInputException("query parameter '" + name + "' must be true or false, was '"
                + Ids.abbreviate(v, 40) + "'");
    }

    /**
     * Refuses (415) a body not declared as JSON, or declared in a charset other than UTF-8 (RFC 8259): the body is
     * read as UTF-8 whatever the header says, and a malformed {@code charset} parameter was a 500.
     */
    static void requireJson(Context ctx) {
        String type = ctx.header("Content-Type"); // not ctx.contentType(): Jetty's throws on an unknown charset
        String lower = type == null ? "" : type.toLowerCase(Locale.ROOT);
        String[] parts = lower.split(";");
        if (!parts[0].strip().equals("application/json")) {
            throw new HttpResponseException(HttpStatus.UNSUPPORTED_MEDIA_TYPE.getCode(),
                    "send the body as JSON with Content-Type: application/json (got " + type + ")");
        }
        for (int i = 1; i < parts.length; i++) {
            String p = parts[i].strip();
            if (p.startsWith("charset")) {
                int eq = p.indexOf('=');
                String cs = eq < 0 ? "" : p.substring(eq + 1).strip().replace("\"", "");
                if (!cs.equals("utf-8") && !cs.equals("utf8")) {
                    throw new HttpResponseException(HttpStatus.UNSUPPORTED_MEDIA_TYPE.getCode(), "send JSON as "
                            + "UTF-8: Content-Type: application/json or application/json; charset=utf-8 (got "
                            + Ids.abbreviate(type, 80) + ")");
                }
            }
        }
    }

    /** The most bytes a multipart request's field (not a file) holds, unless the route takes a large one. */
    static final int MAX_FIELD_BYTES = 8 << 10;
    /** The most different fields (not files) a multipart request holds. */
    static final int MAX_FORM_FIELDS = 24;
    /** The most times a repeatable field (categories) is given: as many as a document takes. */
    static final int MAX_REPEATS = 32;

    /**
     * Checks a multipart request's fields before any is read: at most {@link #MAX_FORM_FIELDS} different ones, each
     * at most {@link #MAX_FIELD_BYTES} unless named in {@code large}, none given twice unless named in
     * {@code repeatable} (and those at most {@link #MAX_REPEATS} times).
     * The framework reads every field whole, and again for each part of the same name: a thousand 64 KiB fields
     * named "kb" were 64 GiB of copying, before the route looked at one.
     */
    static void checkFormFields(Context ctx, Set<String> repeatable, Set<String> large) {
        ctx.uploadedFiles(); // the framework's multipart settings (sizes, where parts go) applied first
        Collection<Part> parts;
        try {
            parts = ctx.req().getParts();
        } catch (IOException | ServletException e) {
            throw new InvalidInputException("the multipart body could not be read (" + e.getMessage() + ")");
        }
        Map<String, Integer> seen = new HashMap<>();
        for (Part p : parts) {
            if (p.getSubmittedFileName() != null) {
                continue;
            }
            String name = Ids.abbreviate(String.valueOf(p.getName()), 40);
            int times = seen.merge(p.getName(), 1, Integer::sum);
            if (seen.size() > MAX_FORM_FIELDS) {
                throw new InvalidInputException("more than " + MAX_FORM_FIELDS + " different form fields: files go "
                        + "in file parts");
            }
            if (times > 1 && !repeatable.contains(p.getName())) {
                throw new InvalidInputException("form field '" + name + "' is given twice: send it once");
            }
            if (times > MAX_REPEATS) {
                throw new InvalidInputException("form field '" + name + "' is given more than " + MAX_REPEATS
                        + " times");
            }
            if (p.getSize() > MAX_FIELD_BYTES && !large.contains(p.getName())) {
                throw new InvalidInputException("form field '" + name + "' holds " + p.getSize() + " bytes, more "
                        + "than the " + MAX_FIELD_BYTES + " a field takes (a file goes in a file part)");
            }
            // A large field is read whole, as a string, and again for each look at the form: as much as a JSON body
            // at most (a 250 MiB 'queries' field took gigabytes before it was refused), or as a file part.
            if (p.getSize() > JSON_MAX_BYTES) {
                throw new InvalidInputException("form field '" + name + "' holds " + p.getSize() + " bytes, more "
                        + "than the " + JSON_MAX_BYTES + " a form field takes: send it as a file part");
            }
        }
    }

    /** The request attribute holding the server's largest request body (what a refused body is drained up to). */
    static final String MAX_REQUEST = "polyrag.maxRequestBytes";

    /** Largest body a JSON route other than a text ingest reads: a search, a question, judgments fit many times. */
    static final int JSON_MAX_BYTES = 16 << 20;

    /**
     * The body of a JSON route that takes a small one, as UTF-8: at most {@link #JSON_MAX_BYTES} are read (413 past
     * them, not the whole upload limit held several times in memory), and bytes that are not UTF-8 are a 400.
     */
    static String jsonBody(Context ctx) {
        requireJson(ctx);
        Long max = ctx.attribute(MAX_REQUEST);
        // The server's request limit when it is lower (POLYRAG_HTTP_MAX_REQUEST_MB=1 refuses a 10 MiB question too).
        int limit = max == null ? JSON_MAX_BYTES : (int) Math.min(JSON_MAX_BYTES, max);
        byte[] bytes;
        try {
            bytes = ctx.req().getInputStream().readNBytes(limit + 1);
            if (bytes.length > limit) {
                drain(ctx);
                // Past the server's own limit: the 413 that names POLYRAG_HTTP_MAX_REQUEST_MB, as every route's.
                throw limit < JSON_MAX_BYTES ? new HttpResponseException(413, "body too large") : new BodyTooLarge();
            }
        } catch (IOException e) {
            throw new InvalidInputException("the request body could not be read (" + e.getMessage() + ")");
        }
        return utf8(bytes);
    }

    /**
     * Reads and drops the rest of a refused body, up to the server's request limit, so the client reads the 413
     * instead of a connection reset in the middle of its sending (nothing of it is kept).
     */
    private static void drain(Context ctx) throws IOException {
        Long max = ctx.attribute(MAX_REQUEST);
        long left = max == null ? 0 : max;
        byte[] sink = new byte[1 << 16];
        var in = ctx.req().getInputStream();
        for (int n; left > 0 && (n = in.read(sink, 0, (int) Math.min(sink.length, left))) > 0; ) {
            left -= n;
        }
    }

    /**
     * The body of a JSON route that takes a large one (a text ingest), parsed as it is read, within the request limit
     * (read whole first, a 256 MiB body became about 1 GiB of copies before the parser ran).
     */
    static <T> T largeJsonBody(Context ctx, Class<T> type) {
        requireJson(ctx);
        Long max = ctx.attribute(MAX_REQUEST);
        long limit = max == null ? Long.MAX_VALUE : max;
        if (ctx.req().getContentLengthLong() > limit) {
            drainQuietly(ctx);
            throw new HttpResponseException(413, "body too large"); // the server's limit, named
        }
        Bounded in;
        try {
            in = new Bounded(ctx.req().getInputStream(), limit);
        } catch (IOException e) {
            throw new InvalidInputException("the request body could not be read (" + e.getMessage() + ")");
        }
        // Decoded as UTF-8 here, strictly: left to the parser, a body starting with a UTF-16 byte order mark was read
        // as UTF-16 and refused as "malformed JSON" quoting a character nobody sent.
        boolean[] notUtf8 = {false};
        Reader text = new InputStreamReader(in, StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)) {
            @Override
            public int read(char[] buf, int off, int len) throws IOException {
                try {
                    return super.read(buf, off, len);
                } catch (CharacterCodingException e) {
                    notUtf8[0] = true;
                    throw e;
                }
            }
        };
        try {
            return Json.read(text, type);
        } catch (InvalidInputException e) {
            if (in.over) {
                drainQuietly(ctx);
                // A chunked body without a length, past the limit as it was read.
                throw new HttpResponseException(413, "body too large");
            }
            if (notUtf8[0]) {
                throw new InvalidInputException(NOT_UTF8);
            }
            throw e;
        }
    }

    private static void drainQuietly(Context ctx) {
        try {
            drain(ctx);
        } catch (IOException e) {
            // the 413 is what matters; a client gone meanwhile reads nothing
        }
    }

    /** A body read at most {@code limit} bytes far: past it, the read fails and {@link #over} says why. */
    private static final class Bounded extends FilterInputStream {
        private long left;
        private boolean over;

        Bounded(InputStream in, long limit) {
            super(in);
            this.left = limit;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, (int) Math.min(len, left + 1));
            if (n > 0) {
                left -= n;
                if (left < 0) {
                    over = true;
                    throw new IOException("the request body is larger than the limit");
                }
            }
            return n;
        }
    }

    private static final String NOT_UTF8 = "the request body is not UTF-8: send JSON encoded as UTF-8 (RFC 8259)";

    private static String utf8(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new InvalidInputException(NOT_UTF8);
        }
    }

    /** A JSON body over {@link #JSON_MAX_BYTES}: 413. */
    /** A Range no byte of the content lies in: 416, with the Content-Range the route set. */
    static final class RangeNotSatisfiable extends RuntimeException {
        RangeNotSatisfiable(String message) {
            super(message);
        }
    }

    static final class BodyTooLarge extends RuntimeException {
        BodyTooLarge() {
            super("the body (or a file in it) is larger than " + (JSON_MAX_BYTES >> 20) + " MiB, the most this route "
                    + "reads: send less (documents go through /v1/ingest/files or /v1/ingest/text)", null, false, false);
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
