package io.polyrag.app;

import io.polyrag.core.StoreException;
import io.polyrag.core.config.Settings;
import io.polyrag.core.port.BlobStore;
import io.polyrag.core.spi.BlobStoreProvider;
import io.polyrag.core.spi.ProviderContext;
import io.polyrag.core.spi.Providers;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/** {@code blob.backend=flaky}: the filesystem store, failing the puts and deletes of the keys a test names. */
public final class FlakyBlobs implements BlobStoreProvider {
    static volatile Predicate<String> failPut = k -> false;
    static volatile Predicate<String> failDelete = k -> false;

    static void reset() {
        failPut = k -> false;
        failDelete = k -> false;
    }

    @Override
    public String name() {
        return "flaky";
    }

    @Override
    public String description() {
        return "test: the filesystem store, failing what a test says";
    }

    @Override
    public BlobStore open(ProviderContext context) {
        BlobStore inner = Providers.find(BlobStoreProvider.class, "filesystem", Settings.BLOB_BACKEND).open(context);
        return new BlobStore() {
            @Override
            public void put(String key, byte[] bytes, String mediaType, String name) {
                if (failPut.test(key)) {
                    throw new StoreException("the blob store refused " + key + " (403)");
                }
                inner.put(key, bytes, mediaType, name);
            }

            @Override
            public Optional<Blob> get(String key) {
                return inner.get(key);
            }

            @Override
            public boolean delete(String key) {
                if (failDelete.test(key)) {
                    throw new StoreException("the blob store timed out deleting " + key);
                }
                return inner.delete(key);
            }

            @Override
            public List<Listed> list(String prefix) {
                return inner.list(prefix);
            }

            @Override
            public void close() {
                inner.close();
            }
        };
    }
}
