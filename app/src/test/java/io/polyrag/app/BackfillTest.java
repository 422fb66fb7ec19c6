package io.polyrag.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.polyrag.app.api.PathIngest;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.model.DegradedLeg;
import io.polyrag.core.model.JobInfo;
import io.polyrag.core.model.JobStatus;
import io.polyrag.core.model.Modality;
import io.polyrag.core.model.SearchRequest;
import io.polyrag.core.model.SearchResponse;
import io.polyrag.core.port.ProgressListener;
import io.polyrag.testing.TinyOnnxModels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store that holds part of the collection is not searched until it is whole: after switching vectors on once
 * documents were indexed without them, and after changing the embedding model (its index starts empty beside the
 * old one). Searches answer from the other legs and name the incomplete one with the command that back-fills it;
 * the {@code reindex} job back-fills it in the background and the leg is searched again.
 */
class BackfillTest {
    private static final String QUERY = "how long does the levain ferment";

    @TempDir
    Path tmp;

    private Polyrag open(Map<String, String> more) {
        return Polyrag.open(PolyragTest.config(tmp.resolve("data"), more));
    }

    @Test
    void vectors_switched_on_after_ingest_are_back_filled_by_a_job_then_searched() throws Exception {
        try (Polyrag p = open(Map.of("vector.enabled", "false"))) {
            p.ingest().paths(new PathIngest(List.of(PolyragTest.corpus(tmp.resolve("corpus"))), null, List.of(),
                    List.of()), ProgressListener.NONE);
        }
        try (Polyrag p = open(Map.of())) {
            assertThat(p.admin().incomplete()).containsOnlyKeys("vector");
            SearchResponse partial = p.search().run(SearchRequest.of(QUERY, 3));
            assertThat(partial.hits()).as("full text answers meanwhile").isNotEmpty();
            assertThat(partial.hits().getFirst().sources()).doesNotContainKey("vector");
            assertThat(partial.degraded()).singleElement().satisfies(d -> {
                assertThat(d.modality()).isEqualTo(Modality.VECTOR);
                assertThat(d.reason()).contains("lacks records").contains("polyrag reindex --modality vector")
                        .as("the same words for every tenant: no count, no document")
                        .doesNotContainPattern("\\d+ (of|records|documents)").doesNotContainPattern("[0-9a-f]{20}");
            });
            assertThat(p.admin().readiness()).as("full text serves: ready, the leg named by /health").isEmpty();
            assertThat(p.admin().status().problems()).anySatisfy(r -> assertThat(r).contains("vector"));

            JobInfo done = awaitJob(p, p.admin().reindex("vector"));
            assertThat(done.status()).as(String.valueOf(done.error())).isEqualTo(JobStatus.SUCCEEDED);
            assertThat(done.progress().updated()).as("document versions re-indexed").isEqualTo(3);
            assertThat(p.admin().incomplete()).isEmpty();
            SearchResponse whole = p.search().run(SearchRequest.of(QUERY, 3));
            assertThat(whole.degraded()).isEmpty();
            assertThat(whole.hits().getFirst().sources()).containsKeys("vector", "fulltext");
            assertThat(p.admin().readiness()).isEmpty();
        }
    }

    @Test
    void a_new_embedding_model_gets_an_index_of_its_own_the_old_model_serving_until_it_is_back_filled() throws Exception {
        modelChange(Map.of());
        assertThat(tmp.resolve("data/vector/polyrag-vectors.properties")).as("the first model's index, untouched")
                .content().contains("bge-small");
        try (var dirs = Files.list(tmp.resolve("data/vectors"))) {
            assertThat(dirs.toList()).singleElement().satisfies(d -> assertThat(d.getFileName().toString())
                    .endsWith("-2"));
        }
    }

    @Test
    void the_same_on_pgvector() throws Exception {
        modelChange(Map.of("vector.backend", "pgvector", "postgres.url", io.polyrag.testing.TestPostgres.freshSchema(
                "backfill_models")));
    }

