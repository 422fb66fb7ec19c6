package io.polyrag.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.model.AnswerSource;
import io.polyrag.core.model.ChunkKind;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What of the sources a generated answer's prompt carries when they would not fit the model's context. */
class AnswerPromptTest {
    private static AnswerSource.Passage passage(String id, boolean hit) {
        return new AnswerSource.Passage(id, 0, ChunkKind.PROSE, List.of(), (id + " ").repeat(100), hit, "");
    }

    private static List<AnswerSource> sources(int n) {
        List<AnswerSource> out = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            out.add(new AnswerSource(i, "d" + i, "T" + i, "u" + i, "kb", List.of(passage("n" + i + "a", false),
                    passage("h" + i, true), passage("n" + i + "b", false))));
        }
        return out;
    }

    @Test
    void sources_that_do_not_fit_are_left_out_from_the_last_and_neighbours_go_before_hits() {
        List<AnswerSource> all = sources(200);
        assertThat(AnswerPrompt.fitted(all, 2_000_000)).isEqualTo(all);
        // About 1,700 characters of passages fit in 500 tokens: five hit passages (300 characters each), no
        // neighbour; the numbers stay 1..k, each source keeps its passages in reading order.
        List<AnswerSource> few = AnswerPrompt.fitted(all, 500);
        assertThat(few).extracting(AnswerSource::number).containsExactly(1, 2, 3, 4);
        assertThat(few).allSatisfy(s -> assertThat(s.passages()).extracting(AnswerSource.Passage::hit)
                .containsOnly(true));
        List<AnswerSource> room = AnswerPrompt.fitted(sources(2), 1000);
        assertThat(room.getFirst().passages()).extracting(AnswerSource.Passage::chunkId)
                .containsExactly("n1a", "h1", "n1b");
        String prompt = AnswerPrompt.build("q", AnswerPrompt.fitted(all, 16_000), 800).messages().getFirst()
                .content();
        assertThat(prompt.length()).isLessThan(16_000 * AnswerPrompt.CHARS_PER_TOKEN);
        assertThat(AnswerPrompt.fitted(all, 1)).as("the best source's hit is always sent").singleElement()
                .satisfies(s -> assertThat(s.passages()).extracting(AnswerSource.Passage::chunkId)
                        .containsExactly("h1"));
    }

    /** One document's many hits (a summary of a manual, a top_k of 30 in one) were all sent, over any budget. */
    @Test
    void the_best_sources_hits_are_cut_to_the_room_too_keeping_its_first() {
        List<AnswerSource.Passage> many = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            many.add(passage("h" + i, true));
        }
        AnswerSource manual = new AnswerSource(1, "d1", "Manual", "u1", "kb", many);
        List<AnswerSource> fitted = AnswerPrompt.fitted(List.of(manual), 500);
        assertThat(fitted.getFirst().passages()).extracting(AnswerSource.Passage::chunkId)
                .startsWith("h0", "h1", "h2").hasSizeLessThan(10);
        int chars = fitted.getFirst().passages().stream().mapToInt(p -> p.text().length()).sum();
        assertThat(chars).isLessThanOrEqualTo(500 * AnswerPrompt.CHARS_PER_TOKEN);
        assertThat(AnswerPrompt.fitted(List.of(manual), 1).getFirst().passages()).extracting(
                AnswerSource.Passage::chunkId).containsExactly("h0");
    }

    /** Chinese is counted a token a character: 12,000 characters were taken for 3,000 tokens, three windows. */
    @Test
    void sources_in_a_script_without_spaces_are_counted_by_their_tokens() {
        List<AnswerSource.Passage> ps = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            ps.add(new AnswerSource.Passage("z" + i, i, ChunkKind.PROSE, List.of(), "发酵面团需要十二小时。".repeat(100),
                    true, ""));
        }
        List<AnswerSource> fitted = AnswerPrompt.fitted(List.of(new AnswerSource(1, "d1", "面团", "u1", "kb", ps)),
                3_000);
        long chars = fitted.getFirst().passages().stream().mapToLong(p -> p.text().length()).sum();
        assertThat(chars).as("about one token a character").isLessThanOrEqualTo(3_000);
        assertThat(AnswerPrompt.size("面团 ab")).isEqualTo(11);
        assertThat(AnswerPrompt.within("面团面团 words", 9)).isEqualTo("面…");
    }

    /** A summary's found passage, added after the document's opening ones, is kept when the room is small. */
    @Test
    void a_summarys_found_passage_is_kept_before_the_rest_of_the_opening() {
        List<AnswerSource.Passage> ps = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            ps.add(new AnswerSource.Passage("c" + i, i, ChunkKind.PROSE, List.of(), ("c" + i + " ").repeat(100), true,
                    ""));
        }
        ps.add(new AnswerSource.Passage("found", 30, ChunkKind.PROSE, List.of(), "backup ".repeat(60), true, ""));
        List<AnswerSource> fitted = AnswerPrompt.fitted(List.of(new AnswerSource(1, "d1", "Manual", "u1", "kb", ps)),
                600);
        assertThat(fitted.getFirst().passages()).extracting(AnswerSource.Passage::chunkId).contains("c0", "found")
                .hasSizeLessThan(13);
    }
}
