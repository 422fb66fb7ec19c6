package io.polyrag.source.s3;

import io.polyrag.core.InvalidInputException;
import io.polyrag.core.config.Config;
import io.polyrag.core.config.Settings;
import io.polyrag.core.fs.Globs;
import io.polyrag.core.http.PublicOnlyResolver;
import io.polyrag.core.model.Ids;
import io.polyrag.core.port.SourceConnector;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.EncodingType;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Sources of type {@code s3}: the objects under a prefix of a bucket in any S3-compatible store (AWS, MinIO, Ceph,
 * R2…). Items are object keys; the change token is the ETag (with size and modification time), so an unchanged object
 * is never downloaded. Keys ending in {@code /} (folder markers) and keys with a hidden segment are left out; the
 * include and exclude globs apply to the key below the prefix as the folder connector's apply to the path below its
 * root. Credentials belong to the source (the secret is stored, used and never shown back); without them the bucket
 * is read anonymously — never with the server's own credentials, which a tenant must not borrow. An endpoint on a
 * non-public address needs {@code sync.s3.allow.private}; its name is guarded like a web source's host.
 */
public final class S3Connector implements SourceConnector {
    public static final String TYPE = "s3";
    static final List<String> KEYS = List.of("bucket", "prefix", "endpoint", "region", "path_style",
            "access_key_id", "secret_access_key", "include", "exclude", "skip_graph");
    private static final Pattern BUCKET = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");
    private static final Pattern REGION = Pattern.compile("[a-z0-9-]{1,32}");
    /** Keys asked per listing request: S3's own maximum. */
    static int pageSize = 1000;

    private final Config config;
    /**
     * One client per endpoint and credentials, made at first use and closed with the server; at most
     * {@link #MAX_CLIENTS}, forgotten all at once past that (a tenant registering sources with new credentials made
     * clients without end).
     */
    private final Map<String, S3Client> clients = new ConcurrentHashMap<>();
    static final int MAX_CLIENTS = 64;
    /**
     * The clients' timer (attempt timeouts), shared: each client otherwise starts a pool of platform threads of its
     * own that lives as long as it does, and a forgotten client is then only garbage, nothing to close.
     */
    private final ScheduledExecutorService timer = Executors.newScheduledThreadPool(2, r -> Thread.ofPlatform()
            .name("polyrag-s3-timer").daemon().unstarted(r));

