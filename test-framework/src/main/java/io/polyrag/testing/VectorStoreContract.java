package io.polyrag.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.StoreHit;
import io.polyrag.core.model.StoreRecord;
import io.polyrag.core.port.VectorStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contract every {@link VectorStore} passes. An implementation's test is a short subclass that says how to open
 * the store over a directory (embedded) or a started server (networked).
 */
public abstract class VectorStoreContract {
    protected static final int DIM = 16;

    @RegisterExtension
    protected final Seeded seeded = new Seeded();

    @TempDir
    protected Path dir;

    private final List<VectorStore> opened = new ArrayList<>();

    /** Opens the store under test; for a networked backend, an empty one on every call with a fresh dir. */
    protected abstract VectorStore openStore(Path dir, int dimension);

    protected VectorStore open() {
        VectorStore s = openStore(dir, DIM);
        opened.add(s);
        return s;
    }

    @AfterEach
    void closeAll() {
        opened.forEach(VectorStore::close);
    }

    protected static StoreRecord rec(String chunk, String doc, long version, String kb, float[] v) {
        return new StoreRecord(chunk, doc, version, kb, "text of " + chunk, v);
    }

    @Test
    void finds_a_stored_vector_as_its_own_nearest_neighbour() {
        VectorStore store = open();
        Random r = seeded.random("self");
        List<StoreRecord> recs = IntStream.range(0, 50)
                .mapToObj(i -> rec("c" + i, "d" + (i / 5), 1, "kb", Seeded.unitVector(r, DIM))).toList();
        store.upsert(recs);
        for (StoreRecord rec : recs.subList(0, 10)) {
            List<StoreHit> hits = store.search(rec.vector(), SearchScope.ALL, 3);
            assertThat(hits.getFirst().chunkId()).isEqualTo(rec.chunkId());
            assertThat(hits.getFirst().score()).isCloseTo(1.0, Offset.offset(1e-4));
            assertThat(hits.getFirst().documentId()).isEqualTo(rec.documentId());
            assertThat(hits.getFirst().version()).isEqualTo(1);
        }
    }

    @Test
    void keeps_whole_vectors_beside_the_records_and_drops_them_with_their_version() {
        VectorStore store = open();
        Random r = seeded.random("whole");
        float[] whole = Seeded.unitVector(r, DIM);
        DocumentVersion v1 = new DocumentVersion("dw", 1);
        List<StoreRecord> recs = IntStream.range(0, 3).mapToObj(i -> rec("dw-" + i, "dw", 1, "kb",
                Seeded.unitVector(r, DIM))).toList();
        store.upsert(recs, Map.of(v1, whole));
        store.upsert(List.of(rec("other-0", "other", 1, "kb", Seeded.unitVector(r, DIM))), Map.of());

        float[] query = Seeded.unitVector(r, DIM);
        double cosine = 0;
        for (int i = 0; i < DIM; i++) {
            cosine += query[i] * whole[i];
        }
        Map<DocumentVersion, Double> got = store.wholeCosines(query, List.of(v1, new DocumentVersion("other", 1),
                new DocumentVersion("dw", 2)));
        assertThat(got).as("only the version written with one has one").containsOnlyKeys(v1);
        assertThat(got.get(v1)).isCloseTo(cosine, Offset.offset(1e-4));
        assertThat(store.wholeCosines(whole, List.of(v1)).get(v1)).isCloseTo(1.0, Offset.offset(1e-4));
        assertThat(store.size()).as("a whole vector is not a record").isEqualTo(4);
        store.ping(); // readiness's one read answers on every backend
        assertThat(store.versions()).containsEntry(v1, 3L).hasSize(2);
        assertThat(store.search(whole, SearchScope.ALL, 10)).as("nor is it ever a hit").extracting(StoreHit::chunkId)
                .containsExactlyInAnyOrder("dw-0", "dw-1", "dw-2", "other-0");

        float[] wrong = new float[DIM + 1];
        wrong[0] = 1;
        DocumentVersion v2 = new DocumentVersion("dw", 2);
        assertThatThrownBy(() -> store.upsert(List.of(rec("dw-v2-0", "dw", 2, "kb", Seeded.unitVector(r, DIM))),
                Map.of(v2, wrong))).isInstanceOf(IllegalArgumentException.class);
        assertThat(store.versions()).as("nothing of a rejected write").doesNotContainKey(v2);

        store.delete(List.of(v1));
        assertThat(store.wholeCosines(whole, List.of(v1))).as("deleted with its version").isEmpty();
        store.upsert(List.of(rec("dw-v3-0", "dw", 3, "kb", Seeded.unitVector(r, DIM))),
                Map.of(new DocumentVersion("dw", 3), whole));
        assertThat(store.wholeCosines(whole, List.of(new DocumentVersion("dw", 3)))).hasSize(1);
        store.deleteDocuments(List.of("dw"));
        assertThat(store.wholeCosines(whole, List.of(new DocumentVersion("dw", 3)))).as("and with its document")
                .isEmpty();
        assertThat(store.size()).isEqualTo(1);
    }

