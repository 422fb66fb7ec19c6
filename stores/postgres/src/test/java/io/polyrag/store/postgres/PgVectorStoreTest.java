package io.polyrag.store.postgres;

import io.polyrag.core.config.Config;
import io.polyrag.core.port.VectorStore;
import io.polyrag.core.spi.ProviderContext;
import io.polyrag.testing.TestPostgres;
import io.polyrag.testing.VectorStoreContract;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.StoreRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import java.util.HashMap;
import java.util.Map;

/** The vector store contract on a real PostgreSQL with pgvector, in an empty schema per test, reopened by name. */
class PgVectorStoreTest extends VectorStoreContract {
    private final Map<Path, String> schemas = new HashMap<>();

    @Test
    void a_small_knowledge_base_inside_a_large_index_still_gets_its_top_k() {
        VectorStore store = open();
        List<StoreRecord> records = randomRecords(7, 3000, i -> i % 20 == 0 ? "small" : "big");
        store.upsert(records);
        float[] query = records.get(1).vector();
        org.assertj.core.api.Assertions.assertThat(store.search(query, new SearchScope(Set.of("small")), 30))
                .as("thirty of the small knowledge base (one record in twenty), whichever plan PostgreSQL picks (the kb index, or HNSW with the iterative scan)")
                .hasSize(30).allSatisfy(h -> org.assertj.core.api.Assertions.assertThat(Integer.parseInt(
                        h.chunkId().substring(1)) % 20).isZero());
    }

    /**
     * The iterative scan gives up at hnsw.max_scan_tuples (20,000 by default; 100 here, so a test-sized table shows
     * it): a knowledge base that is a sliver of the table still gets its top k, scanned exactly.
     */
    @Test
    void a_sliver_of_a_large_index_past_the_iterative_scans_limit_still_gets_its_top_k() {
        // A generic plan, as a statement prepared and reused gets: it cannot see how rare the knowledge base is.
        String url = TestPostgres.freshSchema("vec_sliver") + "&prepareThreshold=1&options=-c%20hnsw.max_scan_tuples"
                + "%3D100%20-c%20plan_cache_mode%3Dforce_generic_plan";
        try (VectorStore store = new PostgresProviders.Vector().open(new ProviderContext(Config.load(Map.of(),
                Map.of("postgres.url", url, "vector.exact.threshold", "0")), dir), DIM, "test-model")) {
            List<StoreRecord> records = randomRecords(11, 3000, i -> i % 300 == 0 ? "sliver" : "big");
            store.upsert(records);
            try (var c = java.sql.DriverManager.getConnection(url); var st = c.createStatement()) {
                st.execute("ANALYZE polyrag_vectors");
            } catch (java.sql.SQLException e) {
                throw new IllegalStateException(e);
            }
            org.assertj.core.api.Assertions.assertThat(store.search(records.get(5).vector(),
                    new SearchScope(Set.of("sliver")), 8)).hasSize(8).allSatisfy(h -> org.assertj.core.api.Assertions
                    .assertThat(Integer.parseInt(h.chunkId().substring(1)) % 300).isZero());
        }
    }