    S3Connector(Config config) {
        this.config = config;
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public boolean resumable() {
        return true;
    }

    @Override
    public Set<String> secrets() {
        return Set.of("secret_access_key");
    }

    @Override
    public Map<String, Object> checked(Map<String, Object> given, Host host) {
        SourceConnector.onlyKeys(given, "an s3 setting", KEYS);
        Map<String, Object> out = new LinkedHashMap<>();
        if (!(given.get("bucket") instanceof String bucket) || !BUCKET.matcher(bucket).matches()) {
            throw new InvalidInputException("'config.bucket' must be a bucket name of 3-63 lower-case letters, digits, "
                    + "'.' and '-', e.g. \"team-docs\"");
        }
        out.put("bucket", bucket);
        Object prefix = given.getOrDefault("prefix", "");
        if (!(prefix instanceof String p) || p.startsWith("/") || p.length() > 1024) {
            throw new InvalidInputException("'config.prefix' must be a key prefix of at most 1024 characters, not "
                    + "starting with '/', e.g. \"handbook/\"");
        }
        // A folder, as the globs below it are read: "handbook" took "handbook-old/" too, and "drafts/**" never
        // matched "/drafts/x.md", the key below a prefix without its slash.
        out.put("prefix", p.isEmpty() || p.endsWith("/") ? p : p + "/");
        URI endpoint = endpoint(given.get("endpoint"));
        out.put("endpoint", endpoint == null ? "" : endpoint.toString());
        Object region = given.getOrDefault("region", "us-east-1");
        if (!(region instanceof String r) || !REGION.matcher(r).matches()) {
            throw new InvalidInputException("'config.region' must be a region name such as \"us-east-1\"");
        }
        out.put("region", r);
        Object pathStyle = given.getOrDefault("path_style", endpoint != null);
        if (!(pathStyle instanceof Boolean)) {
            throw new InvalidInputException("'config.path_style' must be true or false (true: http://host/bucket/key, "
                    + "as MinIO wants; false: http://bucket.host/key)");
        }
        out.put("path_style", pathStyle);
        Object access = given.getOrDefault("access_key_id", "");
        Object secret = given.getOrDefault("secret_access_key", "");
        if (!(access instanceof String a) || a.length() > 256 || !(secret instanceof String s) || s.length() > 256) {
            throw new InvalidInputException("'config.access_key_id' and 'config.secret_access_key' must be strings "
                    + "of at most 256 characters");
        }
        if (a.isBlank() != s.isBlank()) {
            throw new InvalidInputException("'config.access_key_id' and 'config.secret_access_key' go together: give "
                    + "both, or neither to read a public bucket anonymously");
        }
        out.put("access_key_id", a.strip());
        out.put("secret_access_key", s.strip());
        out.put("include", Globs.checked(given.get("include"), "include"));
        out.put("exclude", Globs.checked(given.get("exclude"), "exclude"));
        out.put("skip_graph", SourceConnector.flag(given, "skip_graph", false));
        // Last: the one check that asks the network (a name lookup).
        String refused = endpoint == null ? null : refusal(bucket, endpoint, (Boolean) pathStyle);
        if (refused != null) {
            throw new InvalidInputException("'config.endpoint': " + refused);
        }
        return out;
    }

    private static URI endpoint(Object value) {
        if (value == null || value instanceof String s && s.isBlank()) {
            return null;
        }
        URI u = null;
        if (value instanceof String s && s.length() <= 2048) {
            try {
                u = new URI(s.strip());
            } catch (URISyntaxException e) {
                u = null;
            }
        }
        String scheme = u == null || u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
        if (u == null || !(scheme.equals("http") || scheme.equals("https")) || u.getHost() == null
                || u.getRawUserInfo() != null || u.getRawQuery() != null || u.getRawFragment() != null) {
            throw new InvalidInputException("'config.endpoint' must be an http:// or https:// URL without user info or "
                    + "query, e.g. \"https://minio.example.com:9000\"; leave it out for AWS itself");
        }
        return URI.create(scheme + "://" + u.getRawAuthority().toLowerCase(Locale.ROOT) + (u.getRawPath() == null
                || u.getRawPath().equals("/") ? "" : u.getRawPath()));
    }

    /** An ETag as the change token keeps it: one a hostile endpoint made too long for the catalog is left out. */
    static String validator(String etag) {
        return etag == null || etag.length() > 1000 ? "" : etag;
    }

    /**
     * Why a host a client of this endpoint contacts may not be reached, or null (each is then guarded in every lookup
     * after). The endpoint's own host always: the SDK falls back to it (path style) for bucket names that cannot be
     * host names (an IP-shaped one, dotted ones over https). Without path style also {@code BUCKET.HOST}, a name of
     * its own that a wildcard DNS entry could point anywhere.
     */
    private String refusal(String bucket, URI endpoint, boolean pathStyle) {
        boolean allow = config.get(Settings.SYNC_S3_ALLOW_PRIVATE);
        String own = PublicOnlyResolver.refusal(endpoint.getHost(), allow, "s3 sources",
                Settings.SYNC_S3_ALLOW_PRIVATE.env());
        if (own != null || pathStyle) {
            return own;
        }
        return PublicOnlyResolver.refusal(bucket + "." + endpoint.getHost(), allow, "s3 sources",
                Settings.SYNC_S3_ALLOW_PRIVATE.env());
    }

    @Override
    public Listing list(Map<String, Object> source, Host host) throws Unavailable {
        String bucket = (String) source.get("bucket");
        String prefix = (String) source.get("prefix");
        String endpoint = (String) source.get("endpoint");
        String where = "the bucket '" + bucket + "' at " + (endpoint.isEmpty() ? "AWS " + source.get("region")
                : endpoint);
        String refused = endpoint.isEmpty() ? null : refusal(bucket, URI.create(endpoint),
                Boolean.TRUE.equals(source.get("path_style")));
        if (refused != null) {
            throw new Unavailable(refused + ": nothing was changed in the index");
        }
        Objects objects;
        try {
            // Keys URL-encoded on the wire (the SDK decodes them): a key with a character XML cannot carry (a
            // control character, which S3 accepts) made every page from it unreadable, and the source unsyncable.
            objects = new Objects(client(source).listObjectsV2Paginator(r -> r.bucket(bucket).prefix(prefix)
                    .maxKeys(pageSize).encodingType(EncodingType.URL)).iterator());
            objects.hasNext(); // the first page: a bucket that cannot be listed at all changes nothing
        } catch (SdkException e) {
            throw new Unavailable(where + " cannot be listed (" + e.getMessage() + "): nothing was changed in the "
                    + "index");
        }
        Globs globs = Globs.of(source.get("include"), source.get("exclude"));
        return new Listing() {
            private Found next;

            @Override
            public boolean hasNext() {
                try {
                    while (next == null && objects.hasNext()) {
                        S3Object o = objects.next();
                        String below = o.key().substring(Math.min(prefix.length(), o.key().length()));
                        if (!o.key().endsWith("/") && wanted(below, globs)) {
                            next = new Listed(o.key(), o.lastModified() == null ? 0 : o.lastModified().toEpochMilli(),
                                    o.size() == null ? 0 : o.size(), validator(o.eTag()), null);
                        }
                    }
                } catch (SdkException e) {
                    throw new UncheckedIOException(new IOException(where + " failed while it was listed: "
                            + e.getMessage(), e));
                }
                return next != null;
            }

            @Override
            public Found next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                Found f = next;
                next = null;
                return f;
            }

            @Override
            public boolean complete() {
                return !objects.cut;
            }

            @Override
            public List<String> warnings() {
                return objects.cut ? List.of(where + " ended its listing with a page marked truncated and no token to go on: "
                        + "the objects after it were not seen, so nothing was deleted") : List.of();
            }
        };
    }

