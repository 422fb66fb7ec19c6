package io.polyrag.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.app.Polyrag;
import io.polyrag.core.config.Config;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Authorisation decides on the path the router will match, not on its spelling: every route, and every way of
 * writing it (a trailing slash, a {@code ;param}, a doubled slash, an encoded letter or separator, a dot segment),
 * asked without a key is refused, and the operator's routes refuse a tenant's key however they are written.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AuthPathsTest {
    private static final String ADMIN = "operator-secret-for-path-tests";
    @TempDir
    static Path tmp;
    private Polyrag polyrag;
    private RestServer server;
    private String tenantKey;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    void start() {
        polyrag = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("data").toString(),
                "vector.enabled", "false", "graph.enabled", "false", "rdf.enabled", "false", "http.admin.key", ADMIN,
                "http.auth.failures.per.minute", "100000")));
        tenantKey = polyrag.keys().create("alpha", null).key();
        server = new RestServer(polyrag, "127.0.0.1", 0, 1024 * 1024);
    }

    @AfterAll
    void stop() {
        server.close();
        polyrag.close();
    }

    @Test
    void every_route_in_every_spelling_needs_a_key_and_operator_routes_need_the_operators() {
        List<String> leaks = new ArrayList<>();
        for (String op : server.operations()) {
            String method = op.substring(0, op.indexOf(' '));
            String path = op.substring(op.indexOf(' ') + 1).replaceAll("\\{[^}]+}", "x");
            if (path.equals("/v1/openapi.json") || !path.startsWith("/v1/")) {
                continue; // public by design: the API's description, /health, /ready
            }
            boolean operator = path.startsWith("/v1/admin");
            for (String spelling : spellings(path)) {
                int anonymous = send(method, spelling, null);
                if (anonymous < 400 || anonymous >= 500) {
                    leaks.add(method + " " + spelling + " without a key: " + anonymous);
                }
                if (operator) {
                    int tenant = send(method, spelling, tenantKey);
                    if (tenant < 400 || tenant >= 500) {
                        leaks.add(method + " " + spelling + " with a tenant's key: " + tenant);
                    }
                }
            }
        }
        for (String spelling : spellings("/metrics")) {
            int anonymous = send("GET", spelling, null);
            if (anonymous < 400 || anonymous >= 500) {
                leaks.add("GET " + spelling + " without a key: " + anonymous);
            }
        }
        assertThat(leaks).isEmpty();
        // A parameter that decodes to a path leading back to an open one is still the route's: a key, not the
        // route's handler run without one (it answered 404 as the local tenant).
        assertThat(send("GET", "/v1/jobs/x%2F..%2F..%2F..%2Fhealth", null)).isIn(400, 401);
        assertThat(send("GET", "/v1/jobs/x%2F..%2F..%2F..%2Fv1%2Fopenapi.json", null)).isIn(400, 401);
        assertThat(send("GET", "/metrics", ADMIN)).as("the operator reads the metrics").isEqualTo(200);
        assertThat(send("GET", "/v1/documents/", tenantKey)).as("a tenant's own route with a slash still works")
                .isEqualTo(200);
        assertThat(send("GET", "/health", null)).isEqualTo(200);
    }

    /** The ways a client may write one path. */
    private static List<String> spellings(String path) {
        List<String> out = new ArrayList<>(List.of(path, path + "/", path + ";a=b", path + "/;a=b", "/" + path,
                path.replaceFirst("/", "//"), path.replace("/v1/", "/v1//"), path.replaceFirst("s", "%73"),
                path.replaceFirst("m", "%6D"), path.replaceFirst("/", "/./"), "/x/.." + path, path.toUpperCase(
                java.util.Locale.ROOT), path.replace("/v1/", "/V1/")));
        if (path.lastIndexOf('/') > 0) {
            out.add(path.substring(0, path.lastIndexOf('/')) + "%2F" + path.substring(path.lastIndexOf('/') + 1));
        }
        return out.stream().distinct().toList();
    }

    private int send(String method, String path, String key) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .timeout(Duration.ofSeconds(20)).method(method, method.equals("GET") || method.equals("DELETE")
                        ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString("{}"))
                .header("Content-Type", "application/json");
        if (key != null) {
            b.header("Authorization", "Bearer " + key);
        }
        try {
            HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
            return r.statusCode();
        } catch (java.io.IOException | InterruptedException e) {
            throw new AssertionError(method + " " + path, e);
        }
    }
}
