package io.polyrag.store.blobs;

import io.polyrag.core.port.BlobStore;
import io.polyrag.testing.BlobStoreContract;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class FileBlobStoreTest extends BlobStoreContract {
    @TempDir
    Path dir;

    @Override
    protected BlobStore openStore() {
        return new FileBlobStore(dir.resolve("blobs"));
    }
}
