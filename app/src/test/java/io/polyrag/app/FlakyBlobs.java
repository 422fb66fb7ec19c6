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
    /** Keys whose delete is done and then stops the caller as a kill would: nothing after it runs. */
    static volatile Predicate<String> killAfterDelete = k -> false;

    /** Stands for the process being killed: no {@code catch (RuntimeException)} on the way runs. */
    static final class Killed extends Error {
        private static final long serialVersionUID = 1L;

        Killed(String key) {
            super("killed right after deleting " + key);
        }
    }

    static void reset() {
        failPut = k -> false;
        failDelete = k -> false;
        killAfterDelete = k -> false;
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
                boolean deleted = inner.delete(key);
                if (killAfterDelete.test(key)) {
                    throw new Killed(key);
                }
                return deleted;
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
