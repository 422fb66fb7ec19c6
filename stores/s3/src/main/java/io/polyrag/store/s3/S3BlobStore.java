package io.polyrag.store.s3;

import io.polyrag.core.StoreException;
import io.polyrag.core.UnavailableException;
import io.polyrag.core.port.BlobStore;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * {@code POLYRAG_BLOB_BACKEND=s3}: stored originals as objects {@code <prefix><key>} in a bucket of any
 * S3-compatible store, with the media type as the object's content type and the file name in its metadata (encoded,
 * so any Unicode name survives). A put returns once the store has acknowledged it. Keys are checked as the file
 * store checks them, so no key reaches outside the prefix.
 */
final class S3BlobStore implements BlobStore {
    private static final Pattern KEY = Pattern.compile("[A-Za-z0-9._-]{1,128}");
    private final S3Client s3;
    private final String bucket;
    private final String prefix;

    /**
     * @param endpoint the store's URL, or null for AWS itself
     * @param accessKey with {@code secretKey}, static credentials; null for the SDK's default chain
     */
    S3BlobStore(URI endpoint, String region, String bucket, String prefix, boolean pathStyle, String accessKey,
            String secretKey, Duration timeout) {
        // Checksums only where an operation requires them: since SDK 2.30 every upload is sent aws-chunked with a
        // CRC trailer, which Ceph RGW, GCS, B2 and other S3-compatible stores refuse (400 on every put).
        var b = S3Client.builder().region(Region.of(region)).forcePathStyle(pathStyle)
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .httpClientBuilder(UrlConnectionHttpClient.builder().connectionTimeout(timeout)
                        .socketTimeout(timeout))
                .credentialsProvider(accessKey == null ? DefaultCredentialsProvider.builder().build()
                        : StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secretKey)));
        if (endpoint != null) {
            b.endpointOverride(endpoint);
        }
        this.s3 = b.build();
        this.bucket = bucket;
        this.prefix = prefix;
        try {
            s3.headBucket(h -> h.bucket(bucket));
        } catch (SdkException e) {
            s3.close();
            throw new UnavailableException("cannot reach the S3 bucket '" + bucket + "' at "
                    + (endpoint == null ? "AWS " + region : endpoint) + ": " + fix(e), e);
        }
    }

    /**
     * What to change, by the store's answer to the bucket's HEAD: a bucket in another region answers 301 with the
     * region (the SDK's message was "null"), a refused key 403, a missing bucket 404.
     */
    static String fix(SdkException e) {
        if (e instanceof S3Exception s) {
            String there = s.awsErrorDetails() == null || s.awsErrorDetails().sdkHttpResponse() == null ? null
                    : s.awsErrorDetails().sdkHttpResponse().firstMatchingHeader("x-amz-bucket-region").orElse(null);
            switch (s.statusCode()) {
                case 301, 307, 400 -> {
                    if (there != null) {
                        return "the bucket is in region " + there + ": set POLYRAG_S3_REGION=" + there;
                    }
                }
                case 403 -> {
                    return "access denied (HTTP 403): check POLYRAG_S3_ACCESS_KEY and POLYRAG_S3_SECRET_KEY, and that "
                            + "they may read and write the bucket";
                }
                case 404 -> {
                    return "no such bucket (HTTP 404): check POLYRAG_S3_BUCKET (and POLYRAG_S3_PATH_STYLE=true for a "
                            + "store without virtual-host buckets)";
                }
                default -> {
                    // below
                }
            }
        }
        return e.getMessage() + " (POLYRAG_S3_ENDPOINT, POLYRAG_S3_REGION, POLYRAG_S3_BUCKET, POLYRAG_S3_PATH_STYLE)";
    }

    @Override
    public void put(String key, byte[] bytes, String mediaType, String name) {
        String k = checked(key);
        try {
            s3.putObject(p -> p.bucket(bucket).key(k).contentType(mediaType == null ? "application/octet-stream"
                    : mediaType).metadata(Map.of("polyrag-name", Base64.getUrlEncoder().encodeToString(
                            (name == null ? "" : name).getBytes(StandardCharsets.UTF_8)))),
                    RequestBody.fromBytes(bytes));
        } catch (SdkException e) {
            throw new StoreException("cannot store the original of " + key + " in S3 bucket " + bucket + ": "
                    + e.getMessage(), e);
        }
    }

    @Override
    public Optional<Blob> get(String key) {
        return get(key, 0);
    }

    /** From byte {@code from} on: a GET of that range, not the whole object read past its start. */
    @Override
    public Optional<Blob> get(String key, long from) {
        if (key == null || !KEY.matcher(key).matches() || key.equals(".") || key.equals("..")) {
            return Optional.empty();
        }
        try {
            ResponseInputStream<GetObjectResponse> in = s3.getObject(g -> g.bucket(bucket).key(prefix + key)
                    .range(from > 0 ? "bytes=" + from + "-" : null));
            GetObjectResponse r = in.response();
            String encoded = r.metadata().getOrDefault("polyrag-name", "");
            String name = new String(Base64.getUrlDecoder().decode(encoded), StandardCharsets.UTF_8);
            // A range's answer says the object's whole size after the slash: "bytes 100-999/1000". A store (or a
            // proxy) that ignored the range sent it all: read past, or the bytes served would be the wrong ones.
            String whole = r.contentRange();
            boolean ranged = from > 0 && whole != null && whole.contains("/");
            long size = ranged ? Long.parseLong(whole.substring(whole.lastIndexOf('/') + 1).strip())
                    : r.contentLength();
            if (from > 0 && !ranged) {
                try {
                    in.skipNBytes(from);
                } catch (IOException e) {
                    in.abort();
                    throw new StoreException("cannot read the original of " + key + " from S3 bucket " + bucket
                            + ": " + e.getMessage(), e);
                }
            }
            return Optional.of(new Blob(in, size, r.contentType(), name.isEmpty() ? key : name));
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        } catch (S3Exception e) {
            if (e.statusCode() == 416 && from > 0) {
                return get(key, 0); // a start past the end: the whole answers, and the caller says the range is wrong
            }
            throw new StoreException("cannot read the original of " + key + " from S3 bucket " + bucket + ": "
                    + e.getMessage(), e);
        } catch (SdkException e) {
            throw new StoreException("cannot read the original of " + key + " from S3 bucket " + bucket + ": "
                    + e.getMessage(), e);
        }
    }

    @Override
    public boolean delete(String key) {
        String k = checked(key);
        try {
            s3.headObject(h -> h.bucket(bucket).key(k));
        } catch (NoSuchKeyException e) {
            return false;
        } catch (S3Exception e) {
            if (e.statusCode() == 404) {
                return false;
            }
            throw new StoreException("cannot delete the original of " + key + ": " + e.getMessage(), e);
        } catch (SdkException e) {
            // A timeout or a refused connection: the store's failure (a 503 to retry), not an internal error.
            throw new StoreException("cannot delete the original of " + key + " from S3 bucket " + bucket + ": "
                    + e.getMessage(), e);
        }
        try {
            s3.deleteObject(d -> d.bucket(bucket).key(k));
            return true;
        } catch (SdkException e) {
            throw new StoreException("cannot delete the original of " + key + " from S3 bucket " + bucket + ": "
                    + e.getMessage(), e);
        }
    }

    @Override
    public List<Listed> list(String keyPrefix) {
        List<Listed> out = new ArrayList<>();
        try {
            for (var o : s3.listObjectsV2Paginator(l -> l.bucket(bucket).prefix(prefix + keyPrefix)).contents()) {
                out.add(new Listed(o.key().substring(prefix.length()), o.lastModified(),
                        o.size() == null ? 0 : o.size()));
            }
        } catch (SdkException e) {
            throw new StoreException("cannot list the blobs in S3 bucket " + bucket + ": " + e.getMessage(), e);
        }
        return out;
    }

    private String checked(String key) {
        if (key == null || !KEY.matcher(key).matches() || key.equals(".") || key.equals("..")) {
            throw new IllegalArgumentException("blob key must be 1-128 of A-Z, a-z, 0-9, '.', '_', '-', was '"
                    + key + "'");
        }
        return prefix + key;
    }

    @Override
    public void close() {
        s3.close();
    }
}
