package io.polyrag.source.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.adobe.testing.s3mock.S3MockApplication;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.config.Config;
import io.polyrag.core.port.SourceConnector;
import io.polyrag.core.port.SourceConnector.Found;
import io.polyrag.core.port.SourceConnector.Listed;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.catalina.Service;
import org.apache.catalina.connector.Connector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The s3 connector against S3Mock in this JVM, on loopback, through the real AWS SDK: settings checked and named,
 * the loopback endpoint refused until the operator allows private addresses, listing by pages with ETags as change
 * tokens, the prefix, globs, folder markers and hidden keys applied, reads bounded, a missing bucket unavailable.
 */
class S3ConnectorTest {
    private static S3MockApplication s3;
    private static int port;
    private static S3Client admin;

    @BeforeAll
    static void start() throws Exception {
        Path root = Files.createTempDirectory("polyrag-s3mock");
        s3 = S3MockApplication.start(new HashMap<>(Map.of(S3MockApplication.PROP_HTTP_PORT,
                S3MockApplication.RANDOM_PORT, S3MockApplication.PROP_HTTPS_PORT, S3MockApplication.RANDOM_PORT,
                "server.address", "127.0.0.1", "com.adobe.testing.s3mock.store.initial-buckets", "docs",
                "com.adobe.testing.s3mock.store.root", root.toString(), S3MockApplication.PROP_SILENT, true)));
        port = loopbackOnly(s3);
        admin = S3Client.builder().region(Region.US_EAST_1).forcePathStyle(true).endpointOverride(URI.create(
                "http://127.0.0.1:" + port)).credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials
                .create("test", "test"))).build();
    }

    /** S3Mock's plain-HTTP connector listens on every interface: replace it with one on 127.0.0.1. */
    private static int loopbackOnly(S3MockApplication app) throws Exception {
        java.lang.reflect.Field f = S3MockApplication.class.getDeclaredField("httpConnector");
        f.setAccessible(true);
        Connector open = (Connector) f.get(app);
        Service service = open.getService();
        Connector local = new Connector();
        local.setPort(0);
        local.setProperty("address", "127.0.0.1");
        service.addConnector(local);
        service.removeConnector(open);
        open.destroy();
        return local.getLocalPort();
    }

    @AfterAll
    static void stop() {
        if (admin != null) {
            admin.close();
        }
        if (s3 != null) {
            s3.stop();
        }
    }

    private static S3Connector connector(boolean allowPrivate) {
        return new S3Connector(Config.load(Map.of(), Map.of("sync.s3.allow.private", Boolean.toString(allowPrivate),
                "sync.s3.max.object.mb", "1")));
    }

    private static Map<String, Object> settings(Map<String, Object> more) {
        Map<String, Object> m = new LinkedHashMap<>(Map.of("bucket", "docs", "prefix", "handbook/", "endpoint",
                "http://127.0.0.1:" + port, "access_key_id", "test", "secret_access_key", "s3cret"));
        m.putAll(more);
        return m;
    }

    private static void put(String key, String text) {
        admin.putObject(p -> p.bucket("docs").key(key), RequestBody.fromString(text, StandardCharsets.UTF_8));
    }

    private static List<Found> list(S3Connector c, Map<String, Object> config) throws Exception {
        List<Found> out = new ArrayList<>();
        try (SourceConnector.Listing l = c.list(config, HOST)) {
            l.forEachRemaining(out::add);
            assertThat(l.complete()).isTrue();
        }
        return out;
    }

    @Test
    void settings_are_checked_and_a_loopback_endpoint_needs_the_operators_allowance() {
        try (S3Connector strict = connector(false); S3Connector open = connector(true)) {
            assertThatThrownBy(() -> strict.checked(settings(Map.of()), HOST)).isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("'config.endpoint'").hasMessageContaining("not a public address")
                    .hasMessageContaining("POLYRAG_SYNC_S3_ALLOW_PRIVATE");
            assertThatThrownBy(() -> open.checked(settings(Map.of("bucket", "No_Such")), HOST))
                    .hasMessageContaining("'config.bucket'");
            assertThatThrownBy(() -> open.checked(settings(Map.of("endpoint", "file:///etc")), HOST))
                    .hasMessageContaining("'config.endpoint' must be an http:// or https:// URL");
            assertThatThrownBy(() -> open.checked(settings(Map.of("endpoint", "http://user:pw@127.0.0.1:1")), HOST))
                    .hasMessageContaining("without user info");
            assertThatThrownBy(() -> open.checked(settings(Map.of("secret_access_key", "")), HOST))
                    .hasMessageContaining("go together");
            assertThatThrownBy(() -> open.checked(settings(Map.of("depth", 2)), HOST))
                    .hasMessageContaining("'config.depth' is not an s3 setting");
            assertThatThrownBy(() -> open.checked(settings(Map.of("prefix", "/abs")), HOST))
                    .hasMessageContaining("'config.prefix'");
            assertThatThrownBy(() -> open.checked(settings(Map.of("include", List.of("[x"))), HOST))
                    .hasMessageContaining("invalid glob");
            Map<String, Object> ok = open.checked(settings(Map.of("endpoint", "HTTP://127.0.0.1:" + port + "/")), HOST);
            assertThat(ok).containsEntry("endpoint", "http://127.0.0.1:" + port).containsEntry("path_style", true)
                    .containsEntry("region", "us-east-1").containsEntry("secret_access_key", "s3cret");
            assertThat(open.secrets()).containsExactly("secret_access_key");
        }
    }

    @Test
    void without_path_style_the_host_checked_is_the_one_the_sdk_contacts_the_bucket_s_own_name() {
        // A wildcard DNS entry under a public endpoint could send BUCKET.HOST anywhere: that name is the one checked.
        // The endpoint's own host is checked too: the SDK falls back to it for bucket names no host name can hold.
        try (S3Connector strict = connector(false)) {
            assertThatThrownBy(() -> strict.checked(settings(Map.of("path_style", false)), HOST))
                    .isInstanceOf(InvalidInputException.class).hasMessageContaining("'config.endpoint'")
                    .hasMessageContaining("127.0.0.1");
            assertThatThrownBy(() -> strict.checked(settings(Map.of("path_style", false, "bucket", "1.2.3.4")),
                    HOST)).isInstanceOf(InvalidInputException.class).hasMessageContaining("the host 127.0.0.1 is not a public");
        }
        assertThat(S3Connector.validator("\"abc\"")).isEqualTo("\"abc\"");
        assertThat(S3Connector.validator("x".repeat(1001))).as("too long for the catalog: no token").isEmpty();
    }

    @Test
    void a_listing_pages_through_the_prefix_with_etags_as_tokens_and_reads_what_it_lists() throws Exception {
        put("handbook/intro.md", "# Intro\nThe levain ferments overnight.");
        put("handbook/guides/proofing.md", "Proofing takes two hours.");
        put("handbook/guides/notes.log", "debug");
        put("handbook/.drafts/secret.md", "not yet");
        put("handbook/empty-folder/", "");
        put("handbook/a.md", "a");
        put("handbook/b.md", "b");
        put("elsewhere/outside.md", "outside the prefix");
        int pages = S3Connector.pageSize;
        S3Connector.pageSize = 2;
        try (S3Connector c = connector(true)) {
            Map<String, Object> config = c.checked(settings(Map.of("exclude", List.of("*.log"))), HOST);
            List<Found> found = list(c, config);
            assertThat(found).as("every page read; the prefix, folder markers, hidden keys and globs applied")
                    .map(Found::item).containsExactly("handbook/a.md", "handbook/b.md", "handbook/guides/proofing.md",
                            "handbook/intro.md");
            Listed intro = (Listed) found.get(3);
            assertThat(intro.validator()).isNotEmpty();
            assertThat(intro.content()).as("read only when its token moved").isNull();
            SourceConnector.Content content = c.read(config, intro, HOST);
            assertThat(new String(content.bytes(), StandardCharsets.UTF_8)).contains("levain");
            assertThat(content.uri()).isEqualTo("s3://docs/handbook/intro.md");
            assertThat(content.name()).isEqualTo("intro.md");

            put("handbook/intro.md", "# Intro\nThe levain ferments for twelve hours.");
            admin.deleteObject(d -> d.bucket("docs").key("handbook/b.md"));
            List<Found> again = list(c, config);
            assertThat(again).map(Found::item).containsExactly("handbook/a.md", "handbook/guides/proofing.md",
                    "handbook/intro.md");
            assertThat(((Listed) again.get(2)).validator()).as("a new ETag for new bytes")
                    .isNotEqualTo(intro.validator());
            assertThat(((Listed) again.get(0)).validator()).isEqualTo(((Listed) found.get(0)).validator());

            assertThat(list(c, c.checked(settings(Map.of("include", List.of("guides/*.md"))), HOST)))
                    .map(Found::item).containsExactly("handbook/guides/proofing.md");
            // Sources with credentials of their own each have a client, none with a thread pool of its own: a tenant
            // registering sources with new credentials started threads without end.
            for (int i = 0; i < S3Connector.MAX_CLIENTS + 3; i++) {
                list(c, c.checked(settings(Map.of("access_key_id", "key" + i, "include", List.of("intro.md"))), HOST));
            }
            assertThat(Thread.getAllStackTraces().keySet()).extracting(Thread::getName)
                    .noneMatch(n -> n.startsWith("sdk-ScheduledExecutor"));
        } finally {
            S3Connector.pageSize = pages;
        }
    }

    /** An empty object reads as empty (a range read of it is a 416 on AWS and MinIO, and failed every sync). */
    @Test
    void an_empty_object_reads_as_empty() throws Exception {
        put("handbook/zz-empty.md", "");
        try (S3Connector c = connector(true)) {
            Map<String, Object> config = c.checked(settings(Map.of()), HOST);
            Listed empty = (Listed) list(c, config).stream().filter(f -> f.item().equals("handbook/zz-empty.md"))
                    .findFirst().orElseThrow();
            assertThat(c.read(config, empty, HOST).bytes()).isEmpty();
        } finally {
            admin.deleteObject(d -> d.bucket("docs").key("handbook/zz-empty.md"));
        }
    }

    /** An endpoint sending an object a byte at a time held a worker for as long as it liked: its body has a deadline. */
    @Test
    void an_object_dribbled_a_byte_at_a_time_is_given_up_at_its_deadline() throws Exception {
        com.sun.net.httpserver.HttpServer slow = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        slow.createContext("/", x -> {
            x.getResponseHeaders().add("Content-Type", "text/plain");
            x.sendResponseHeaders(200, 100);
            try (var out = x.getResponseBody()) {
                for (int i = 0; i < 100; i++) {
                    out.write('a');
                    out.flush();
                    Thread.sleep(300); // within the socket's per-read timeout, each time
                }
            } catch (IOException | InterruptedException e) {
                // the client gave up
            }
        });
        slow.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        slow.start();
        try (S3Connector c = new S3Connector(Config.load(Map.of(), Map.of("sync.s3.allow.private", "true",
                "sync.s3.timeout.seconds", "1")))) {
            Map<String, Object> config = c.checked(settings(Map.of("endpoint", "http://127.0.0.1:"
                    + slow.getAddress().getPort(), "path_style", true)), HOST);
            long start = System.nanoTime();
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> c.read(config, new Listed("handbook/slow.md", 0,
                    100, "", null), HOST)).isInstanceOf(IOException.class).hasMessageContaining("took longer than 1 s");
            assertThat(java.time.Duration.ofNanos(System.nanoTime() - start)).isLessThan(java.time.Duration
                    .ofSeconds(15));
        } finally {
            slow.stop(0);
        }
    }

    /** A page marked truncated with no token to go on leaves the listing incomplete: nothing after it is deleted. */
    @Test
    void a_truncated_page_without_a_token_makes_the_listing_incomplete() {
        var truncated = software.amazon.awssdk.services.s3.model.ListObjectsV2Response.builder().isTruncated(true)
                .contents(software.amazon.awssdk.services.s3.model.S3Object.builder().key("a.md").build()).build();
        S3Connector.Objects objects = new S3Connector.Objects(List.of(truncated).iterator());
        assertThat(objects.hasNext()).isTrue();
        assertThat(objects.next().key()).isEqualTo("a.md");
        assertThat(objects.hasNext()).isFalse();
        assertThat(objects.cut).isTrue();
        var whole = software.amazon.awssdk.services.s3.model.ListObjectsV2Response.builder().isTruncated(false)
                .contents(List.of()).build();
        S3Connector.Objects last = new S3Connector.Objects(List.of(whole).iterator());
        assertThat(last.hasNext()).isFalse();
        assertThat(last.cut).isFalse();
        // A server giving the same token again and again: listed once, then cut (it was listed for ever).
        var looping = software.amazon.awssdk.services.s3.model.ListObjectsV2Response.builder().isTruncated(true)
                .nextContinuationToken("t").contents(software.amazon.awssdk.services.s3.model.S3Object.builder()
                        .key("a.md").build()).build();
        S3Connector.Objects endless = new S3Connector.Objects(java.util.stream.Stream.generate(() -> looping)
                .iterator());
        int n = 0;
        while (endless.hasNext() && n < 1000) {
            endless.next();
            n++;
        }
        assertThat(n).isEqualTo(2);
        assertThat(endless.cut).isTrue();
        // Tokens going round (A, B, A, …), and a truncated page with an empty token: cut too.
        java.util.concurrent.atomic.AtomicInteger turn = new java.util.concurrent.atomic.AtomicInteger();
        S3Connector.Objects round = new S3Connector.Objects(java.util.stream.Stream.generate(() -> looping.toBuilder()
                .nextContinuationToken(turn.getAndIncrement() % 2 == 0 ? "A" : "B").build()).iterator());
        n = 0;
        while (round.hasNext() && n < 1000) {
            round.next();
            n++;
        }
        assertThat(n).isEqualTo(3);
        assertThat(round.cut).isTrue();
        S3Connector.Objects empty = new S3Connector.Objects(List.of(looping.toBuilder().nextContinuationToken("")
                .build()).iterator());
        empty.hasNext();
        assertThat(empty.cut).isTrue();
    }

    /** A prefix is a folder: "handbook" took "handbook-old/" too, and no glob with a slash matched below it. */
    @Test
    void a_prefix_without_its_slash_is_the_folder_it_names() throws Exception {
        put("handbook/drafts/secret.md", "draft");
        put("handbook-old/c.md", "old");
        try (S3Connector c = connector(true)) {
            Map<String, Object> config = c.checked(settings(Map.of("prefix", "handbook", "exclude",
                    List.of("drafts/**"))), HOST);
            assertThat(config.get("prefix")).isEqualTo("handbook/");
            assertThat(list(c, config)).map(Found::item).isNotEmpty().allMatch(k -> k.startsWith("handbook/"))
                    .doesNotContain("handbook/drafts/secret.md");
        } finally {
            admin.deleteObject(d -> d.bucket("docs").key("handbook/drafts/secret.md"));
            admin.deleteObject(d -> d.bucket("docs").key("handbook-old/c.md"));
        }
    }

    @Test
    void an_object_over_the_limit_is_skipped_with_the_setting_named_and_a_missing_bucket_changes_nothing()
            throws Exception {
        put("big/huge.txt", "x".repeat(1024 * 1024 + 1));
        try (S3Connector c = connector(true)) {
            Map<String, Object> config = c.checked(settings(Map.of("prefix", "big/")), HOST);
            Listed huge = (Listed) list(c, config).getFirst();
            assertThatThrownBy(() -> c.read(config, huge, HOST)).hasMessageContaining("larger than 1 MiB")
                    .hasMessageContaining("POLYRAG_SYNC_S3_MAX_OBJECT_MB");
            put("big/grows.txt", "small");
            Listed small = (Listed) list(c, config).stream().filter(f -> f.item().equals("big/grows.txt"))
                    .findFirst().orElseThrow();
            put("big/grows.txt", "y".repeat(2 * 1024 * 1024));
            assertThatThrownBy(() -> c.read(config, small, HOST)).as("grown past the limit after it was listed").hasMessageContaining("larger than 1 MiB");
            Map<String, Object> missing = c.checked(settings(Map.of("bucket", "no-such-bucket")), HOST);
            assertThatThrownBy(() -> c.list(missing, HOST)).isInstanceOf(SourceConnector.Unavailable.class)
                    .hasMessageContaining("the bucket 'no-such-bucket'").hasMessageContaining("nothing was changed");
        }
        try (S3Connector strict = connector(false)) {
            Map<String, Object> stored = new LinkedHashMap<>(settings(Map.of()));
            stored.putAll(Map.of("region", "us-east-1", "path_style", true, "include", List.of(), "exclude", List.of()));
            assertThatThrownBy(() -> strict.list(stored, HOST)).as("the allowance withdrawn after registration")
                    .isInstanceOf(SourceConnector.Unavailable.class).hasMessageContaining("not a public address");
        }
    }

    /** No tenant folders, nothing recorded: an s3 source needs none of them. */
    private static final SourceConnector.Host HOST = io.polyrag.testing.BareHost.INSTANCE;
}