    @Test
    void ranks_like_an_exact_cosine_scan() {
        VectorStore store = open();
        Random r = seeded.random("oracle");
        List<StoreRecord> recs = IntStream.range(0, 400)
                .mapToObj(i -> rec("c" + i, "d" + i, 1, "kb", Seeded.unitVector(r, DIM))).toList();
        store.upsert(recs);
        int found = 0;
        int wanted = 0;
        for (int q = 0; q < 20; q++) {
            float[] query = Seeded.unitVector(r, DIM);
            List<String> exact = recs.stream()
                    .sorted(Comparator.comparingDouble((StoreRecord x) -> -Seeded.cosine(x.vector(), query)))
                    .limit(10).map(StoreRecord::chunkId).toList();
            List<StoreHit> hits = store.search(query, SearchScope.ALL, 10);
            assertThat(hits).hasSize(10);
            assertThat(hits).isSortedAccordingTo(Comparator.comparingDouble(StoreHit::score).reversed());
            StoreHit top = hits.getFirst();
            StoreRecord topRec = recs.stream().filter(x -> x.chunkId().equals(top.chunkId())).findFirst().orElseThrow();
            assertThat(top.score()).isCloseTo(Seeded.cosine(topRec.vector(), query),
                    Offset.offset(1e-3));
            found += (int) hits.stream().filter(h -> exact.contains(h.chunkId())).count();
            wanted += 10;
        }
        assertThat((double) found / wanted).as("recall@10 against an exact scan").isGreaterThanOrEqualTo(0.95);
    }

    @Test
    void upsert_replaces_a_record_with_the_same_chunk_id() {
        VectorStore store = open();
        Random r = seeded.random("replace");
        float[] a = Seeded.unitVector(r, DIM);
        float[] b = Seeded.unitVector(r, DIM);
        store.upsert(List.of(rec("c1", "d1", 1, "kb", a)));
        store.upsert(List.of(rec("c1", "d1", 1, "kb", b)));
        assertThat(store.size()).isEqualTo(1);
        assertThat(store.search(b, SearchScope.ALL, 1).getFirst().score()).isCloseTo(1.0,
                Offset.offset(1e-4));
    }

    @Test
    void delete_removes_one_version_and_keeps_the_others() {
        VectorStore store = open();
        Random r = seeded.random("delete");
        store.upsert(List.of(rec("d1-v1-0", "d1", 1, "kb", Seeded.unitVector(r, DIM)),
                rec("d1-v2-0", "d1", 2, "kb", Seeded.unitVector(r, DIM)),
                rec("d2-v1-0", "d2", 1, "kb", Seeded.unitVector(r, DIM))));
        assertThat(store.versions()).containsOnly(Map.entry(new DocumentVersion("d1", 1), 1L),
                Map.entry(new DocumentVersion("d1", 2), 1L), Map.entry(new DocumentVersion("d2", 1),
                        1L));
        store.delete(List.of(new DocumentVersion("d1", 1)));
        assertThat(store.size()).isEqualTo(2);
        assertThat(store.versions()).containsOnlyKeys(new DocumentVersion("d1", 2), new DocumentVersion("d2", 1));
        assertThat(store.search(Seeded.unitVector(r, DIM), SearchScope.ALL, 10)).extracting(StoreHit::chunkId)
                .containsExactlyInAnyOrder("d1-v2-0", "d2-v1-0");
        store.deleteDocuments(List.of("d1"));
        assertThat(store.search(Seeded.unitVector(r, DIM), SearchScope.ALL, 10)).extracting(StoreHit::chunkId)
                .containsExactly("d2-v1-0");
    }

