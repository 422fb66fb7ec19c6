package io.polyrag.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.app.api.FusionTuning;
import io.polyrag.core.model.Chunk;
import io.polyrag.core.model.FusionMethod;
import io.polyrag.core.model.Ids;
import io.polyrag.core.model.Modality;
import io.polyrag.core.model.SearchHit;
import io.polyrag.core.model.SearchRequest;
import io.polyrag.core.port.JudgmentStore.Judgment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The choice a tuning makes from its scores: applied only for a held-out gain chance does not explain. */
class KbFusionChoiceTest {
    private static final List<KbFusion.Candidate> CANDIDATES = List.of(
            new KbFusion.Candidate("configured", null, SearchRequest.Tuning.CONFIGURED),
            new KbFusion.Candidate("weighted fulltext=0.3 vector=0.7", FusionMethod.WEIGHTED, new SearchRequest.Tuning(
                    null, Map.of(Modality.VECTOR, 0.7, Modality.FULLTEXT, 0.3), null)),
            new KbFusion.Candidate("rrf k=30", FusionMethod.RRF, new SearchRequest.Tuning(30, Map.of(), null)));

    private static List<Judgment> judged(int n) {
        List<Judgment> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new Judgment("q" + i, "query " + i, Map.of("d" + i, 1)));
        }
        return out;
    }

    /** Scores per candidate and query: the configured one's, and the others' at {@code gain} above, with noise. */
    private static double[][] scores(int n, double gain, double noise, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] s = new double[CANDIDATES.size()][n];
        for (int q = 0; q < n; q++) {
            double base = 0.3 + 0.5 * r.nextDouble();
            s[0][q] = base;
            s[1][q] = Math.clamp(base + gain + noise * (r.nextDouble() - 0.5), 0, 1);
            s[2][q] = Math.clamp(base - 0.05 + noise * (r.nextDouble() - 0.5), 0, 1);
        }
        return s;
    }

    @Test
    void a_clear_gain_on_held_out_folds_is_applied_with_what_it_measured() {
        FusionTuning t = KbFusion.choose(CANDIDATES, scores(60, 0.05, 0.1, 1), judged(60), 100);
        assertThat(t.applied()).as(t.reason()).isTrue();
        assertThat(t.fusion()).isEqualTo("weighted");
        assertThat(t.weights()).containsEntry("vector", 0.7).containsEntry("fulltext", 0.3);
        assertThat(t.folds()).isEqualTo(5);
        assertThat(t.delta()).isPositive();
        assertThat(t.p()).isLessThan(KbFusion.APPLY_P);
        assertThat(t.reason()).startsWith("applied weighted fulltext=0.3 vector=0.7");
    }

    @Test
    void a_gain_chance_explains_as_well_keeps_the_configured_fusion() {
        // Mostly noise: the candidate wins on some queries and loses on others, a hair ahead on average.
        FusionTuning t = KbFusion.choose(CANDIDATES, scores(20, 0.005, 0.6, 2), judged(20), 100);
        assertThat(t.applied()).as(t.reason()).isFalse();
        assertThat(t.fusion()).isEqualTo("configured");
        assertThat(t.weights()).isEmpty();
        assertThat(t.rrfK()).isNull();
    }

    @Test
    void the_configured_fusion_best_everywhere_is_kept_and_said() {
        FusionTuning t = KbFusion.choose(CANDIDATES, scores(40, -0.1, 0.05, 3), judged(40), 100);
        assertThat(t.applied()).isFalse();
        assertThat(t.reason()).contains("it is the best of the 3 tried");
        assertThat(t.candidates()).extracting(FusionTuning.Candidate::name).containsExactly("configured",
                "weighted fulltext=0.3 vector=0.7", "rrf k=30");
    }

    @Test
    void a_depth_or_blend_alone_is_applied_under_the_configured_fusion() {
        List<KbFusion.Candidate> line = List.of(CANDIDATES.get(0), new KbFusion.Candidate("fulltext.document.weight=1.0",
                null, new SearchRequest.Tuning(null, Map.of(), null, null, 1.0)), new KbFusion.Candidate(
                        "search.candidates=200", null, new SearchRequest.Tuning(null, Map.of(), null, 200, null)));
        FusionTuning t = KbFusion.choose(line, scores(60, 0.05, 0.1, 1), judged(60), 100);
        assertThat(t.applied()).as(t.reason()).isTrue();
        assertThat(t.fusion()).isEqualTo("configured");
        assertThat(t.fulltextDocumentWeight()).isEqualTo(1.0);
        assertThat(t.candidateDepth()).isNull();
        assertThat(t.weights()).isEmpty();
        assertThat(t.reason()).startsWith("applied fulltext.document.weight=1.0");
        assertThat(line.get(0).configured()).isTrue();
        assertThat(line.get(1).configured()).as("the configured method, but its own blend").isFalse();
    }

    @Test
    void a_hits_merged_near_duplicates_count_right_after_it_as_eval_counts_them() {
        String a = Ids.documentId("kb", "a");
        String b = Ids.documentId("kb", "b");
        String c = Ids.documentId("kb", "c");
        String late = Ids.documentId("kb", "indexed since");
        List<SearchHit> hits = List.of(
                SearchHit.builder().rank(1).documentId(a).chunkId(Chunk.idOf(a, 1, 0)).merged(List.of(
                        Chunk.idOf(c, 1, 4), Chunk.idOf(late, 1, 0))).build(),
                SearchHit.builder().rank(2).documentId(b).chunkId(Chunk.idOf(b, 1, 0)).build(),
                SearchHit.builder().rank(3).documentId(c).chunkId(Chunk.idOf(c, 1, 0)).build());
        assertThat(KbRanking.ranking(hits, java.util.Set.of(a, b, c))).containsExactly(a, c, b);
    }

    @Test
    void beyond_the_bound_a_fixed_sample_is_measured_the_same_every_time() {
        List<Judgment> many = judged(1500);
        List<Judgment> once = KbRanking.sample(many, KbFusion.MAX_MEASURED);
        assertThat(once).hasSize(KbFusion.MAX_MEASURED).isSubsetOf(many).doesNotHaveDuplicates();
        List<Judgment> reversed = new ArrayList<>(many);
        java.util.Collections.reverse(reversed);
        assertThat(KbRanking.sample(reversed, KbFusion.MAX_MEASURED)).as("by id, not by order")
                .containsExactlyElementsOf(once);
        assertThat(KbRanking.sample(judged(30), KbFusion.MAX_MEASURED)).hasSize(30);
    }
}
