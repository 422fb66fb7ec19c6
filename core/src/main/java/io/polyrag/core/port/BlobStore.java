package io.polyrag.core.port;

import java.io.InputStream;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Stored originals: the bytes a document was ingested from, under a key ({@code <document id>}), so a client can
 * fetch what it uploaded; and uploads waiting for their job ({@code job-…}, {@code upload-…}), so any replica
 * sharing the store can run it. A put replaces; a get of an unknown key is empty; a delete of one is nothing.
 */
public interface BlobStore extends AutoCloseable {
    /** Stores {@code bytes} under {@code key} (replacing what was there), durably when it returns. */
    void put(String key, byte[] bytes, String mediaType, String name);

    /** The blob, if there is one. */
    Optional<Blob> get(String key);

    /** Removes the blob; false when there was none. */
    boolean delete(String key);

    /**
     * The blobs whose key starts with {@code prefix}, with when each was last put and its size, in no particular
     * order (for sweeping staged files nobody owns any more, and counting a tenant's waiting uploads).
     */
    List<Listed> list(String prefix);

    /** A blob's key, when it was last put, and its size in bytes (0 for a put never finished). */
    record Listed(String key, Instant modified, long size) {
    }

    @Override
    void close();

    /**
     * A stored original.
     *
     * @param content its bytes, to be closed by the reader
     * @param size bytes
     * @param mediaType the type detected when it was ingested
     * @param name the file name it was uploaded as
     */
    record Blob(InputStream content, long size, String mediaType, String name) {
    }
}
