package io.polyrag.app;

import io.polyrag.core.model.KnowledgeBase;
import io.polyrag.app.api.TextIngest;
import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.config.Config;
import io.polyrag.core.model.SearchHit;
import io.polyrag.core.model.SearchRequest;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Near-copies merged by dedup: agreement between modalities is evidence, repetition inside one modality is not. Twenty
 * near-identical notes must not outrank, by the sum of their copies' scores, the one text both retrievers rank first.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DedupRankingTest {
    @TempDir
    static Path tmp;

    private Polyrag polyrag;

    @BeforeAll
    void ingest() {
        polyrag = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("data").toString())));
        // Copies that differ in a word: copies that differ in a number are two documents' different facts (a fee
        // list of 2023 and one of 2024), which dedup keeps apart.
        List<String> words = List.of("alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india",
                "juliet", "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango");
        for (int i = 1; i <= 20; i++) {
            polyrag.ingest().text(new TextIngest("Document " + words.get(i - 1) + " talks about the migration of "
                    + "arctic terns and puffins seen " + words.get(i - 1) + ".", "note " + i, "note:" + i, "text",
                    KnowledgeBase.of("kb")));
        }
        polyrag.ingest().text(new TextIngest("The vault now opens with a fingerprint scanner.", "vault",
                "note:vault", "text", KnowledgeBase.of("kb")));
    }

    @AfterAll
    void close() {
        polyrag.close();
    }

    private List<SearchHit> search(String query, String fusion) {
        return polyrag.search().run(new SearchRequest(query, 5, List.of(), java.util.Set.of(),
                io.polyrag.core.model.FusionMethod.parse(fusion))).hits();
    }

    @ParameterizedTest
    @ValueSource(strings = {"weighted", "rrf"})
    void the_text_both_retrievers_rank_first_is_first_whatever_near_copies_merged_into_another(String fusion) {
        List<SearchHit> hits = search("vault fingerprint", fusion);
        assertThat(hits.getFirst().uri()).isEqualTo("note:vault");
        SearchHit copies = hits.stream().filter(h -> !h.uri().equals("note:vault")).findFirst().orElseThrow();
        assertThat(copies.merged()).as("the merged near-copies are shown").isNotEmpty();
    }

    @org.junit.jupiter.api.Test
    void a_merged_hit_scores_no_more_than_the_best_rank_of_each_modality_under_rrf() {
        SearchHit top = search("arctic terns", "rrf").getFirst();
        assertThat(top.merged()).hasSizeGreaterThan(10);
        // Each modality counts once, with its best contribution (at most rank 1: 1 / (60 + 1)), not once per copy.
        assertThat(top.score()).isLessThanOrEqualTo(2.0 / 61 + 1e-12);
    }
}
