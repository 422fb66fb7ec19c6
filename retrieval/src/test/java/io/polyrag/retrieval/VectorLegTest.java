package io.polyrag.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.StoreHit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How the vector leg blends a passage's cosine with its document's whole vector's ({@link VectorLeg#blend}). */
class VectorLegTest {
    @Test
    void a_passage_counts_its_documents_whole_cosine_and_a_document_without_one_its_best_passage() {
        // "long" is three small passages, none close alone, whose whole vector is close to the query; "short" has
        // no whole vector: its best passage stands for it.
        List<StoreHit> passages = List.of(new StoreHit("short-0", "short", 1, 0.80),
                new StoreHit("long-0", "long", 2, 0.70), new StoreHit("short-1", "short", 1, 0.40),
                new StoreHit("long-1", "long", 2, 0.60), new StoreHit("long-2", "long", 2, 0.50));
        Map<DocumentVersion, Double> wholes = Map.of(new DocumentVersion("long", 2), 0.95);

        List<StoreHit> blended = VectorLeg.blend(passages, wholes, 0.5);

        assertThat(blended).extracting(StoreHit::chunkId).containsExactly("long-0", "short-0", "long-1", "long-2",
                "short-1");
        assertThat(blended.getFirst().score()).isCloseTo(0.5 * 0.70 + 0.5 * 0.95, within(1e-6));
        assertThat(blended.get(1).score()).as("the best passage of a document without a whole vector keeps its own")
                .isCloseTo(0.80, within(1e-9));
        assertThat(blended.getLast().score()).as("its other passages rise halfway to it").isCloseTo(0.60,
                within(1e-9));
    }

    /** A query vector without a direction is refused (the leg then degrades), not scored NaN against every vector. */
    @Test
    void a_query_vector_of_nan_or_zeros_is_refused() {
        for (float[] bad : List.of(new float[] {Float.NaN, 1}, new float[] {0, 0}, new float[] {1,
                Float.POSITIVE_INFINITY})) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> VectorLeg.usable(bad, "m"))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("embedding model m");
        }
        float[] fine = {0.6f, 0.8f};
        assertThat(VectorLeg.usable(fine, "m")).isSameAs(fine);
    }

    @Test
    void weight_one_scores_every_passage_by_its_document() {
        List<StoreHit> passages = List.of(new StoreHit("a-0", "a", 1, 0.9), new StoreHit("a-1", "a", 1, 0.2));
        List<StoreHit> blended = VectorLeg.blend(passages, Map.of(new DocumentVersion("a", 1), 0.5), 1.0);
        assertThat(blended).extracting(StoreHit::score).containsOnly(0.5);
        assertThat(blended).extracting(StoreHit::chunkId).as("ties by chunk id").containsExactly("a-0", "a-1");
        // Tied by their document, passages keep their own order: "a-2" (0.9) before "a-10" (0.2), which sorts first
        // by id as text.
        List<StoreHit> tens = List.of(new StoreHit("a-10", "a", 1, 0.2), new StoreHit("a-2", "a", 1, 0.9));
        assertThat(VectorLeg.blend(tens, Map.of(new DocumentVersion("a", 1), 0.5), 1.0)).extracting(StoreHit::chunkId)
                .containsExactly("a-2", "a-10");
    }
}