    /** A scope naming documents finds their records first, however many nearer ones other documents hold. */
    @Test
    void search_sees_only_the_documents_in_scope() {
        VectorStore store = open();
        Random r = seeded.random("documents");
        for (int i = 0; i < 300; i++) {
            store.upsert(List.of(rec("a" + i, "da" + i, 1, "alpha", Seeded.unitVector(r, DIM))));
        }
        float[] q = Seeded.unitVector(r, DIM);
        assertThat(store.search(q, new SearchScope(Set.of(), Set.of("da7", "da250"), null), 10))
                .extracting(StoreHit::documentId).containsExactlyInAnyOrder("da7", "da250");
        assertThat(store.search(q, new SearchScope(Set.of("alpha"), Set.of("da7"), null), 10))
                .extracting(StoreHit::documentId).containsExactly("da7");
    }

    @Test
    void search_sees_only_the_knowledge_bases_in_scope() {
        VectorStore store = open();
        Random r = seeded.random("scope");
        for (int i = 0; i < 30; i++) {
            store.upsert(List.of(rec("a" + i, "da" + i, 1, "alpha", Seeded.unitVector(r, DIM)),
                    rec("b" + i, "db" + i, 1, "beta", Seeded.unitVector(r, DIM))));
        }
        List<StoreHit> hits = store.search(Seeded.unitVector(r, DIM), new SearchScope(Set.of("beta")), 10);
        assertThat(hits).hasSize(10).allSatisfy(h -> assertThat(h.chunkId()).startsWith("b"));
        assertThat(store.search(Seeded.unitVector(r, DIM), new SearchScope(Set.of("gamma")), 10)).isEmpty();
        // A scope naming every knowledge base the store holds (and one it does not) finds what no scope finds.
        float[] q = Seeded.unitVector(r, DIM);
        assertThat(store.search(q, new SearchScope(Set.of("alpha", "beta", "gamma")), 10))
                .extracting(StoreHit::chunkId).containsExactlyElementsOf(store.search(q, SearchScope.ALL, 10).stream()
                        .map(StoreHit::chunkId).toList());
        // Deleting a knowledge base's documents leaves the other's scope exact (its terms may outlive them).
        store.deleteDocuments(IntStream.range(0, 30).mapToObj(i -> "da" + i).toList());
        assertThat(store.search(q, new SearchScope(Set.of("beta")), 10)).hasSize(10)
                .allSatisfy(h -> assertThat(h.chunkId()).startsWith("b"));
    }

    @Test
    void rejects_a_vector_of_the_wrong_length_before_writing_anything() {
        VectorStore store = open();
        Random r = seeded.random("dim");
        List<StoreRecord> batch = List.of(rec("ok", "d", 1, "kb", Seeded.unitVector(r, DIM)),
                rec("bad", "d", 1, "kb", Seeded.unitVector(r, DIM + 1)));
        assertThatThrownBy(() -> store.upsert(batch)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bad").hasMessageContaining(String.valueOf(DIM));
        assertThat(store.size()).isZero();
    }

    @Test
    void empty_writes_and_an_empty_store_are_harmless() {
        VectorStore store = open();
        store.upsert(List.of());
        store.delete(List.of());
        store.deleteDocuments(List.of());
        assertThat(store.search(Seeded.unitVector(seeded.random("empty"), DIM), SearchScope.ALL, 5)).isEmpty();
        assertThat(store.dimension()).isEqualTo(DIM);
    }

    @Test
    void equal_scores_are_ordered_by_chunk_id() {
        VectorStore store = open();
        float[] v = Seeded.unitVector(seeded.random("ties"), DIM);
        store.upsert(List.of(rec("c", "d3", 1, "kb", v), rec("a", "d1", 1, "kb", v), rec("b", "d2", 1, "kb", v)));
        assertThat(store.search(v, SearchScope.ALL, 3)).extracting(StoreHit::chunkId).containsExactly("a", "b", "c");
    }

    @Test
    void written_records_survive_a_reopen() {
        Random r = seeded.random("reopen");
        float[] v = Seeded.unitVector(r, DIM);
        VectorStore first = openStore(dir, DIM);
        first.upsert(List.of(rec("c1", "d1", 1, "kb", v)));
        first.close();
        VectorStore second = open();
        assertThat(second.search(v, SearchScope.ALL, 1)).extracting(StoreHit::chunkId).containsExactly("c1");
    }
}
