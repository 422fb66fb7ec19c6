package io.polyrag.store.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.adobe.testing.s3mock.S3MockApplication;
import io.polyrag.core.config.Config;
import io.polyrag.core.port.BlobStore;
import io.polyrag.testing.BlobStoreContract;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The blob store contract against S3Mock in this JVM, on loopback, through the real AWS SDK client. */
class S3BlobStoreTest extends BlobStoreContract {
    private static S3MockApplication s3;
    private static Path root;
    private static int port;

    @BeforeAll
    static void start() throws Exception {
        root = Files.createTempDirectory("polyrag-s3mock");
        s3 = S3MockApplication.start(new java.util.HashMap<>(Map.of(S3MockApplication.PROP_HTTP_PORT, S3MockApplication.RANDOM_PORT,
                S3MockApplication.PROP_HTTPS_PORT, S3MockApplication.RANDOM_PORT, "server.address", "127.0.0.1",
                "com.adobe.testing.s3mock.store.initial-buckets", "polyrag",
                "com.adobe.testing.s3mock.store.root", root.toString(), S3MockApplication.PROP_SILENT, true)));
        port = loopbackOnly(s3);
    }

    /**
     * S3Mock's plain-HTTP connector listens on every interface whatever {@code server.address} says: replace it with
     * one on 127.0.0.1, so nothing outside this machine reaches the test server.
     */
    private static int loopbackOnly(S3MockApplication app) throws Exception {
        java.lang.reflect.Field f = S3MockApplication.class.getDeclaredField("httpConnector");
        f.setAccessible(true);
        org.apache.catalina.connector.Connector open = (org.apache.catalina.connector.Connector) f.get(app);
        org.apache.catalina.Service service = open.getService();
        org.apache.catalina.connector.Connector local = new org.apache.catalina.connector.Connector();
        local.setPort(0);
        local.setProperty("address", "127.0.0.1");
        service.addConnector(local);
        service.removeConnector(open);
        open.destroy();
        return local.getLocalPort();
    }

    @AfterAll
    static void stop() {
        if (s3 != null) {
            s3.stop();
        }
    }

    private static Config config(String bucket) {
        return Config.load(Map.of(), Map.of("s3.endpoint", "http://127.0.0.1:" + port, "s3.bucket",
                bucket, "s3.path.style", "true", "s3.access.key", "test", "s3.secret.key", "test"));
    }

    @Override
    protected BlobStore openStore() {
        return S3BlobStoreProvider.open(config("polyrag"));
    }

    @Test
    void the_test_server_listens_on_loopback_only() throws Exception {
        java.net.InetAddress outside = java.util.Collections.list(java.net.NetworkInterface.getNetworkInterfaces())
                .stream().flatMap(i -> java.util.Collections.list(i.getInetAddresses()).stream())
                .filter(a -> a instanceof java.net.Inet4Address && !a.isLoopbackAddress()).findFirst().orElse(null);
        org.junit.jupiter.api.Assumptions.assumeTrue(outside != null, "this machine has no non-loopback address");
        assertThatThrownBy(() -> new java.net.Socket(outside, port).close())
                .as("S3Mock on %s:%d", outside, port).isInstanceOf(java.net.ConnectException.class);
        assertThatThrownBy(() -> new java.net.Socket(outside, s3.getPort()).close())
                .as("S3Mock's https port on %s", outside).isInstanceOf(java.net.ConnectException.class);
    }

    @Test
    void a_unicode_file_name_and_binary_bytes_survive_and_a_missing_bucket_is_one_clear_error() throws Exception {
        byte[] bytes = new byte[70_000];
        new java.util.Random(5).nextBytes(bytes);
        try (BlobStore store = openStore()) {
            store.put("doc-9", bytes, "application/pdf", "Rapport annuel — été 2026.pdf");
            BlobStore.Blob b = store.get("doc-9").orElseThrow();
            try (var in = b.content()) {
                assertThat(in.readAllBytes()).isEqualTo(bytes);
            }
            assertThat(b.name()).isEqualTo("Rapport annuel — été 2026.pdf");
            assertThat(b.mediaType()).isEqualTo("application/pdf");
        }
        assertThatThrownBy(() -> S3BlobStoreProvider.open(config("no-such-bucket")))
                .isInstanceOf(io.polyrag.core.UnavailableException.class).hasMessageContaining("no-such-bucket")
                .hasMessageContaining("POLYRAG_S3_BUCKET");
    }
}
