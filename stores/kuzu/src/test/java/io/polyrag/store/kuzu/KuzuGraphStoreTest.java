package io.polyrag.store.kuzu;

import static org.assertj.core.api.Assertions.assertThat;

import com.kuzudb.Connection;
import com.kuzudb.Database;
import com.kuzudb.QueryResult;
import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.Entity;
import io.polyrag.core.port.GraphStore;
import io.polyrag.testing.GraphStoreContract;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KuzuGraphStoreTest extends GraphStoreContract {
    @Override
    protected GraphStore openStore(Path dir) {
        return new KuzuGraphStore(dir);
    }

    private static String aliasNodes(GraphStore store) {
        return store.readCypher("MATCH (a:Alias) RETURN count(*) AS n", 1).getFirst().get("n");
    }

    @Test
    void an_alias_is_looked_up_by_its_own_node_and_goes_with_the_last_entity_holding_it() {
        GraphStore store = corpus();
        store.upsert(List.of(record("c9", "d9", 1, "kb", List.of(new Entity("pierre curie", "Pierre Curie", "Person",
                List.of("curie"))), List.of())));
        assertThat(store.entityIds(List.of("curie"))).containsExactly("marie curie", "pierre curie");
        assertThat(aliasNodes(store)).isEqualTo("1");
        store.deleteDocuments(List.of("d1"));
        assertThat(store.entityIds(List.of("curie"))).containsExactly("pierre curie");
        assertThat(aliasNodes(store)).as("still Pierre's").isEqualTo("1");
        store.delete(List.of(new DocumentVersion("d9", 1)));
        assertThat(store.entityIds(List.of("curie"))).isEmpty();
        assertThat(aliasNodes(store)).isEqualTo("0");
    }

    /** A model's query that slipped a writing clause past the text check cannot write: the second wall. */
    @Test
    void a_model_query_runs_read_only() {
        GraphStore store = corpus();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> store.readCypher(
                "MATCH (c:Chunk) WHERE c.version > 0 SET c.kb = 'eve/default' RETURN c.id AS chunk", 10))
                .isInstanceOf(RuntimeException.class);
        assertThat(store.readCypher("MATCH (c:Chunk) WHERE c.kb = 'eve/default' RETURN count(*) AS n", 1).getFirst()
                .get("n")).isEqualTo("0");
        assertThat(store.readCypher("MATCH (e:Entity) RETURN count(*) AS n", 1)).as("reads still run").hasSize(1);
    }

    /** Kuzu took 80% of the machine's memory whatever a container allowed: two fifths of what this JVM sees. */
    @Test
    void the_buffer_pool_is_sized_from_the_memory_there_is() {
        assertThat(KuzuGraphStore.bufferPool(4L << 30)).isEqualTo((4L << 30) / 5 * 2);
        assertThat(KuzuGraphStore.bufferPool(0)).as("unknown: Kuzu's default").isZero();
    }

    /** Two entities sharing an alias deleted in one go: each saw the other still holding it, and it stayed. */
    @Test
    void an_alias_shared_by_two_entities_deleted_together_goes_with_them() {
        GraphStore store = corpus();
        store.upsert(List.of(record("c9", "d9", 1, "kb", List.of(new Entity("pierre curie", "Pierre Curie", "Person",
                List.of("curie"))), List.of())));
        assertThat(aliasNodes(store)).isEqualTo("1");
        store.deleteDocuments(List.of("d1", "d9"));
        assertThat(store.entityIds(List.of("curie"))).isEmpty();
        assertThat(aliasNodes(store)).isEqualTo("0");
    }

    @Test
    void a_graph_written_before_the_alias_table_gets_it_on_opening() throws Exception {
        corpus().close();
        // The alias table as an earlier release's graph lacks it: dropped, with the entities' alias strings left.
        try (Database db = new Database(dir.resolve("graph.kuzu").toString()); Connection c = new Connection(db)) {
            for (String ddl : List.of("DROP TABLE ALIAS_OF", "DROP TABLE Alias")) {
                try (QueryResult r = c.query(ddl)) {
                    assertThat(r.isSuccess()).as(r.getErrorMessage()).isTrue();
                }
            }
        }
        GraphStore reopened = open();
        assertThat(reopened.entityIds(List.of("curie"))).containsExactly("marie curie");
        assertThat(reopened.readCypher("MATCH (a:Alias)-[:ALIAS_OF]->(e:Entity) RETURN a.id AS alias, e.id AS entity",
                10)).containsExactly(Map.of("alias", "curie", "entity", "marie curie"));
    }
}