    /**
     * An earlier model that cannot stand in (its directory is gone) is tried once, not at every judgement: the
     * judgement runs every minute while the leg is incomplete, and each try loaded a model only to close it.
     */
    @Test
    void an_earlier_model_that_cannot_stand_in_is_not_loaded_again_at_every_judgement() throws Exception {
        Path tiny = TinyOnnxModels.install(tmp.resolve("tiny"), TinyOnnxModels.Model.TOKENS);
        try (Polyrag p = open(Map.of("embedding.model.dir", tiny.toString(), "embedding.pooling", "mean"))) {
            p.ingest().paths(new PathIngest(List.of(PolyragTest.corpus(tmp.resolve("corpus"))), null, List.of(),
                    List.of()), ProgressListener.NONE);
        }
        Files.delete(tiny.resolve("model.onnx"));
        java.util.logging.Logger logger = java.util.logging.Logger.getLogger(Backfill.class.getName());
        List<String> tried = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.logging.Handler handler = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord r) {
                if (String.valueOf(r.getMessage()).contains("cannot serve its index")) {
                    tried.add(r.getMessage());
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        logger.addHandler(handler);
        try (Polyrag p = open(Map.of())) {
            assertThat(p.admin().incomplete()).containsOnlyKeys("vector");
            p.admin().check(false);
            p.admin().check(false);
            assertThat(tried).hasSize(1);
        } finally {
            logger.removeHandler(handler);
        }
    }

    /** Ingest with the bundled model, switch to another, search meanwhile, back-fill, switch back. */
    private void modelChange(Map<String, String> backend) throws Exception {
        try (Polyrag p = open(backend)) {
            p.ingest().paths(new PathIngest(List.of(PolyragTest.corpus(tmp.resolve("corpus"))), null, List.of(),
                    List.of()), ProgressListener.NONE);
        }
        Path tiny = TinyOnnxModels.install(tmp.resolve("tiny"), TinyOnnxModels.Model.TOKENS);
        Map<String, String> other = new HashMap<>(backend);
        other.putAll(Map.of("embedding.model.dir", tiny.toString(), "embedding.pooling", "mean"));
        try (Polyrag p = open(other)) {
            assertThat(p.admin().incomplete()).as("the new model's index is empty").containsOnlyKeys("vector");
            SearchResponse meanwhile = p.search().run(SearchRequest.of(QUERY, 3));
            assertThat(meanwhile.degraded()).as("the previous model serves its own index meanwhile").isEmpty();
            assertThat(meanwhile.hits().getFirst().sources()).containsKey("vector");
            assertThat(meanwhile.hits().getFirst().uri()).endsWith("bread.html");
            assertThat(meanwhile.warnings()).anySatisfy(w -> assertThat(w).contains("previous embedding model's "
                    + "index (bge-small").contains("polyrag reindex --modality vector"));
            // An evaluation now would score the previous model's leg (or none) as this knowledge base's search.
            String doc = p.documents().list(null, 0, 1).getFirst().id();
            p.knowledgeBases().addJudgments("default", List.of(new io.polyrag.app.api.JudgedQuery("q1", QUERY,
                    Map.of(doc, 1))));
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> p.knowledgeBases().evaluate("default"))
                    .isInstanceOf(io.polyrag.core.ConflictException.class).hasMessageContaining("vector leg is "
                            + "incomplete").matches(e -> ((io.polyrag.core.ConflictException) e).passes(),
                            "ends by itself: the command line exits 3, try again later");
            assertThat(awaitJob(p, p.admin().reindex(null)).status()).isEqualTo(JobStatus.SUCCEEDED);
            assertThat(p.admin().incomplete()).isEmpty();
            assertThat(p.knowledgeBases().evaluate("default").runs()).isNotEmpty();
            SearchResponse after = p.search().run(SearchRequest.of(QUERY, 3));
            assertThat(after.hits().getFirst().sources()).containsKey("vector");
            assertThat(after.warnings()).as("switched to the new model's index").noneSatisfy(w -> assertThat(w)
                    .contains("previous embedding model"));
        }
        try (Polyrag p = open(backend)) {
            assertThat(p.admin().incomplete()).as("back to the first model: its index is whole").isEmpty();
            assertThat(p.search().run(SearchRequest.of(QUERY, 3)).hits().getFirst().sources()).containsKey("vector");
        }
    }

