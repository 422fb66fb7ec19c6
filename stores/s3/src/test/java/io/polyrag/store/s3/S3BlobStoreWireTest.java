package io.polyrag.store.s3;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * What an upload looks like on the wire to an S3-compatible store: no checksum trailer. Since SDK 2.30 the default
 * was an aws-chunked body with a CRC trailer, which Ceph RGW, GCS, B2 and others refuse.
 */
class S3BlobStoreWireTest {
    @Test
    void an_upload_is_a_plain_body_without_a_checksum_trailer() throws IOException {
        List<Map<String, List<String>>> puts = new CopyOnWriteArrayList<>();
        List<byte[]> bodies = new CopyOnWriteArrayList<>();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", ex -> {
            byte[] body = ex.getRequestBody().readAllBytes();
            if (ex.getRequestMethod().equals("PUT")) {
                puts.add(Map.copyOf(ex.getRequestHeaders()));
                bodies.add(body);
                ex.getResponseHeaders().add("ETag", "\"e\"");
            }
            ex.sendResponseHeaders(200, -1);
            ex.close();
        });
        server.start();
        try {
            S3BlobStore store = new S3BlobStore(URI.create("http://127.0.0.1:" + server.getAddress().getPort()),
                    "us-east-1", "polyrag", "", true, "key", "secret", Duration.ofSeconds(5));
            store.put("doc-1", "the original".getBytes(StandardCharsets.UTF_8), "text/plain", "a.txt");
            assertThat(puts).singleElement().satisfies(h -> {
                assertThat(h.keySet()).map(k -> k.toLowerCase(java.util.Locale.ROOT)).doesNotContain("x-amz-trailer",
                        "x-amz-sdk-checksum-algorithm");
                // Over plain HTTP the body is still signed chunk by chunk (SigV4 streaming, which every
                // S3-compatible store takes), but with no trailer after it.
                assertThat(h.getOrDefault("X-amz-content-sha256", List.of())).noneMatch(v -> v.contains("TRAILER"));
            });
            assertThat(new String(bodies.getFirst(), StandardCharsets.UTF_8)).contains("the original")
                    .doesNotContain("x-amz-checksum");
        } finally {
            server.stop(0);
        }
    }

    /** A bucket in another region answered 301, and the message said "null" and named other settings. */
    @Test
    void a_bucket_in_another_region_names_the_region_to_set() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", ex -> {
            ex.getRequestBody().readAllBytes();
            ex.getResponseHeaders().add("x-amz-bucket-region", "eu-west-1");
            ex.sendResponseHeaders(301, -1);
            ex.close();
        });
        server.start();
        try {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> new S3BlobStore(URI.create("http://127.0.0.1:"
                    + server.getAddress().getPort()), "us-east-1", "polyrag", "", true, "key", "secret",
                    Duration.ofSeconds(5))).hasMessageContaining("set POLYRAG_S3_REGION=eu-west-1");
        } finally {
            server.stop(0);
        }
    }

    /** A malformed endpoint or an empty region was a stack trace naming no setting; a password in the URL is refused. */
    @Test
    void bad_settings_are_named() {
        for (Map.Entry<String, String> bad : List.of(Map.entry("s3.endpoint", "http://minio local:9000"),
                Map.entry("s3.endpoint", "http://admin:s3cr3t@minio:9000"), Map.entry("s3.region", " "))) {
            Map<String, String> settings = new java.util.HashMap<>(Map.of("s3.bucket", "polyrag", "s3.endpoint",
                    "http://127.0.0.1:1"));
            settings.put(bad.getKey(), bad.getValue());
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> S3BlobStoreProvider.open(
                    io.polyrag.core.config.Config.load(Map.of(), settings)))
                    .isInstanceOf(io.polyrag.core.ConfigException.class)
                    .hasMessageContaining(bad.getKey().equals("s3.region") ? "POLYRAG_S3_REGION" : "POLYRAG_S3_ENDPOINT")
                    .hasMessageNotContaining("s3cr3t");
        }
    }

    /**
     * With an endpoint and no path style set, the bucket goes in the path: the host-name style sent every request of a
     * MinIO user who had not found the setting to "polyrag.minio", a host that does not exist. Set, it is kept.
     */
    @Test
    void an_endpoint_without_a_path_style_addresses_the_bucket_in_the_path() {
        URI minio = URI.create("http://minio:9000");
        assertThat(S3BlobStoreProvider.pathStyle(config(Map.of("s3.endpoint", minio.toString())), minio)).isTrue();
        assertThat(S3BlobStoreProvider.pathStyle(config(Map.of("s3.path.style", "false")), minio)).isFalse();
        assertThat(S3BlobStoreProvider.pathStyle(config(Map.of()), null)).isFalse();
        assertThat(S3BlobStoreProvider.pathStyle(config(Map.of("s3.path.style", "true")), null)).isTrue();
    }

    private static io.polyrag.core.config.Config config(Map<String, String> settings) {
        return io.polyrag.core.config.Config.load(Map.of(), settings);
    }
}
