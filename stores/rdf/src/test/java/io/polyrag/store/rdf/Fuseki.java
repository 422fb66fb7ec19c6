package io.polyrag.store.rdf;

import org.apache.jena.fuseki.main.FusekiServer;
import org.apache.jena.sparql.core.DatasetGraph;

/** A real Jena Fuseki SPARQL server on 127.0.0.1, started in the test JVM. */
final class Fuseki implements AutoCloseable {
    private final FusekiServer server;

    Fuseki(DatasetGraph dataset) {
        server = FusekiServer.create().loopback(true).port(0).add("/ds", dataset).build().start();
    }

    String queryUrl() {
        return "http://127.0.0.1:" + server.getHttpPort() + "/ds/query";
    }

    String updateUrl() {
        return "http://127.0.0.1:" + server.getHttpPort() + "/ds/update";
    }

    @Override
    public void close() {
        server.stop();
    }
}
