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

    /**
     * An endpoint that takes the connection and never answers: the write fails at the timeout, not never, and not as
     * "unreachable" (the same update would time out every time, and a job waiting for the endpoint resent it for
     * good).
     */
    @org.junit.jupiter.api.Test
    void an_update_the_endpoint_never_answers_fails_at_the_timeout() throws Exception {
        try (java.net.ServerSocket silent = new java.net.ServerSocket(0, 50,
                java.net.InetAddress.getLoopbackAddress())) {
            String url = "http://127.0.0.1:" + silent.getLocalPort() + "/ds";
            HttpSparqlTransport t = new HttpSparqlTransport(url + "/query", url + "/update", null, null, 1);
            long start = System.nanoTime();
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> t.update("INSERT DATA { <urn:a> <urn:b> "
                    + "<urn:c> }")).isInstanceOf(io.polyrag.core.StoreException.class)
                    .hasMessageContaining("did not answer").hasMessageContaining("POLYRAG_RDF_SPARQL_TIMEOUT_SECONDS")
                    .satisfies(e -> org.assertj.core.api.Assertions.assertThat(io.polyrag.core.StorageProblems
                            .unreachable(e)).isFalse());
            org.assertj.core.api.Assertions.assertThat(System.nanoTime() - start).isLessThan(10_000_000_000L);
        }
    }

    /**
     * An update address that redirects (http:// to https:// at a proxy): the JDK would resend the POST as a GET
     * without its body, and the write was taken as done. Refused, naming the setting to fix.
     */
    @org.junit.jupiter.api.Test
    void an_update_address_that_redirects_is_a_configuration_error_not_a_lost_write() throws Exception {
        com.sun.net.httpserver.HttpServer proxy = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
        java.util.concurrent.atomic.AtomicInteger posts = new java.util.concurrent.atomic.AtomicInteger();
        proxy.createContext("/", x -> {
            if (x.getRequestMethod().equals("POST")) {
                posts.incrementAndGet();
                x.getResponseHeaders().add("Location", fuseki.updateUrl());
                x.sendResponseHeaders(301, -1);
            } else {
                x.sendResponseHeaders(200, -1); // a bare GET answered: what made the lost write look done
            }
            x.close();
        });
        proxy.start();
        try {
            String url = "http://127.0.0.1:" + proxy.getAddress().getPort() + "/ds";
            HttpSparqlTransport t = new HttpSparqlTransport(url + "/query", url + "/update", null, null, 5);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> t.update("INSERT DATA { <urn:a> <urn:b> "
                    + "<urn:c> }")).isInstanceOf(io.polyrag.core.ConfigException.class)
                    .hasMessageContaining("redirect (HTTP 301)").hasMessageContaining("POLYRAG_RDF_SPARQL_UPDATE_URL");
            org.assertj.core.api.Assertions.assertThat(posts.get()).isEqualTo(1);
        } finally {
            proxy.stop(0);
        }
    }
}
