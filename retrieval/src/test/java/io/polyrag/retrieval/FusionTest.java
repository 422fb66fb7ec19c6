package io.polyrag.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.model.Modality;
import io.polyrag.core.model.SourceScore;
import io.polyrag.core.model.StoreHit;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class FusionTest {
    private static List<StoreHit> list(String... ids) {
        return Arrays.stream(ids).map(id -> new StoreHit(id, "doc-" + id, 1, 1.0)).toList();
    }

    private static List<StoreHit> scored(Object... idScore) {
        List<StoreHit> out = new java.util.ArrayList<>();
        for (int i = 0; i < idScore.length; i += 2) {
            out.add(new StoreHit((String) idScore[i], "d", 1, ((Number) idScore[i + 1]).doubleValue()));
        }
        return out;
    }

    static Stream<Arguments> rrfCases() {
        return Stream.of(
                Arguments.of("agreement wins", list("a", "b", "c"), list("b", "d"), List.of("b", "a", "d", "c")),
                Arguments.of("equal scores: best rank, then chunk id", list("x"), list("y"), List.of("x", "y")),
                Arguments.of("mirror lists tie on score and best rank: chunk id decides", list("q", "p"),
                        list("p", "q"), List.of("p", "q")),
                Arguments.of("a duplicate inside one list counts once", list("a", "a", "b"), list(),
                        List.of("a", "b")),
                Arguments.of("one leg empty", list(), list("m", "n"), List.of("m", "n")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rrfCases")
    void rrf_orders_hits(String name, List<StoreHit> vector, List<StoreHit> fulltext, List<String> expected) {
        List<FusedHit> fused = Fusion.rrf(60, 100).fuse(Map.of(Modality.VECTOR, vector, Modality.FULLTEXT, fulltext));
        assertThat(fused).extracting(FusedHit::chunkId).containsExactlyElementsOf(expected);
    }

    @Test
    void rrf_scores_are_sums_of_reciprocal_ranks_and_keep_provenance() {
        List<FusedHit> fused = Fusion.rrf(60, 100).fuse(Map.of(Modality.VECTOR, scored("a", 0.9, "b", 0.8),
                Modality.FULLTEXT, scored("b", 12.5)));
        FusedHit b = fused.getFirst();
        assertThat(b.chunkId()).isEqualTo("b");
        assertThat(b.score()).isCloseTo(1.0 / 62 + 1.0 / 61, Offset.offset(1e-12));
        assertThat(b.sources()).containsExactlyInAnyOrderEntriesOf(Map.of("vector", new SourceScore(2, 0.8),
                "fulltext", new SourceScore(1, 12.5)));
        assertThat(fused.get(1).sources()).containsOnlyKeys("vector");
    }

    @Test
    void rrf_k_changes_how_much_the_top_rank_dominates() {
        // b is fourth in both lists; a and c each top one list. A small k rewards the top ranks, a large k agreement.
        Map<Modality, List<StoreHit>> lists = Map.of(Modality.VECTOR, list("a", "x1", "x2", "b"),
                Modality.FULLTEXT, list("c", "x3", "x4", "b"));
        assertThat(Fusion.rrf(1, 100).fuse(lists)).extracting(FusedHit::chunkId).startsWith("a", "c", "b");
        assertThat(Fusion.rrf(60, 100).fuse(lists)).extracting(FusedHit::chunkId).startsWith("b", "a", "c");
    }

    @Test
    void weighted_fusion_normalises_each_list_then_weighs_it() {
        List<FusedHit> fused = Fusion.weighted(Map.of(Modality.VECTOR, 0.5, Modality.FULLTEXT, 0.5), 100, Fusion.Normalization.MINMAX).fuse(Map.of(
                Modality.VECTOR, scored("a", 0.9, "b", 0.5, "c", 0.1),
                Modality.FULLTEXT, scored("c", 10, "d", 5)));
        assertThat(fused).extracting(FusedHit::chunkId).containsExactly("a", "c", "b", "d");
        assertThat(fused).extracting(FusedHit::score).containsExactly(0.5, 0.5, 0.25, 0.0);
    }

    @Test
    void weighted_fusion_gives_a_flat_list_full_marks_and_an_unweighted_modality_nothing() {
        List<FusedHit> fused = Fusion.weighted(Map.of(Modality.FULLTEXT, 0.7), 100, Fusion.Normalization.MINMAX).fuse(Map.of(
                Modality.VECTOR, scored("v", 0.9), Modality.FULLTEXT, scored("x", 3, "y", 3)));
        assertThat(fused).extracting(FusedHit::chunkId).containsExactly("x", "y", "v");
        assertThat(fused).extracting(FusedHit::score).containsExactly(0.7, 0.7, 0.0);
    }

    @Test
    void only_the_fusion_depth_scores_so_asking_deeper_does_not_reorder_the_top() {
        Map<Modality, List<StoreHit>> shallow = Map.of(Modality.VECTOR, scored("a", 0.9, "b", 0.8),
                Modality.FULLTEXT, scored("c", 9, "a", 7));
        Map<Modality, List<StoreHit>> deep = Map.of(Modality.VECTOR, scored("a", 0.9, "b", 0.8, "x", 0.2, "c", 0.1),
                Modality.FULLTEXT, scored("c", 9, "a", 7, "y", 1, "b", 0.5));
        for (Fusion f : List.of(Fusion.rrf(60, 2), Fusion.weighted(Map.of(Modality.VECTOR, 0.5,
                Modality.FULLTEXT, 0.5), 2, Fusion.Normalization.ZSCORE))) {
            List<FusedHit> top = f.fuse(shallow);
            List<FusedHit> more = f.fuse(deep);
            assertThat(more.subList(0, 3)).extracting(FusedHit::chunkId)
                    .containsExactlyElementsOf(top.stream().map(FusedHit::chunkId).toList());
            assertThat(more.subList(0, 3)).extracting(FusedHit::score)
                    .containsExactlyElementsOf(top.stream().map(FusedHit::score).toList());
            assertThat(more.subList(3, 5)).extracting(FusedHit::chunkId).containsExactly("x", "y");
            assertThat(more.get(0).sources()).hasSize(2);
        }
    }

    @Test
    void zscore_normalisation_scales_by_the_spread_not_the_range() {
        // vector: 1.0, 0.5, 0.0 -> sd 0.408; fulltext: 10, 0 -> sd 5. Shifted by each list's minimum.
        List<FusedHit> fused = Fusion.weighted(Map.of(Modality.VECTOR, 0.5, Modality.FULLTEXT, 0.5), 100,
                Fusion.Normalization.ZSCORE).fuse(Map.of(Modality.VECTOR, scored("a", 1.0, "b", 0.5, "c", 0.0),
                Modality.FULLTEXT, scored("c", 10, "d", 0)));
        double sdV = Math.sqrt((0.25 + 0 + 0.25) / 3);
        assertThat(fused).extracting(FusedHit::chunkId).containsExactly("a", "c", "b", "d");
        assertThat(fused.get(0).score()).isCloseTo(0.5 * 1.0 / sdV, Offset.offset(1e-9));
        assertThat(fused.get(1).score()).isCloseTo(0.5 * 10 / 5.0, Offset.offset(1e-9));
    }

    /** A single full-text hit (a code only one passage contains) counts as much as the best of a long list. */
    @Test
    void under_zscores_a_list_without_spread_counts_as_the_best_normalised_top() {
        Object[] vector = new Object[200];
        for (int i = 0; i < 100; i++) {
            vector[2 * i] = "v" + i;
            vector[2 * i + 1] = 0.62 - i * (0.32 / 99);
        }
        List<FusedHit> fused = Fusion.weighted(Map.of(Modality.VECTOR, 0.5, Modality.FULLTEXT, 0.5), 100,
                Fusion.Normalization.ZSCORE).fuse(Map.of(Modality.VECTOR, scored(vector), Modality.FULLTEXT,
                scored("x", 12.0)));
        assertThat(fused.stream().map(FusedHit::chunkId).toList().indexOf("x")).isLessThan(2);
        assertThat(fused.stream().filter(h -> h.chunkId().equals("x")).findFirst().orElseThrow().score())
                .isCloseTo(fused.stream().filter(h -> h.chunkId().equals("v0")).findFirst().orElseThrow().score(),
                        Offset.offset(1e-9));
        // Alone, a list without spread counts 1 times its weight, as before.
        assertThat(Fusion.weighted(Map.of(Modality.FULLTEXT, 0.5), 100, Fusion.Normalization.ZSCORE).fuse(Map.of(
                Modality.FULLTEXT, scored("x", 12.0))).getFirst().score()).isCloseTo(0.5, Offset.offset(1e-9));
    }

    @Test
    void a_calibrated_list_counts_its_scores_as_they_are_on_the_scale_of_the_others() {
        Map<Modality, Double> w = Map.of(Modality.VECTOR, 0.5, Modality.GRAPH, 0.5);
        java.util.Set<Modality> calibrated = java.util.Set.of(Modality.GRAPH);
        // Min-max over the vector list: a 1, b 0.5, c 0 — its best normalised score, 1, is the graph's ceiling.
        List<StoreHit> vector = scored("a", 0.9, "b", 0.7, "c", 0.5);
        // The graph's lowest entry is strong evidence (0.8): it is not pushed to zero as its list's minimum.
        List<StoreHit> graph = scored("x", 1.0, "c", 0.8);
        List<FusedHit> fused = Fusion.weighted(w, 100, Fusion.Normalization.MINMAX, calibrated).fuse(Map.of(
                Modality.VECTOR, vector, Modality.GRAPH, graph));
        Map<String, Double> score = fused.stream().collect(java.util.stream.Collectors.toMap(FusedHit::chunkId,
                FusedHit::score));
        assertThat(score.get("x")).isCloseTo(0.5, Offset.offset(1e-9));
        assertThat(score.get("c")).isCloseTo(0.5 * 0.8, Offset.offset(1e-9));
        assertThat(score.get("a")).isCloseTo(0.5, Offset.offset(1e-9));
        // Uncalibrated, the same graph list would give c nothing.
        List<FusedHit> plain = Fusion.weighted(w, 100, Fusion.Normalization.MINMAX).fuse(Map.of(Modality.VECTOR,
                vector, Modality.GRAPH, graph));
        assertThat(plain.stream().filter(h -> h.chunkId().equals("c")).findFirst().orElseThrow().score()).isZero();
        // An empty calibrated list changes nothing; in RRF a list votes in proportion to its best score.
        assertThat(Fusion.weighted(w, 100, Fusion.Normalization.MINMAX, calibrated).fuse(Map.of(Modality.VECTOR,
                vector, Modality.GRAPH, List.of()))).extracting(FusedHit::score).satisfiesExactly(
                        x -> assertThat(x).isCloseTo(0.5, Offset.offset(1e-9)),
                        x -> assertThat(x).isCloseTo(0.25, Offset.offset(1e-9)),
                        x -> assertThat(x).isCloseTo(0.0, Offset.offset(1e-9)));
        List<FusedHit> rrf = Fusion.rrf(60, 100, calibrated).fuse(Map.of(Modality.GRAPH, scored("x", 0.4)));
        assertThat(rrf.getFirst().score()).isCloseTo(0.4 / 61, Offset.offset(1e-12));
    }
}
