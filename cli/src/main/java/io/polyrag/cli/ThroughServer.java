package io.polyrag.cli;

import io.polyrag.app.DataDirInUseException;
import io.polyrag.app.Json;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.UnavailableException;
import io.polyrag.core.http.BearerKeys;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;

/**
 * {@code search} and {@code ask} meeting a data directory a running {@code polyrag serve} holds: instead of failing
 * with "in use", they ask that server's REST API (the address it wrote in {@code served-url}), as the local tenant in
 * local mode or with {@code --api-key}, and print what they would have printed. {@code --no-server} refuses instead.
 */
final class ThroughServer {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final String base;
    private final String apiKey;

    private ThroughServer(String base, String apiKey) {
        this.base = base;
        this.apiKey = key(apiKey);
    }

    /** {@code --api-key} fit for a header, or a usage error naming what does not belong (never quoting the key). */
    static String key(String apiKey) {
        try {
            return BearerKeys.checked(apiKey, "--api-key");
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException(e.getMessage());
        }
    }

    /** The server holding the directory, or the "in use" error when none wrote its address (an ingest holds it). */
    static ThroughServer of(DataDirInUseException inUse, String apiKey) {
        String url = ServedUrl.written(inUse.dataDir());
        if (url == null) {
            throw inUse; // no server (the holder is another command), or one that died: nothing to ask
        }
        try {
            URI.create(url);
        } catch (IllegalArgumentException e) {
            throw inUse;
        }
        return new ThroughServer(url, apiKey);
    }

    String base() {
        return base;
    }

