package io.polyrag.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.app.Json;
import io.polyrag.app.Polyrag;
import io.polyrag.core.config.Config;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server keyed from its first start ({@code http.require.keys}, what a container runs with): it may bind a
 * non-loopback address with no key yet, refuses every data route without one, and the operator key creates the
 * first key over the API.
 */
class RequireKeysTest {
    @TempDir
    Path tmp;

    private final HttpClient http = HttpClient.newHttpClient();

    private HttpResponse<String> send(int port, String method, String path, String key, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
        if (key != null) {
            b.header("Authorization", "Bearer " + key);
        }
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body)).header("Content-Type", "application/json");
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void a_short_or_non_ascii_operator_key_is_refused_at_start() {
        // "changeme" was taken: with a fresh address per 20 tries the throttle does not stop guessing a short one.
        for (String weak : java.util.List.of("changeme", "pässwort-pässwort-1", "with space in the key")) {
            try (Polyrag polyrag = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("weak")
                    .toString(), "vector.enabled", "false", "http.admin.key", weak)))) {
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> new RestServer(polyrag, "127.0.0.1", 0,
                        1024 * 1024).close()).isInstanceOf(io.polyrag.core.ConfigException.class)
                        .hasMessageContaining("POLYRAG_HTTP_ADMIN_KEY must be at least 16").hasMessageContaining(
                                "openssl rand -hex 24").hasMessageNotContaining(weak);
            }
        }
    }

    @Test
    void no_local_mode_the_operator_creates_the_first_key_and_a_wildcard_address_is_allowed() throws Exception {
        try (Polyrag polyrag = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("data").toString(),
                "vector.enabled", "false", "http.require.keys", "true", "http.admin.key", "op-key-1234567890",
                "http.cors.origins", "https://app.example.com")));
                RestServer server = new RestServer(polyrag, "0.0.0.0", 0, 1024 * 1024)) {
            int port = server.port();
            assertThat(polyrag.keys().list()).isEmpty();
            assertThat(send(port, "GET", "/health", null, null).statusCode()).isEqualTo(200);
            assertThat(send(port, "GET", "/v1/search?q=x", null, null).statusCode()).as("no local mode").isEqualTo(401);
            assertThat(send(port, "POST", "/v1/admin/keys", null, "{\"tenant\": \"acme\"}").statusCode())
                    .isEqualTo(401);
            var created = send(port, "POST", "/v1/admin/keys", "op-key-1234567890", "{\"tenant\": \"acme\"}");
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            String key = Json.MAPPER.readTree(created.body()).get("key").asString();
            assertThat(send(port, "GET", "/v1/knowledge-bases", key, null).statusCode()).isEqualTo(200);
            // A browser's preflight carries no key; refusing it would block every cross-origin call with one.
            var preflight = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/search"))
                    .method("OPTIONS", HttpRequest.BodyPublishers.noBody()).header("Origin", "https://app.example.com")
                    .header("Access-Control-Request-Method", "POST")
                    .header("Access-Control-Request-Headers", "authorization,content-type").build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(preflight.statusCode()).as(preflight.body()).isEqualTo(200);
            assertThat(preflight.headers().firstValue("Access-Control-Allow-Origin"))
                    .hasValue("https://app.example.com");
            assertThat(preflight.headers().firstValue("Access-Control-Allow-Headers").orElse("").toLowerCase())
                    .contains("authorization");
            // A refusal to a listed origin carries its CORS headers too: without them a browser app saw a revoked
            // key as a network error and could not ask for another.
            var refused = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                    + "/v1/knowledge-bases")).header("Origin", "https://app.example.com").header("Authorization",
                    "Bearer not-a-key").build(), HttpResponse.BodyHandlers.ofString());
            assertThat(refused.statusCode()).isEqualTo(401);
            assertThat(refused.headers().firstValue("Access-Control-Allow-Origin")).hasValue("https://app.example.com");
        }
    }

    /**
     * The operator's back-fill is queued whatever the local tenant's queue holds, and the operator cancels it (no
     * tenant's key sees it): it could be stopped by nothing but a restart, after which it resumed.
     */
    @Test
    void the_operator_queues_a_back_fill_past_the_job_cap_and_cancels_it() throws Exception {
        try (Polyrag polyrag = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("ops").toString(),
                "vector.enabled", "false", "http.require.keys", "true", "http.admin.key", "op-key-1234567890",
                "ingest.workers", "0", "ingest.job.max.pending", "1")));
                RestServer server = new RestServer(polyrag, "127.0.0.1", 0, 1024 * 1024)) {
            int port = server.port();
            String first = Json.MAPPER.readTree(send(port, "POST", "/v1/admin/reindex?modality=fulltext", "op-key-1234567890",
                    null).body()).get("job_id").asString();
            var second = send(port, "POST", "/v1/admin/reindex?modality=fulltext", "op-key-1234567890", null);
            assertThat(second.statusCode()).as(second.body()).isEqualTo(202);
            var canceled = send(port, "POST", "/v1/admin/jobs/" + first + "/cancel", "op-key-1234567890", null);
            assertThat(canceled.statusCode()).as(canceled.body()).isEqualTo(200);
            assertThat(Json.MAPPER.readTree(canceled.body()).get("status").asString()).isEqualTo("canceled");
            assertThat(send(port, "POST", "/v1/admin/jobs/" + first + "/cancel", "op-key-1234567890", null).statusCode())
                    .as("finished: nothing to cancel").isEqualTo(409);
            assertThat(send(port, "POST", "/v1/admin/jobs/nope/cancel", "op-key-1234567890", null).statusCode())
                    .isEqualTo(404);
            var created = send(port, "POST", "/v1/admin/keys", "op-key-1234567890", "{\"tenant\": \"acme\"}");
            String key = Json.MAPPER.readTree(created.body()).get("key").asString();
            assertThat(send(port, "POST", "/v1/admin/jobs/" + first + "/cancel", key, null).statusCode())
                    .as("a tenant's key is not the operator's").isIn(401, 403);
        }
    }

    @Test
    void without_it_a_wildcard_address_is_still_refused_before_the_first_key() {
        try (Polyrag polyrag = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("d2").toString(),
                "vector.enabled", "false")))) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> new RestServer(polyrag, "0.0.0.0", 0, 1024))
                    .hasMessageContaining("refusing to serve on 0.0.0.0 without API keys");
        }
    }
}
