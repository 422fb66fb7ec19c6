package io.polyrag.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.model.Chunk;
import io.polyrag.core.model.ChunkKind;
import io.polyrag.core.model.ChunkView;
import io.polyrag.core.model.SourceScore;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DedupTest {
    private static Dedup.Candidate c(String id, double score, String text, String modality, int rank) {
        Chunk chunk = new Chunk(id, "doc-" + id, 1, 0, ChunkKind.PROSE, text, List.of(), 0, text.length(), 1, "");
        return new Dedup.Candidate(new FusedHit(id, score, Map.of(modality, new SourceScore(rank, score))),
                new ChunkView(chunk, "kb", "file:///" + id, "T"));
    }

    private final Dedup dedup = new Dedup(0.8);

    @Test
    void the_same_text_under_two_ids_merges_into_the_better_hit_and_scores_add() {
        List<Dedup.Candidate> out = dedup.apply(List.of(c("a", 0.5, "Same words here.", "vector", 1),
                c("b", 0.3, "Same words here.", "fulltext", 2)));
        assertThat(out).hasSize(1);
        assertThat(out.getFirst().hit().chunkId()).isEqualTo("a");
        assertThat(out.getFirst().hit().score()).isEqualTo(0.8);
        assertThat(out.getFirst().hit().sources()).containsOnlyKeys("vector", "fulltext");
    }

    @Test
    void text_equal_after_normalising_case_accents_and_punctuation_merges() {
        assertThat(dedup.apply(List.of(c("a", 0.5, "Café, déjà vu!", "vector", 1),
                c("b", 0.4, "cafe deja   VU", "vector", 2)))).hasSize(1);
    }

    @Test
    void word_overlap_at_the_threshold_merges_and_below_it_does_not() {
        String base = "one two three four five six seven eight";
        // 8 shared of 9 distinct words: Jaccard 0.889
        assertThat(dedup.apply(List.of(c("a", 1, base, "vector", 1), c("b", 1, base + " nine", "vector", 2))))
                .hasSize(1);
        // 8 shared of 11 distinct words: Jaccard 0.727
        assertThat(dedup.apply(List.of(c("a", 1, base, "vector", 1),
                c("b", 1, base + " nine ten eleven", "vector", 2)))).hasSize(2);
    }

    @Test
    void each_source_keeps_its_better_rank_and_merged_hits_are_re_sorted() {
        Dedup.Candidate top = c("top", 0.5, "unrelated leading text", "vector", 1);
        Dedup.Candidate x = c("x", 0.3, "dup text", "fulltext", 3);
        Dedup.Candidate y = c("y", 0.3, "dup text", "fulltext", 2);
        List<Dedup.Candidate> out = dedup.apply(List.of(top, x, y));
        assertThat(out).extracting(d -> d.hit().chunkId()).containsExactly("x", "top");
        assertThat(out.getFirst().hit().score()).isEqualTo(0.6);
        assertThat(out.getFirst().hit().sources().get("fulltext").rank()).isEqualTo(2);
    }

    @Test
    void jaccard_of_two_empty_sets_is_one() {
        assertThat(Dedup.jaccard(java.util.Set.of(), java.util.Set.of())).isEqualTo(1.0);
    }
}
