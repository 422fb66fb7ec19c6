package io.polyrag.core.port;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
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

    /**
     * The blob read from byte {@code from} on (a download resumed, a viewer's range): its size, type and name as
     * {@link #get} gives them, its content starting there. An object store asks for that range alone; this default
     * reads past the bytes before it.
     */
    default Optional<Blob> get(String key, long from) {
        Optional<Blob> blob = get(key);
        // Not past the end: a start beyond it is the caller's to refuse (416), not a read that fails.
        if (blob.isPresent() && from > 0 && from < blob.get().size()) {
            try {
                blob.get().content().skipNBytes(from);
            } catch (IOException | RuntimeException e) {
                try {
                    blob.get().content().close();
                } catch (IOException closing) {
                    e.addSuppressed(closing);
                }
                throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
            }
        }
        return blob;
    }

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