    @Test
    void each_embedding_model_gets_tables_of_its_own_and_the_first_stays_whole() throws Exception {
        String url = TestPostgres.freshSchema("vec_models");
        Path dir = java.nio.file.Files.createTempDirectory("pgvec");
        try (VectorStore first = model(url, dir, "model-a", 3)) {
            first.upsert(List.of(new StoreRecord("a1", "d1", 1, "kb", "t", new float[] {1, 0, 0})));
        }
        try (VectorStore second = model(url, dir, "model-b", 2)) {
            org.assertj.core.api.Assertions.assertThat(second.size()).as("a new model's index starts empty").isZero();
            second.upsert(List.of(new StoreRecord("b1", "d1", 1, "kb", "t", new float[] {0, 1}),
                    new StoreRecord("b2", "d2", 1, "kb", "t", new float[] {1, 0})),
                    Map.of(new io.polyrag.core.model.DocumentVersion("d1", 1), new float[] {0.6f, 0.8f}));
            org.assertj.core.api.Assertions.assertThat(second.wholeCosines(new float[] {0, 1}, List.of(
                    new io.polyrag.core.model.DocumentVersion("d1", 1)))).as("its whole vectors in a table of its own")
                    .hasEntrySatisfying(new io.polyrag.core.model.DocumentVersion("d1", 1), c -> org.assertj.core.api
                            .Assertions.assertThat(c).isCloseTo(0.8, org.assertj.core.api.Assertions.within(1e-4)));
            org.assertj.core.api.Assertions.assertThat(second.search(new float[] {0, 1}, SearchScope.ALL, 1))
                    .extracting(io.polyrag.core.model.StoreHit::chunkId).containsExactly("b1");
        }
        try (VectorStore first = model(url, dir, "model-a", 3); VectorStore second = model(url, dir, "model-b", 2)) {
            org.assertj.core.api.Assertions.assertThat(first.size()).isEqualTo(1);
            org.assertj.core.api.Assertions.assertThat(second.size()).as("and each is found again").isEqualTo(2);
        }
    }

    private static VectorStore model(String url, Path dir, String model, int dimension) {
        return new PostgresProviders.Vector().open(new ProviderContext(Config.load(Map.of(), Map.of("postgres.url",
                url, "postgres.pool.search", "2", "postgres.pool.ingest", "1")), dir), dimension, model);
    }

    /**
     * A search path that leaves out the schema pgvector lives in ({@code ?currentSchema=polyrag} alone) is named as
     * such, not reported as pgvector not being installed.
     */
    @Test
    void a_search_path_without_pgvectors_schema_is_named_not_called_a_missing_extension() {
        String url = TestPostgres.freshSchema("vec_path").replaceFirst(",public$", "");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new PostgresProviders.Vector().open(
                new ProviderContext(Config.load(Map.of(), Map.of("postgres.url", url)), dir), DIM, "test-model"))
                .isInstanceOf(io.polyrag.core.StoreException.class).hasMessageContaining("installed in schema")
                .hasMessageContaining("search path").hasMessageNotContaining("is the pgvector extension installed");
    }

    /** A model wider than pgvector's index takes is named with the choices, before any table is made. */
    @Test
    void a_model_wider_than_pgvectors_index_is_a_configuration_error() {
        String url = TestPostgres.freshSchema("vec_wide");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new PostgresProviders.Vector().open(
                new ProviderContext(Config.load(Map.of(), Map.of("postgres.url", url)), dir), 3072, "wide-model"))
                .isInstanceOf(io.polyrag.core.ConfigException.class).hasMessageContaining("3072 dimensions")
                .hasMessageContaining("at most 2000");
    }

    @Override
    protected VectorStore openStore(Path dir, int dimension) {
        String url = schemas.computeIfAbsent(dir, d -> TestPostgres.freshSchema("vec_" + Integer.toHexString(
                d.toString().hashCode())));
        // A threshold of 0: the HNSW index answers, so the contract's recall check exercises it.
        return new PostgresProviders.Vector().open(new ProviderContext(Config.load(Map.of(), Map.of("postgres.url",
                url, "vector.exact.threshold", "0", "postgres.pool.search", "2", "postgres.pool.ingest", "1")), dir),
                dimension, "test-model");
    }

    /** {@code n} records of random vectors, record {@code i} in knowledge base {@code kb.apply(i)}. */
    private static List<StoreRecord> randomRecords(long seed, int n, java.util.function.IntFunction<String> kb) {
        Random random = new Random(seed);
        List<StoreRecord> records = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            float[] v = new float[DIM];
            for (int d = 0; d < DIM; d++) {
                v[d] = (float) random.nextGaussian();
            }
            records.add(new StoreRecord("c" + i, "d" + i, 1, kb.apply(i), "t", v));
        }
        return records;
    }
}
