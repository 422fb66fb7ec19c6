package io.polyrag.store.rdf;

import io.polyrag.core.port.RdfStore;
import io.polyrag.testing.RdfStoreContract;
import java.nio.file.Path;

class Tdb2RdfStoreTest extends RdfStoreContract {
    @Override
    protected RdfStore openStore(Path dir) {
        return new SparqlRdfStore(new Tdb2Transport(dir), "urn:polyrag:graph");
    }
}