    /** Posts a JSON body; a 2xx answer's JSON, or the server's problem as the matching error. */
    JsonNode post(String path, Map<String, Object> body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofMinutes(5))
                .header("Content-Type", "application/json").header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Json.MAPPER.writeValueAsString(body)));
        if (apiKey != null) {
            b.header("Authorization", "Bearer " + apiKey);
        }
        HttpResponse<String> r;
        try {
            r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UnavailableException("the server holding the data directory, at " + base + ", did not answer ("
                    + e.getMessage() + "); is it still running? (--no-server to refuse instead)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UnavailableException("interrupted while asking " + base, e);
        }
        if (r.statusCode() / 100 == 2) {
            return Json.MAPPER.readTree(r.body());
        }
        String detail = r.body();
        JsonNode sources = null;
        try {
            JsonNode problem = Json.MAPPER.readTree(r.body());
            if (problem.hasNonNull("detail")) {
                detail = problem.get("detail").asString();
            }
            sources = problem.get("sources");
        } catch (RuntimeException e) {
            // Not problem+json: its text as it is.
        }
        String message = "the server at " + base + " answered " + r.statusCode() + ": " + detail
                + (r.statusCode() == 401 ? " (it requires an API key: pass --api-key KEY)" : "");
        if (r.statusCode() == 502 && sources != null && sources.isArray()) {
            throw new ModelFailed(detail, sources);
        }
        // A quota's 429 is the server's state, not the command's fault: try again later (exit 3), like a 5xx.
        if (r.statusCode() / 100 == 4 && r.statusCode() != 429) {
            throw new InvalidInputException(message);
        }
        throw new UnavailableException(message);
    }

    /** The server found sources but its language model did not answer (a 502 with them). */
    static final class ModelFailed extends UnavailableException {
        private static final long serialVersionUID = 1L;
        private final transient JsonNode sources;

        ModelFailed(String message, JsonNode sources) {
            super(message);
            this.sources = sources;
        }

        JsonNode sources() {
            return sources;
        }
    }

    /** The note on standard error that says where the answer came from. */
    void say(PrintWriter err) {
        err.println("polyrag: the data directory is in use by the server at " + base + "; asking it (--no-server "
                + "to refuse instead)");
        err.flush();
    }

    /** A search's JSON printed as {@code search} prints a search. */
    static void printSearch(JsonNode r, PrintWriter out) {
        for (JsonNode d : r.path("degraded")) {
            out.println("warning: the " + d.path("modality").asString() + " leg contributed nothing: "
                    + d.path("reason").asString());
        }
        for (JsonNode w : r.path("warnings")) {
            out.println("warning: " + w.asString());
        }
        if (r.path("hits").isEmpty()) {
            out.println("no hits (" + r.path("took_ms").asLong() + " ms)");
            return;
        }
        for (JsonNode h : r.path("hits")) {
            StringBuilder heading = new StringBuilder();
            for (JsonNode part : h.path("heading_path")) {
                heading.append(heading.isEmpty() ? "" : " › ").append(part.asString());
            }
            String location = h.path("location").asString("");
            String where = (heading.isEmpty() ? "" : "  §" + heading) + (location.isEmpty() ? "" : "  (" + location
                    + ")");
            StringBuilder retrievers = new StringBuilder();
            new TreeMap<>(Json.MAPPER.convertValue(h.path("retrievers"), Map.class)).forEach((k, v) ->
                    retrievers.append(retrievers.isEmpty() ? "" : ", ").append(k).append(" #").append(
                            ((Map<?, ?>) v).get("rank")));
            out.printf(Locale.ROOT, "%2d. %s%s%n    %s%n    score %.4f · %s%n    %s%n", h.path("rank").asInt(),
                    h.path("title").asString(), where, h.path("uri").asString(), h.path("score").asDouble(),
                    retrievers, snippet(h.path("text").asString()));
            for (JsonNode f : h.path("figures")) {
                String caption = f.path("caption").asString("");
                String at = f.path("location").asString("");
                out.println("    figure " + f.path("number").asInt() + (at.isEmpty() ? "" : " (" + at + ")") + ": "
                        + (caption.isEmpty() ? "no caption" : snippet(caption)) + "  " + f.path("url").asString());
            }
            out.println();
        }
        out.println(r.path("hits").size() + " hits in " + r.path("took_ms").asLong() + " ms");
    }

    /** An answer's JSON printed as {@code ask} prints an answer. */
    static void printAnswer(JsonNode a, PrintWriter out) {
        String answer = a.path("answer").asString("");
        out.println(!answer.isEmpty() ? answer : a.path("sources").isEmpty() ? "(nothing found)"
                : "(no answer in the sources found)");
        out.println();
        out.println("(" + a.path("mode").asString() + ") " + a.path("note").asString());
        for (JsonNode d : a.path("degraded")) {
            out.println("warning: the " + d.path("modality").asString() + " leg contributed nothing: "
                    + d.path("reason").asString());
        }
        // As the local path prints them: documents still being indexed, a reranker that failed, a condensing
        // call that did not answer.
        for (JsonNode w : a.path("warnings")) {
            out.println("warning: " + w.asString());
        }
        if (a.hasNonNull("route")) {
            JsonNode r = a.path("route");
            out.println("(routed as " + r.path("intent").asString() + (r.hasNonNull("scope") ? ", "
                    + r.path("scope").asString() : "") + ": " + r.path("reason").asString() + "; decided "
                    + r.path("by").asString() + ")");
        }
        for (JsonNode s : a.path("sources")) {
            out.printf("[%d] %s  %s%n", s.path("number").asInt(), s.path("title").asString(), s.path("uri")
                    .asString());
        }
        if (a.hasNonNull("grounding")) {
            out.println();
            for (JsonNode g : a.path("grounding")) {
                out.printf("%s %s%n", g.path("supported").asBoolean() ? "supported by " + g.path("supported_by")
                        : "UNSUPPORTED", g.path("sentence").asString());
            }
        }
    }

    private static String snippet(String text) {
        String flat = text.replaceAll("\\s+", " ").strip();
        return flat.length() <= 240 ? flat : flat.substring(0, 237) + "...";
    }
}
