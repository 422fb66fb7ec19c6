package io.polyrag.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.config.Config;
import io.polyrag.core.model.ChunkGraph;
import io.polyrag.core.model.Entity;
import io.polyrag.core.model.Relation;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.StoreHit;
import io.polyrag.core.model.StoreRecord;
import io.polyrag.core.port.GraphStore;
import io.polyrag.core.spi.GraphStoreProvider;
import io.polyrag.core.spi.ProviderContext;
import io.polyrag.core.spi.Providers;
import io.polyrag.retrieval.EntityGraphRetriever;
import io.polyrag.retrieval.Text2CypherRetriever;
import io.polyrag.testing.FixedReplyLlm;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Text-to-Cypher against the real embedded graph, with a model double that writes the query. */
class Text2CypherTest {
    @TempDir
    Path tmp;

    private GraphStore graph;

    @BeforeEach
    void open() {
        Config config = Config.load(Map.of(), Map.of("data.dir", tmp.toString()));
        graph = Providers.find(GraphStoreProvider.class, "kuzu", io.polyrag.core.config.Settings.GRAPH_BACKEND)
                .open(new ProviderContext(config, tmp));
        graph.upsert(List.of(
                new StoreRecord("c1", "d1", 1, "kb", "t", null, new ChunkGraph(List.of(),
                        List.of(new Relation("Marie Curie", "", "work_at", "Radium Institute", "", "c1", "d1", 1,
                                Map.of())))),
                new StoreRecord("c2", "d2", 1, "kb", "t", null, new ChunkGraph(List.of(),
                        List.of(new Relation("Radium Institute", "", "locate_in", "Paris", "", "c2", "d2", 1,
                                Map.of())))),
                new StoreRecord("c3", "d3", 1, "kb", "t", null, new ChunkGraph(
                        List.of(Entity.of("Lyon", "")), List.of()))));
    }

    @AfterEach
    void close() {
        graph.close();
    }

    private List<StoreHit> search(String modelReply) {
        FixedReplyLlm llm = new FixedReplyLlm(modelReply);
        List<StoreHit> hits = new Text2CypherRetriever(EntityGraphRetriever.graph(graph, 1), graph, llm)
                .retrieve("Which city is Marie Curie's institute in?", SearchScope.ALL, 10);
        assertThat(llm.requests().getFirst().messages().getFirst().content()).contains("(:Entity");
        return hits;
    }

    @Test
    void the_models_query_runs_and_its_chunks_rank_first() {
        List<StoreHit> hits = search("""
                ```cypher
                MATCH (c:Chunk)-[:MENTIONS]->(e:Entity {id: 'lyon'})
                RETURN DISTINCT c.id AS chunk, c.doc AS doc, c.version AS version LIMIT 20;
                ```""");
        // The model's chunk first (score 1), then the traversal's: the institute's own relation (where it is: what
        // the question asks) before her chunk, which the text legs find by her name.
        assertThat(hits).extracting(StoreHit::chunkId).containsExactly("c3", "c2", "c1");
        assertThat(hits.getFirst().score()).isEqualTo(1.0);
        assertThat(hits).allSatisfy(h -> assertThat(h.score()).isBetween(0.0, 1.0));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "MATCH (e:Entity) DETACH DELETE e",
        "CREATE (:Entity {id: 'x', name: 'x', type: '', aliases: ''}) RETURN 'x' AS chunk",
        "MATCH (e:Entity) SET e.name = 'pwned' RETURN e.id AS chunk, 'd' AS doc, 1 AS version",
        "this is not cypher",
        "MATCH (e:Entity RETURN e",
        "MATCH (e:Entity) RETURN e.id AS id",
    })
    void a_refused_or_broken_query_adds_nothing_and_changes_nothing(String reply) {
        List<StoreHit> hits = search(reply);
        assertThat(hits).extracting(StoreHit::chunkId).containsExactly("c2", "c1");
        assertThat(graph.counts()).containsEntry("entities", 4L).containsEntry("relations", 2L);
        assertThat(graph.entities(List.of("marie curie")).getFirst().entity().name()).isEqualTo("Marie Curie");
    }

    /** The model's rows outside the search's scope are dropped before they take places; in scope they rank first. */
    @Test
    void the_models_rows_outside_the_scope_are_dropped() {
        String reply = "MATCH (c:Chunk)-[:MENTIONS]->(e:Entity {id: 'lyon'}) RETURN DISTINCT c.id AS chunk, "
                + "c.doc AS doc, c.version AS version, c.kb AS kb LIMIT 20";
        Text2CypherRetriever t = new Text2CypherRetriever(EntityGraphRetriever.graph(graph, 1), graph,
                new FixedReplyLlm(reply));
        assertThat(t.retrieve("Which city is Marie Curie's institute in?", new SearchScope(java.util.Set.of("kb")),
                10)).extracting(StoreHit::chunkId).startsWith("c3");
        assertThat(t.retrieve("Which city is Marie Curie's institute in?", new SearchScope(java.util.Set.of(
                "elsewhere")), 10)).extracting(StoreHit::chunkId).doesNotContain("c3");
        assertThat(t.retrieve("Which city is Marie Curie's institute in?", new SearchScope(java.util.Set.of("kb"))
                .narrowed(java.util.Set.of("d1"), null), 10)).extracting(StoreHit::chunkId).doesNotContain("c3");
        assertThat(t.patient()).isTrue();
        // Nothing but the chunk id is taken from the model's rows: a knowledge base left out or written as a literal
        // does not let another scope's chunk in.
        for (String forged : List.of("MATCH (c:Chunk)-[:MENTIONS]->(e:Entity {id: 'lyon'}) RETURN c.id AS chunk, "
                + "c.doc AS doc, c.version AS version", "MATCH (c:Chunk)-[:MENTIONS]->(e:Entity {id: 'lyon'}) RETURN "
                + "c.id AS chunk, c.doc AS doc, c.version AS version, 'elsewhere' AS kb")) {
            Text2CypherRetriever f = new Text2CypherRetriever(EntityGraphRetriever.graph(graph, 1), graph,
                    new FixedReplyLlm(forged));
            assertThat(f.retrieve("Which city is Marie Curie's institute in?", new SearchScope(java.util.Set.of(
                    "elsewhere")), 10)).as(forged).extracting(StoreHit::chunkId).doesNotContain("c3");
            assertThat(f.retrieve("Which city is Marie Curie's institute in?", new SearchScope(java.util.Set.of(
                    "kb")), 10)).as(forged).first().isEqualTo(new StoreHit("c3", "d3", 1, 1.0));
        }
    }
}
