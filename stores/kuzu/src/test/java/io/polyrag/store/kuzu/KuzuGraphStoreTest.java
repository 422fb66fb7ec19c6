package io.polyrag.store.kuzu;

import io.polyrag.core.port.GraphStore;
import io.polyrag.testing.GraphStoreContract;
import java.nio.file.Path;

class KuzuGraphStoreTest extends GraphStoreContract {
    @Override
    protected GraphStore openStore(Path dir) {
        return new KuzuGraphStore(dir);
    }
}
