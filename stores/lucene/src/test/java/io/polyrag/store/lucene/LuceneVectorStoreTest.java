package io.polyrag.store.lucene;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.polyrag.core.ConfigException;
import io.polyrag.core.port.VectorStore;
import io.polyrag.testing.VectorStoreContract;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class LuceneVectorStoreTest extends VectorStoreContract {
    @Override
    protected VectorStore openStore(Path dir, int dimension) {
        return new LuceneVectorStore(dir.resolve("vector"), dimension, "test-model");
    }

    /**
     * A model file left empty (a power cut soon after the index was made) names no model: the index is this one's,
     * opened and its file written whole again, not refused nor taken for another model's.
     */
    @Test
    void an_empty_model_file_is_taken_for_this_index_and_written_again() throws Exception {
        new LuceneVectorStore(dir.resolve("vector"), DIM, "test-model").close();
        java.nio.file.Path meta = dir.resolve("vector/polyrag-vectors.properties");
        java.nio.file.Files.write(meta, new byte[0]);
        org.assertj.core.api.Assertions.assertThat(LuceneVectorStore.holdsOtherModel(dir.resolve("vector"), DIM,
                "test-model")).isFalse();
        new LuceneVectorStore(dir.resolve("vector"), DIM, "test-model").close();
        org.assertj.core.api.Assertions.assertThat(java.nio.file.Files.readString(meta)).contains("model=test-model");
        org.assertj.core.api.Assertions.assertThat(dir.resolve("vector/polyrag-vectors.properties.tmp"))
                .doesNotExist();
    }

    @Test
    void refuses_to_open_an_index_built_by_another_model() {
        new LuceneVectorStore(dir.resolve("vector"), DIM, "test-model").close();
        assertThatThrownBy(() -> new LuceneVectorStore(dir.resolve("vector"), 384, "other-model"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("test-model").hasMessageContaining("other-model")
                .hasMessageContaining("re-ingest");
    }

    /**
     * A model of more than Lucene's declared 1,024 dimensions (1,536, 4,096) indexes, searches through the graph and
     * opens again: every write of one failed before, once the store had opened.
     */
    @Test
    void vectors_wider_than_1024_dimensions_are_indexed_searched_and_read_back() {
        for (var q : LuceneVectorStore.Quantization.values()) {
            int dim = 1536;
            java.util.Random r = new java.util.Random(3);
            java.util.List<io.polyrag.core.model.StoreRecord> records = new java.util.ArrayList<>();
            for (int i = 0; i < 60; i++) {
                float[] v = new float[dim];
                for (int j = 0; j < dim; j++) {
                    v[j] = (float) r.nextGaussian();
                }
                records.add(new io.polyrag.core.model.StoreRecord("c" + i, "d" + i, 1, "kb", "t", v));
            }
            Path path = dir.resolve("wide-" + q);
            try (LuceneVectorStore store = new LuceneVectorStore(path, dim, "wide-model", 0, q)) {
                store.upsert(records);
                org.assertj.core.api.Assertions.assertThat(store.search(records.get(7).vector(),
                        io.polyrag.core.model.SearchScope.ALL, 3)).as(q.toString()).first()
                        .extracting(io.polyrag.core.model.StoreHit::chunkId).isEqualTo("c7");
            }
            try (LuceneVectorStore store = new LuceneVectorStore(path, dim, "wide-model", 0, q)) {
                org.assertj.core.api.Assertions.assertThat(store.search(records.get(9).vector(),
                        io.polyrag.core.model.SearchScope.ALL, 3)).as(q + ", opened again").first()
                        .extracting(io.polyrag.core.model.StoreHit::chunkId).isEqualTo("c9");
            }
        }
    }

    @Test
    void the_exact_scan_ranks_and_scores_by_cosine_over_vectors_of_any_length_across_segments() {
        java.util.Random r = new java.util.Random(11);
        int dim = 48;
        java.util.Map<String, float[]> all = new java.util.LinkedHashMap<>();
        try (LuceneVectorStore store = new LuceneVectorStore(dir.resolve("exact"), dim, "test-model", 1_000_000)) {
            for (int batch = 0; batch < 3; batch++) {
                java.util.List<io.polyrag.core.model.StoreRecord> records = new java.util.ArrayList<>();
                for (int i = 0; i < 300; i++) {
                    float[] v = new float[dim];
                    float scale = 0.1f + 5 * r.nextFloat(); // not unit length: the norm must be divided out
                    for (int j = 0; j < dim; j++) {
                        v[j] = (float) r.nextGaussian() * scale;
                    }
                    String id = "c" + batch + "-" + i;
                    all.put(id, v);
                    records.add(new io.polyrag.core.model.StoreRecord(id, "d" + batch, 1, "kb", "t", v));
                }
                store.upsert(records); // one commit each: three segments
            }
            for (int q = 0; q < 5; q++) {
                float[] query = new float[dim];
                for (int j = 0; j < dim; j++) {
                    query[j] = (float) r.nextGaussian() * 3;
                }
                java.util.List<java.util.Map.Entry<String, Double>> expected = all.entrySet().stream()
                        .map(e -> java.util.Map.entry(e.getKey(), 2.0 * org.apache.lucene.index.VectorSimilarityFunction
                                .COSINE.compare(query, e.getValue()) - 1))
                        .sorted((a, b) -> Double.compare(b.getValue(), a.getValue())).limit(10).toList();
                java.util.List<io.polyrag.core.model.StoreHit> hits = store.search(query,
                        io.polyrag.core.model.SearchScope.ALL, 10);
                org.assertj.core.api.Assertions.assertThat(hits).extracting(io.polyrag.core.model.StoreHit::chunkId)
                        .containsExactlyElementsOf(expected.stream().map(java.util.Map.Entry::getKey).toList());
                for (int k = 0; k < hits.size(); k++) {
                    org.assertj.core.api.Assertions.assertThat(hits.get(k).score()).isCloseTo(expected.get(k)
                            .getValue(), org.assertj.core.api.Assertions.within(1e-5));
                }
            }
        }
    }
}
