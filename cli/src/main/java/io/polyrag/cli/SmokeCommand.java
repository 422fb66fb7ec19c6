package io.polyrag.cli;

import io.polyrag.app.Json;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;
import tools.jackson.databind.JsonNode;

/**
 * {@code polyrag smoke --url URL}: a running deployment checked end to end over its API, as an operator would after
 * a deploy: health, readiness, configuration, the server's own sample check (index, find, delete, check gone) and an
 * answer. Waits while the server starts; every step printed with its time; the first failing step named in the exit.
 */
@Command(name = "smoke", mixinStandardHelpOptions = true, description = {"Check a running polyrag end to end over its "
        + "API: /health, /ready, /v1/configuration, POST /v1/sample-check (a text indexed, found, deleted, checked "
        + "gone) and an answer (POST /v1/query). Retries while the server starts (--wait).",
    "Opens no data directory: run it against any deployment, a container, a cluster's service.",
    "Exit code 0 when every step passed, 1 naming the step that failed, 3 when the server never answered health "
        + "(nothing, or a proxy's error, for the whole wait)."})
final class SmokeCommand implements Callable<Integer> {
    @Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--url", required = true, paramLabel = "URL", description = "The server's base URL, e.g. "
            + "http://127.0.0.1:8080.")
    String url;

    @Option(names = "--api-key", paramLabel = "KEY", description = "An API key, where the server requires one.")
    String apiKey;

    @Option(names = "--wait", paramLabel = "SECONDS", defaultValue = "120", description = "How long to wait for the "
            + "server to answer and be ready (default ${DEFAULT-VALUE}).")
    int waitSeconds;

    @Option(names = "--json", description = "Print the steps as one JSON object.")
    boolean json;

    /** One step: its name, whether it passed, how long it took and what it found. */
    record Step(String name, boolean ok, long tookMs, String detail) {
    }

    /** Whether polyrag itself refused a step (a 4xx problem): bad usage, not a server to wait for. */
    private boolean refused;

    /**
     * Made when the command runs, not when picocli builds the command line: an HttpClient starts the JDK's platform
     * logging, which would set up logging before the configured format is known (every command's logs in text).
     */
    private HttpClient http;

    // style: a command: its options checked and its output written, top to bottom as the user reads them
    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        String base = url.strip().replaceAll("/+$", "");
        try {
            URI u = URI.create(base + "/health");
            if (!"http".equalsIgnoreCase(u.getScheme()) && !"https".equalsIgnoreCase(u.getScheme())
                    || u.getHost() == null) {
                throw new IllegalArgumentException("not http(s)");
            }
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--url " + url + " is not an http(s) "
                    + "URL: give e.g. http://127.0.0.1:8080");
        }
        String key = ThroughServer.key(apiKey);
        http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        long deadline = System.nanoTime() + Duration.ofSeconds(Math.max(0, waitSeconds)).toNanos();
        List<Step> steps = new ArrayList<>();

        Step health = waitFor("health", base, "/health", key, deadline, r -> r.statusCode() == 200);
        steps.add(health);
        if (health.ok()) {
            steps.add(waitFor("ready", base, "/ready", key, deadline, r -> r.statusCode() == 200));
        }
        if (steps.getLast().ok()) {
            steps.add(once("configuration", () -> {
                JsonNode c = call(base, "GET", "/v1/configuration", null, key);
                return "modalities " + c.path("modalities");
            }));
        }
        if (steps.getLast().ok()) {
            steps.add(once("sample-check", () -> {
                JsonNode s = call(base, "POST", "/v1/sample-check", "{}", key);
                StringBuilder d = new StringBuilder();
                for (JsonNode st : s.path("steps")) {
                    d.append(d.isEmpty() ? "" : ", ").append(st.path("name").asString()).append(' ')
                            .append(st.path("took_ms").asLong()).append(" ms")
                            .append(st.path("ok").asBoolean() ? "" : " FAILED: " + st.path("detail").asString());
                }
                if (!s.path("ok").asBoolean()) {
                    throw new IllegalStateException(d.toString());
                }
                return d.toString();
            }));
        }
        if (steps.getLast().ok()) {
            steps.add(once("answer", () -> {
                JsonNode a = call(base, "POST", "/v1/query", "{\"query\": \"What is in this knowledge base?\", "
                        + "\"top_k\": 3}", key);
                if (!a.has("answer")) {
                    throw new IllegalStateException("the response holds no answer: " + a);
                }
                return a.path("sources").size() + " sources, " + a.path("mode").asString("");
            }));
        }
        Step failed = steps.stream().filter(s -> !s.ok()).findFirst().orElse(null);
        if (json) {
            out.println(Json.MAPPER.writeValueAsString(Map.of("url", base, "ok", failed == null,
                    "steps", steps)));
        } else {
            for (Step s : steps) {
                out.printf(Locale.ROOT, "%-14s %-6s %7d ms  %s%n", s.name(), s.ok() ? "ok" : "FAILED", s.tookMs(),
                        s.detail());
            }
        }
        if (failed == null) {
            if (!json) {
                out.println("smoke: " + base + " passed every step");
            }
            return Main.OK;
        }
        spec.commandLine().getErr().println("smoke: step '" + failed.name() + "' failed: " + failed.detail());
        return failed.name().equals("health") && !refused ? Main.UNAVAILABLE : Main.PARTIAL;
    }

    private interface Check {
        String run() throws Exception;
    }

    private static Step once(String name, Check check) {
        long t0 = System.nanoTime();
        try {
            String detail = check.run();
            return new Step(name, true, (System.nanoTime() - t0) / 1_000_000, detail);
        } catch (Exception e) {
            return new Step(name, false, (System.nanoTime() - t0) / 1_000_000, String.valueOf(e.getMessage()));
        }
    }

    /** Asks {@code path} until {@code passed} holds or the deadline passes (a server starting, or not yet ready). */
    private Step waitFor(String name, String base, String path, String key, long deadline,
            Predicate<HttpResponse<String>> passed) throws InterruptedException {
        long t0 = System.nanoTime();
        String last = "no answer";
        while (true) {
            try {
                HttpResponse<String> r = http.send(request(base, "GET", path, null, key),
                        HttpResponse.BodyHandlers.ofString());
                if (passed.test(r)) {
                    return new Step(name, true, (System.nanoTime() - t0) / 1_000_000, summary(r.body()));
                }
                last = "HTTP " + r.statusCode() + ": " + summary(r.body());
                if (r.statusCode() >= 400 && r.statusCode() < 500 && r.statusCode() != 408 && r.statusCode() != 429
                        && r.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json")) {
                    // polyrag answered, and will answer the same however long we wait (a wrong path, a key). A
                    // proxy's 404 before its route is set up is waited out (a Kubernetes ingress syncing).
                    refused = true;
                    return new Step(name, false, (System.nanoTime() - t0) / 1_000_000, last);
                }
            } catch (IOException e) {
                last = "no answer from " + base + " (" + e.getClass().getSimpleName()
                        + (e.getMessage() == null ? "" : ": " + e.getMessage()) + ")";
            }
            if (System.nanoTime() > deadline) {
                return new Step(name, false, (System.nanoTime() - t0) / 1_000_000, last + " (waited " + waitSeconds
                        + " s; --wait to wait longer)");
            }
            Thread.sleep(500);
        }
    }

    private JsonNode call(String base, String method, String path, String body, String key) throws IOException,
            InterruptedException {
        HttpResponse<String> r = http.send(request(base, method, path, body, key), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() / 100 != 2) {
            throw new IllegalStateException("HTTP " + r.statusCode() + ": " + summary(r.body())
                    + (r.statusCode() == 401 ? " (the server requires an API key: --api-key KEY)" : ""));
        }
        return Json.MAPPER.readTree(r.body());
    }

    private static HttpRequest request(String base, String method, String path, String body, String key) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofMinutes(2))
                .header("Accept", "application/json");
        if (key != null) {
            b.header("Authorization", "Bearer " + key);
        }
        if (body != null) {
            b.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body));
        } else {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        }
        return b.build();
    }

    /** A response body in one line: a problem's detail, a health's status, else the start of the text. */
    private static String summary(String body) {
        try {
            JsonNode j = Json.MAPPER.readTree(body);
            if (j.hasNonNull("detail")) {
                return j.get("detail").asString();
            }
            if (j.hasNonNull("status")) {
                return "status " + j.get("status").asString() + (j.hasNonNull("version") ? ", version "
                        + j.get("version").asString() : "");
            }
        } catch (RuntimeException e) {
            // not JSON: its text
        }
        String t = body == null ? "" : body.strip().replaceAll("\\s+", " ");
        return t.length() > 200 ? t.substring(0, 200) + "…" : t;
    }
}