    @Test
    void the_graph_and_rdf_switched_on_after_ingest_get_their_entities_extracted_by_the_job() throws Exception {
        Path corpus = PolyragTest.corpus(tmp.resolve("corpus"));
        try (Polyrag p = open(Map.of("graph.enabled", "false", "rdf.enabled", "false"))) {
            p.ingest().paths(new PathIngest(List.of(corpus), null, List.of(), List.of()), ProgressListener.NONE);
        }
        Map<String, String> graph = Map.of("graph.enabled", "true", "rdf.enabled", "true", "graph.extractor",
                "offline");
        try (Polyrag p = open(graph)) {
            assertThat(p.admin().incomplete()).containsOnlyKeys("graph", "rdf");
            SearchResponse before = p.search().run(new SearchRequest("Pharos of Alexandria", 3, List.of(),
                    java.util.Set.of(Modality.GRAPH), null));
            assertThat(before.degraded()).extracting(DegradedLeg::modality).containsExactly(Modality.GRAPH);
            JobInfo done = awaitJob(p, p.admin().reindex("graph"));
            assertThat(done.status()).as(String.valueOf(done.error())).isEqualTo(JobStatus.SUCCEEDED);
            assertThat(done.progress().updated()).as("every document version extracted once").isEqualTo(3);
            assertThat(p.admin().incomplete()).isEmpty();
            assertThat(p.graph().counts().get("graph")).as(p.graph().counts().toString()).satisfies(c -> assertThat(
                    c.values().stream().mapToLong(Long::longValue).sum()).isPositive());
            SearchResponse after = p.search().run(new SearchRequest("Pharos of Alexandria", 3, List.of(),
                    java.util.Set.of(Modality.GRAPH), null));
            assertThat(after.degraded()).isEmpty();
            assertThat(after.hits()).isNotEmpty();
            assertThat(p.admin().check(false).consistent()).as(p.admin().check(false).toString()).isTrue();
        }
    }

    /** RDF switched on after the graph: its store lacks what the graph's holds, and the job fills it. */
    @Test
    void a_graph_store_switched_on_after_the_other_is_incomplete_until_the_job_fills_it() throws Exception {
        Path corpus = PolyragTest.corpus(tmp.resolve("corpus"));
        try (Polyrag p = open(Map.of("graph.enabled", "true", "rdf.enabled", "false", "graph.extractor", "offline"))) {
            p.ingest().paths(new PathIngest(List.of(corpus), null, List.of(), List.of()), ProgressListener.NONE);
            assertThat(p.admin().incomplete()).isEmpty();
        }
        try (Polyrag p = open(Map.of("graph.enabled", "true", "rdf.enabled", "true", "graph.extractor", "offline"))) {
            assertThat(p.admin().incomplete()).containsOnlyKeys("rdf");
            JobInfo done = awaitJob(p, p.admin().reindex("rdf"));
            assertThat(done.status()).as(String.valueOf(done.error())).isEqualTo(JobStatus.SUCCEEDED);
            assertThat(done.progress().updated()).isPositive();
            assertThat(p.admin().incomplete()).isEmpty();
            assertThat(p.admin().check(false).consistent()).as(p.admin().check(false).toString()).isTrue();
        }
    }

    @Test
    void reindex_all_extracts_the_graph_of_every_document_again() throws Exception {
        Path corpus = PolyragTest.corpus(tmp.resolve("corpus"));
        try (Polyrag p = open(Map.of("graph.enabled", "true", "rdf.enabled", "true", "graph.extractor", "offline"))) {
            p.ingest().paths(new PathIngest(List.of(corpus), null, List.of(), List.of()), ProgressListener.NONE);
            Map<String, Map<String, Long>> before = p.graph().counts();
            JobInfo lacking = awaitJob(p, p.admin().reindex("graph"));
            assertThat(lacking.progress().updated()).as("nothing was never extracted").isZero();
            JobInfo again = awaitJob(p, p.admin().reindex("graph", true));
            assertThat(again.status()).as(String.valueOf(again.error())).isEqualTo(JobStatus.SUCCEEDED);
            assertThat(again.progress().updated()).as("every document version extracted again").isEqualTo(3);
            assertThat(p.graph().counts()).as("the same extractor writes the same graph").isEqualTo(before);
            assertThat(p.admin().check(false).consistent()).as(p.admin().check(false).toString()).isTrue();
            assertThatThrownBy(() -> p.admin().reindex(null, true)).isInstanceOf(InvalidInputException.class)
                    .hasMessageStartingWith("all: ");
        }
    }

    @Test
    void only_an_enabled_store_can_be_back_filled() {
        try (Polyrag p = open(Map.of("fulltext.enabled", "false", "graph.enabled", "false", "rdf.enabled",
                "false"))) {
            for (String bad : new String[] {"graph", "fulltext", "nope", "../vector"}) {
                assertThatThrownBy(() -> p.admin().reindex(bad)).as(bad).isInstanceOf(InvalidInputException.class)
                        .hasMessageStartingWith("modality: ").hasMessageContaining("[vector]");
            }
            assertThat(awaitJob(p, p.admin().reindex(" Vector ")).status()).as("nothing lacking: nothing to do")
                    .isEqualTo(JobStatus.SUCCEEDED);
        }
    }

    private static JobInfo awaitJob(Polyrag p, String id) {
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> p.admin().job(id).status()
                .finished());
        return p.admin().job(id);
    }
}
