package io.polyrag.store.rdf;

import io.polyrag.core.port.RdfStore;
import io.polyrag.testing.RdfStoreContract;
import java.nio.file.Path;
import org.apache.jena.sparql.core.DatasetGraphFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The same contract against a real SPARQL endpoint over HTTP; each test writes its own named graph. */
class FusekiRdfStoreTest extends RdfStoreContract {
    private static Fuseki fuseki;

    @BeforeAll
    static void start() {
        fuseki = new Fuseki(DatasetGraphFactory.createTxnMem());
    }

    @AfterAll
    static void stop() {
        fuseki.close();
    }

    @Override
    protected RdfStore openStore(Path dir) {
        return new SparqlRdfStore(new HttpSparqlTransport(fuseki.queryUrl(), fuseki.updateUrl(), null, null, 10),
                "urn:test:" + Integer.toHexString(dir.toString().hashCode()));
    }
}