    /**
     * A listing's objects, page by page: a page that says it is truncated but gives no token to go on ends the SDK's
     * listing there, and a listing taken for whole would delete every object after it ({@link #cut}).
     */
    static final class Objects implements Iterator<S3Object> {
        /** Tokens remembered to find a listing going round (the last ones; a cycle longer than this is not seen). */
        static final int TOKENS_REMEMBERED = 1_000;
        private final Iterator<ListObjectsV2Response> pages;
        private Iterator<S3Object> page = Collections.emptyIterator();
        private final Set<String> tokens = new LinkedHashSet<>();
        private boolean done;
        boolean cut;

        Objects(Iterator<ListObjectsV2Response> pages) {
            this.pages = pages;
        }

        @Override
        public boolean hasNext() {
            while (!page.hasNext() && !done && pages.hasNext()) {
                ListObjectsV2Response r = pages.next();
                String token = r.nextContinuationToken();
                // An empty token ends the SDK's listing as a missing one does.
                if (Boolean.TRUE.equals(r.isTruncated()) && (token == null || token.isEmpty())) {
                    cut = true;
                }
                // A server that gives a token again (the same one, or A, B, A, …) would be listed for ever (the
                // worker held till canceled): the listing ends there, as cut.
                if (token != null && !token.isEmpty() && !tokens.add(token)) {
                    cut = true;
                    done = true;
                }
                if (tokens.size() > TOKENS_REMEMBERED) {
                    tokens.remove(tokens.iterator().next());
                }
                page = r.contents().iterator();
            }
            return page.hasNext();
        }

