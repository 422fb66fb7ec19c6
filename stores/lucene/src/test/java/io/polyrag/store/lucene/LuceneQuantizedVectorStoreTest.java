package io.polyrag.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.StoreHit;
import io.polyrag.core.model.StoreRecord;
import io.polyrag.core.port.VectorStore;
import io.polyrag.testing.VectorStoreContract;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The vector store contract with each quantised encoding: the graph walked with the small copies, the candidates
 * re-scored with the full vectors (so the contract's exact scores and its recall bar hold).
 */
class LuceneQuantizedVectorStoreTest {

    @Nested
    class Int7 extends VectorStoreContract {
        @Override
        protected VectorStore openStore(Path dir, int dimension) {
            return new LuceneVectorStore(dir.resolve("vector"), dimension, "test-model", 0,
                    LuceneVectorStore.Quantization.INT7);
        }

        @Test
        void writes_its_vectors_in_the_quantised_format_and_reads_them_back_after_a_reopen() throws Exception {
            Random r = new Random(7);
            List<StoreRecord> recs = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                float[] v = new float[DIM];
                for (int j = 0; j < DIM; j++) {
                    v[j] = (float) r.nextGaussian();
                }
                recs.add(new StoreRecord("c" + i, "d" + i, 1, "kb", "t", v));
            }
            try (VectorStore store = openStore(dir, DIM)) {
                store.upsert(recs);
            }
            try (DirectoryReader reader = DirectoryReader.open(FSDirectory.open(dir.resolve("vector")))) {
                for (LeafReaderContext leaf : reader.leaves()) {
                    assertThat(leaf.reader().getFieldInfos().fieldInfo(LuceneVectorStore.VECTOR).attributes()
                            .values()).anyMatch(v -> v.contains("Quantized"));
                }
            }
            try (VectorStore store = openStore(dir, DIM)) {
                List<StoreHit> hits = store.search(recs.get(42).vector(), SearchScope.ALL, 1);
                assertThat(hits.getFirst().chunkId()).isEqualTo("c42");
                assertThat(hits.getFirst().score()).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-4));
            }
        }
    }

    /**
     * Segments written quantised, then the setting switched back to none: their hits are re-scored with the full
     * vectors, so every reported score is the exact cosine (they were the 1-bit copies' estimates, ranked against
     * the new segments' exact scores).
     */
    @Test
    void segments_left_quantised_after_a_switch_to_none_are_scored_exactly(@org.junit.jupiter.api.io.TempDir Path dir) {
        int dim = 32;
        Random r = new Random(11);
        List<StoreRecord> first = new ArrayList<>();
        List<StoreRecord> second = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            float[] v = new float[dim];
            for (int j = 0; j < dim; j++) {
                v[j] = (float) r.nextGaussian();
            }
            (i < 300 ? first : second).add(new StoreRecord("c" + i, "d" + i, 1, "kb", "t", v));
        }
        try (VectorStore int1 = new LuceneVectorStore(dir.resolve("vector"), dim, "m", 0,
                LuceneVectorStore.Quantization.INT1)) {
            int1.upsert(first);
        }
        try (VectorStore none = new LuceneVectorStore(dir.resolve("vector"), dim, "m", 0,
                LuceneVectorStore.Quantization.NONE)) {
            none.upsert(second);
            float[] q = first.get(7).vector();
            List<StoreHit> hits = none.search(q, SearchScope.ALL, 20);
            assertThat(hits.getFirst().chunkId()).isEqualTo("c7");
            java.util.Map<String, float[]> byId = new java.util.HashMap<>();
            first.forEach(x -> byId.put(x.chunkId(), x.vector()));
            second.forEach(x -> byId.put(x.chunkId(), x.vector()));
            for (StoreHit h : hits) {
                assertThat(h.score()).as(h.chunkId()).isCloseTo(cosine(q, byId.get(h.chunkId())),
                        org.assertj.core.data.Offset.offset(1e-4));
            }
        }
    }

    private static double cosine(float[] a, float[] b) {
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        return dot / Math.sqrt(na * nb);
    }

    @Nested
    class Int4 extends VectorStoreContract {
        @Override
        protected VectorStore openStore(Path dir, int dimension) {
            return new LuceneVectorStore(dir.resolve("vector"), dimension, "test-model", 0,
                    LuceneVectorStore.Quantization.INT4);
        }
    }

    @Nested
    class Int1 extends VectorStoreContract {
        @Override
        protected VectorStore openStore(Path dir, int dimension) {
            return new LuceneVectorStore(dir.resolve("vector"), dimension, "test-model", 0,
                    LuceneVectorStore.Quantization.INT1);
        }
    }
}
