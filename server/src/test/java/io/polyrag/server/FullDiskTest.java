package io.polyrag.server;

import io.polyrag.app.Json;
import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.app.Polyrag;
import io.polyrag.core.config.Config;
import io.polyrag.testing.SmallDisk;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** A server whose data directory fills up, over a real socket: the write is a 507 naming the disk; search serves. */
class FullDiskTest {
    @TempDir
    Path tmp;

    private final HttpClient http = HttpClient.newHttpClient();

    private HttpResponse<String> send(RestServer s, String path, String jsonBody) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.port() + path));
        if (jsonBody != null) {
            b.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(jsonBody));
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void an_ingest_on_a_full_disk_is_a_507_naming_the_disk_and_search_keeps_serving() throws Exception {
        try (SmallDisk disk = SmallDisk.mount(tmp, 64);
                Polyrag polyrag = Polyrag.open(Config.load(Map.of(), Map.of("data.dir",
                        disk.path().resolve("data").toString(), "vector.enabled", "false")));
                RestServer server = new RestServer(polyrag, "127.0.0.1", 0, 8L * 1024 * 1024)) {
            assertThat(send(server, "/v1/ingest/text", "{\"text\": \"The lighthouse keeper logged a gale.\"}")
                    .statusCode()).isEqualTo(200);
            disk.fill(32 * 1024);
            String big = "Quince orchards and hawthorn hedges. ".repeat(20_000);
            HttpResponse<String> full = send(server, "/v1/ingest/text", "{\"text\": \"" + big + "\"}");
            assertThat(full.statusCode()).as(full.body()).isEqualTo(507);
            assertThat(full.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t)
                    .startsWith("application/problem+json"));
            JsonNode problem = Json.MAPPER.readTree(full.body());
            assertThat(problem.get("detail").asString()).contains("no space left on device at "
                    + disk.path().resolve("data")).doesNotContain("Exception");
            // An upload copied into staging on the full disk: the same 507, not an internal error.
            String boundary = "----full" + System.nanoTime();
            String part = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"files\"; filename=\"big.md\""
                    + "\r\nContent-Type: text/markdown\r\n\r\n# Big\n\n" + "Hedgerows and orchards. ".repeat(4_000)
                    + "\r\n--" + boundary + "--\r\n";
            HttpResponse<String> upload = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                    + server.port() + "/v1/ingest/files")).header("Content-Type", "multipart/form-data; boundary="
                    + boundary).POST(HttpRequest.BodyPublishers.ofString(part)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(upload.statusCode()).as(upload.body()).isEqualTo(507);
            assertThat(upload.body()).contains("no space left on device").doesNotContain("Exception");
            HttpResponse<String> search = send(server, "/v1/search?q=lighthouse+gale", null);
            assertThat(search.statusCode()).isEqualTo(200);
            assertThat(Json.MAPPER.readTree(search.body()).get("hits")).hasSize(1);
            disk.free();
            assertThat(send(server, "/v1/ingest/text", "{\"text\": \"Tidal mills and sluice gates.\"}")
                    .statusCode()).isEqualTo(200);
            assertThat(send(server, "/ready", null).statusCode()).isEqualTo(200);
        }
    }
}
