package io.polyrag.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.port.GraphStore;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The contract every {@link GraphStore} passes, embedded or networked; an implementation's test is a subclass. */
public abstract class GraphStoreContract extends EntityGraphContract<GraphStore> {

    @Test
    void looks_entities_up_by_key_and_alias() {
        GraphStore store = corpus();
        store.ping(); // readiness's one read answers on every backend
        assertThat(store.entityIds(List.of("curie", "paris", "unknown"))).containsExactlyInAnyOrder("marie curie",
                "paris");
        assertThat(store.entityIds(List.of())).isEmpty();
    }

    @Test
    void runs_read_only_cypher_and_describes_its_schema() {
        GraphStore store = corpus();
        List<Map<String, String>> rows = store.readCypher(
                "MATCH (a:Entity)-[r:RELATES]->(b:Entity) RETURN a.name AS subject, r.predicate AS predicate, "
                        + "b.name AS object ORDER BY subject", 10);
        assertThat(rows).containsExactly(
                Map.of("subject", "Marie Curie", "predicate", "works_at", "object", "Radium Institute"),
                Map.of("subject", "Radium Institute", "predicate", "located_in", "object", "Paris"));
        assertThat(store.readCypher("MATCH (e:Entity) RETURN e.name AS n", 1)).hasSize(1);
        assertThat(store.schema()).contains("Entity").contains("Chunk").contains("RELATES").contains("MENTIONS");
    }
}
