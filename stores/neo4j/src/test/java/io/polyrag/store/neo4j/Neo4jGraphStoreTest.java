package io.polyrag.store.neo4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.polyrag.core.UnavailableException;
import io.polyrag.core.port.GraphStore;
import io.polyrag.testing.GraphStoreContract;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.neo4j.configuration.GraphDatabaseInternalSettings;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.GraphDatabase;
import org.neo4j.harness.Neo4j;
import org.neo4j.harness.Neo4jBuilders;

/** The graph contract against a real Neo4j, started in the test JVM on a loopback Bolt port. */
class Neo4jGraphStoreTest extends GraphStoreContract {
    private static Neo4j neo4j;
    private static Path current;

    @BeforeAll
    static void start() {
        neo4j = Neo4jBuilders.newInProcessBuilder().withDisabledServer()
                .withConfig(GraphDatabaseInternalSettings.netty_server_shutdown_quiet_period, Duration.ZERO)
                .withConfig(GraphDatabaseInternalSettings.netty_server_shutdown_timeout, Duration.ofSeconds(1))
                .build();
    }

    @AfterAll
    static void stop() {
        neo4j.close();
    }

    /** Each test starts from an empty database; reopening within a test keeps the data. */
    @Override
    protected GraphStore openStore(Path dir) {
        if (!dir.equals(current)) {
            current = dir;
            try (var driver = GraphDatabase.driver(neo4j.boltURI(), AuthTokens.none());
                    var session = driver.session()) {
                session.run("MATCH (n) DETACH DELETE n").consume();
            }
        }
        return new Neo4jGraphStore(neo4j.boltURI().toString(), "neo4j", null, "neo4j", 10);
    }

    @Test
    void user_cypher_runs_in_a_read_transaction_the_server_will_not_write_in() {
        GraphStore store = corpus();
        assertThatThrownBy(() -> store.readCypher("CREATE (:Entity {id: 'sneaky'}) RETURN 1 AS x", 10))
                .hasMessageContaining("Neo4j");
        assertThat(store.readCypher("MATCH (e:Entity {id: 'sneaky'}) RETURN e.id AS id", 10)).isEmpty();
        assertThat(store.counts()).containsEntry("entities", 3L);
    }

    /**
     * Behind a relay that drops every connection, then passes traffic again: meanwhile reads and writes fail as
     * unavailable within the timeout (a job waits for the store, a search lists the leg as degraded), and after it
     * the same store answers with its data, without being reopened.
     */
    @Test
    void dropped_connections_fail_within_the_timeout_and_the_store_recovers_without_a_reopen() throws Exception {
        openStore(dir).close();
        try (io.polyrag.testing.TcpProxy proxy = new io.polyrag.testing.TcpProxy("127.0.0.1", neo4j.boltURI()
                .getPort())) {
            try (GraphStore store = new Neo4jGraphStore("bolt://127.0.0.1:" + proxy.port(), "neo4j", null, "neo4j",
                    2)) {
                store.upsert(java.util.List.of(record("c1", "d1", 1, "kb", java.util.List.of(CURIE, INSTITUTE),
                        java.util.List.of(rel("Marie Curie", "works_at", "Radium Institute", "c1", "d1", 1)))));
                proxy.cut();
                long t0 = System.nanoTime();
                assertThatThrownBy(() -> store.entities(java.util.List.of("marie curie")))
                        .isInstanceOf(UnavailableException.class)
                        .hasMessageContaining("bolt://127.0.0.1:" + proxy.port());
                assertThatThrownBy(() -> store.upsert(java.util.List.of(record("c2", "d2", 1, "kb",
                        java.util.List.of(INSTITUTE), java.util.List.of())))).isInstanceOf(UnavailableException.class);
                // Each call retries for 2 s (back-off with jitter): two calls within 12 s, where the defaults took 60.
                assertThat((System.nanoTime() - t0) / 1e9).as("seconds to fail both calls").isLessThan(12);
                proxy.restore();
                assertThat(store.entities(java.util.List.of("marie curie"))).extracting(h -> h.entity().name())
                        .containsExactly("Marie Curie");
                assertThat(store.edges(java.util.List.of("radium institute"), io.polyrag.core.model.SearchScope.ALL,
                        10)).hasSize(1);
            }
        }
    }

    @Test
    void an_unreachable_server_is_a_clear_error() {
        assertThatThrownBy(() -> new Neo4jGraphStore("bolt://127.0.0.1:1", "neo4j", "x", "neo4j", 2))
                .isInstanceOf(UnavailableException.class).hasMessageContaining("bolt://127.0.0.1:1");
    }

    /** A URI holding a password is refused without quoting it: the store's messages reach every tenant. */
    @Test
    void a_uri_with_a_password_is_refused_unquoted() {
        var context = new io.polyrag.core.spi.ProviderContext(io.polyrag.core.config.Config.load(java.util.Map.of(),
                java.util.Map.of("graph.neo4j.uri", "bolt://neo4j:s3cret@graph:7687")), java.nio.file.Path.of("."));
        assertThatThrownBy(() -> new Neo4jGraphStoreProvider().open(context))
                .isInstanceOf(io.polyrag.core.ConfigException.class).hasMessageContaining("POLYRAG_GRAPH_NEO4J_USER")
                .hasMessageNotContaining("s3cret");
    }
}