        @Override
        public S3Object next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            return page.next();
        }
    }

    /** No hidden segment, and the globs as a folder source applies them to the path below its root. */
    static boolean wanted(String below, Globs globs) {
        return !below.isEmpty() && !below.startsWith(".") && !below.contains("/.") && globs.selects(below);
    }

    @Override
    public Content read(Map<String, Object> source, Listed item, Host host) throws IOException {
        long max = config.get(Settings.SYNC_S3_MAX_OBJECT_MB) * 1024L * 1024L;
        if (item.sizeBytes() > max) {
            throw new IOException(item.item() + " is larger than " + max / (1024 * 1024) + " MiB ("
                    + Settings.SYNC_S3_MAX_OBJECT_MB.env() + "): skipped");
        }
        String bucket = (String) source.get("bucket");
        String key = item.item();
        if (item.sizeBytes() == 0) {
            // A range read of an empty object is a 416 on AWS and MinIO: it is empty, read it as such.
            return Content.bytes("s3://" + bucket + "/" + key, key.substring(key.lastIndexOf('/') + 1), null,
                    new byte[0]);
        }
        byte[] object;
        // At most one byte past the limit, even if the object grew since it was listed, or the server ignores the
        // range (a tenant's own endpoint answering gigabytes): read as a stream and cut, never more in memory.
        // The body has a deadline of its own: the SDK's attempt timeout ends with the headers, and the socket's is per
        // read, so an endpoint sending a byte every 29 s held a worker for days. The timeout, plus a second for each
        // 256 KiB the listing said the object holds.
        long deadlineMs = config.get(Settings.SYNC_S3_TIMEOUT_SECONDS) * 1000L + item.sizeBytes() / (256 * 1024) * 1000;
        AtomicBoolean late = new AtomicBoolean();
        try (ResponseInputStream<GetObjectResponse> in = client(source).getObject(r -> r.bucket(bucket)
                .key(item.item()).range("bytes=0-" + max))) {
            ScheduledFuture<?> alarm = timer.schedule(() -> {
                late.set(true);
                in.abort();
            }, deadlineMs, TimeUnit.MILLISECONDS);
            try {
                object = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, max + 1));
            } finally {
                alarm.cancel(false);
            }
            if (object.length > max) {
                in.abort();
                throw new IOException(item.item() + " is larger than " + max / (1024 * 1024) + " MiB ("
                        + Settings.SYNC_S3_MAX_OBJECT_MB.env() + "): skipped");
            }
        } catch (SdkException | IOException e) {
            if (late.get()) {
                throw new IOException(item.item() + ": reading it took longer than " + deadlineMs / 1000 + " s ("
                        + Settings.SYNC_S3_TIMEOUT_SECONDS.env() + ", plus a second per 256 KiB): tried again at the "
                        + "next sync", e);
            }
            if (e instanceof IOException io) {
                throw io;
            }
            throw new IOException(item.item() + ": cannot be read (" + e.getMessage() + ")", e);
        }
        if (late.get()) {
            throw new IOException(item.item() + ": reading it took longer than " + deadlineMs / 1000 + " s: tried "
                    + "again at the next sync");
        }
        return Content.bytes("s3://" + bucket + "/" + key, key.substring(key.lastIndexOf('/') + 1), null, object);
    }

    private S3Client client(Map<String, Object> source) {
        String endpoint = (String) source.get("endpoint");
        String region = (String) source.get("region");
        boolean pathStyle = Boolean.TRUE.equals(source.get("path_style"));
        String access = (String) source.get("access_key_id");
        String secret = (String) source.get("secret_access_key");
        String key = String.join("\n", endpoint, region, Boolean.toString(pathStyle), access, Ids.sha256Hex(
                secret.getBytes(StandardCharsets.UTF_8)));
        if (clients.size() >= MAX_CLIENTS && !clients.containsKey(key)) {
            clients.clear(); // not closed: a sync may be using one, and they hold no thread or connection pool
        }
        return clients.computeIfAbsent(key, k -> {
            Duration timeout = Duration.ofSeconds(config.get(Settings.SYNC_S3_TIMEOUT_SECONDS));
            // As the blob store's: no aws-chunked uploads or checksum checks other S3-compatible stores refuse.
            var b = S3Client.builder().region(Region.of(region)).forcePathStyle(pathStyle)
                    .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                    .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                    .httpClientBuilder(UrlConnectionHttpClient.builder().connectionTimeout(timeout)
                            .socketTimeout(timeout))
                    .overrideConfiguration(o -> o.retryStrategy(RetryMode.STANDARD).apiCallAttemptTimeout(timeout)
                            .scheduledExecutorService(timer))
                    .credentialsProvider(access.isEmpty() ? AnonymousCredentialsProvider.create()
                            : StaticCredentialsProvider.create(AwsBasicCredentials.create(access, secret)));
            if (!endpoint.isEmpty()) {
                b.endpointOverride(URI.create(endpoint));
            }
            return b.build();
        });
    }

    @Override
    public void close() {
        clients.values().forEach(S3Client::close);
        clients.clear();
        timer.shutdownNow();
    }
}
