package io.polyrag.store.s3;

import io.polyrag.core.ConfigException;
import io.polyrag.core.config.Config;
import io.polyrag.core.config.Settings;
import io.polyrag.core.port.BlobStore;
import io.polyrag.core.spi.BlobStoreProvider;
import io.polyrag.core.spi.ProviderContext;
import java.net.URI;
import java.time.Duration;

/** {@code POLYRAG_BLOB_BACKEND=s3}: stored originals in an S3-compatible bucket (POLYRAG_S3_BUCKET, POLYRAG_S3_ENDPOINT, …). */
public final class S3BlobStoreProvider implements BlobStoreProvider {
    @Override
    public String name() {
        return "s3";
    }

    @Override
    public String description() {
        return "an S3-compatible bucket (POLYRAG_S3_ENDPOINT, POLYRAG_S3_BUCKET)";
    }

    @Override
    public BlobStore open(ProviderContext context) {
        return open(context.config());
    }

    static BlobStore open(Config c) {
        String bucket = c.get(Settings.S3_BUCKET);
        if (bucket == null || bucket.isBlank()) {
            throw new ConfigException(Settings.S3_BUCKET.env() + " is not set: the s3 blob store needs a bucket");
        }
        String endpoint = c.get(Settings.S3_ENDPOINT);
        URI uri = null;
        if (endpoint != null && !endpoint.isBlank()) {
            try {
                uri = URI.create(endpoint.strip());
            } catch (IllegalArgumentException e) {
                uri = null; // said below, naming the setting (it was a stack trace)
            }
            if (uri == null || !"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())) {
                throw new ConfigException(Settings.S3_ENDPOINT.env() + " must be an http(s) URL, e.g. "
                        + "https://minio.example.com:9000");
            }
            if (uri.getRawUserInfo() != null) {
                // Never sent by the client, and quoted by every failure: the keys go in their own settings.
                throw new ConfigException(Settings.S3_ENDPOINT.env() + " holds a user and password: give them as "
                        + Settings.S3_ACCESS_KEY.env() + " and " + Settings.S3_SECRET_KEY.env() + ", and the URL "
                        + "without them");
            }
        }
        if (c.get(Settings.S3_REGION).isBlank()) {
            throw new ConfigException(Settings.S3_REGION.env() + " is empty: name the bucket's region (us-east-1 for "
                    + "most S3-compatible stores)");
        }
        String access = c.get(Settings.S3_ACCESS_KEY);
        String secret = c.get(Settings.S3_SECRET_KEY);
        if (access.isBlank() != secret.isBlank()) {
            throw new ConfigException(Settings.S3_ACCESS_KEY.env() + " and " + Settings.S3_SECRET_KEY.env()
                    + " go together: set both, or neither for the SDK's default credentials");
        }
        return new S3BlobStore(uri, c.get(Settings.S3_REGION), bucket.strip(), c.get(Settings.S3_PREFIX),
                pathStyle(c, uri), access.isBlank() ? null : access, secret.isBlank() ? null : secret,
                Duration.ofSeconds(c.get(Settings.S3_TIMEOUT_SECONDS)));
    }

    /**
     * Path style as set, or, left unset, whenever an endpoint is given: a self-hosted store (MinIO, Ceph, SeaweedFS)
     * wants it, and the host-name style sent such a store's every request to a host that does not exist.
     */
    static boolean pathStyle(Config c, URI endpoint) {
        return c.origin(Settings.S3_PATH_STYLE) == Config.Origin.DEFAULT ? endpoint != null
                : c.get(Settings.S3_PATH_STYLE);
    }
}
