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
        Chunk chunk = Chunk.builder("doc-" + id, 1, 0).id(id).text(text).offsets(0, text.length()).tokenCount(1).build();
        return new Dedup.Candidate(new FusedHit(id, score, Map.of(modality, new SourceScore(rank, score)),
                Map.of(modality, score), List.of()), new ChunkView(chunk, "kb", "file:///" + id, "T"));
    }

    private final Dedup dedup = new Dedup(0.8);

    @Test
    void the_same_text_found_by_two_modalities_merges_into_the_better_hit_and_their_scores_add() {
        List<Dedup.Candidate> out = dedup.apply(List.of(c("a", 0.5, "Same words here.", "vector", 1),
                c("b", 0.3, "Same words here.", "fulltext", 2)), 10);
        assertThat(out).hasSize(1);
        assertThat(out.getFirst().hit().chunkId()).isEqualTo("a");
        assertThat(out.getFirst().hit().score()).isEqualTo(0.8);
        assertThat(out.getFirst().hit().sources()).containsOnlyKeys("vector", "fulltext");
        assertThat(out.getFirst().hit().merged()).containsExactly("b");
    }

    @Test
    void near_copies_found_by_one_modality_count_once_with_the_best_contribution() {
        List<Dedup.Candidate> copies = new java.util.ArrayList<>();
        copies.add(c("lead", 0.45, "The vault opens with a fingerprint scanner.", "fulltext", 1));
        for (int i = 0; i < 19; i++) {
            copies.add(c("tern" + i, 0.4 - i * 0.01, "Arctic terns and puffins migrate.", "vector", i + 1));
        }
        List<Dedup.Candidate> out = dedup.apply(copies, 10);
        assertThat(out).extracting(d -> d.hit().chunkId()).containsExactly("lead", "tern0");
        assertThat(out.get(1).hit().score()).isEqualTo(0.4);
        assertThat(out.get(1).hit().merged()).hasSize(18);
    }

    @Test
    void a_text_without_words_is_kept_beside_others_and_merges_only_with_another_without_words() {
        // A real abstract split into small chunks left chunks of nothing but ". . . ." (every search reaching one
        // failed with an index out of bounds).
        List<Dedup.Candidate> out = dedup.apply(List.of(c("dots", 0.9, ". . . . . . .", "vector", 1),
                c("words", 0.5, "Seismometers measure ground motion.", "vector", 2),
                c("dashes", 0.4, "— — —", "vector", 3), c("empty", 0.3, "", "vector", 4)), 10);
        assertThat(out).extracting(d -> d.hit().chunkId()).containsExactly("dots", "words");
        assertThat(out.getFirst().hit().merged()).containsExactly("dashes", "empty");
    }

    @Test
    void text_equal_after_normalising_case_accents_and_punctuation_merges() {
        assertThat(dedup.apply(List.of(c("a", 0.5, "Café, déjà vu!", "vector", 1),
                c("b", 0.4, "cafe deja   VU", "vector", 2)), 10)).hasSize(1);
    }

    @Test
    void word_overlap_at_the_threshold_merges_and_below_it_does_not() {
        String base = "one two three four five six seven eight";
        // 8 shared of 9 distinct words: Jaccard 0.889
        assertThat(dedup.apply(List.of(c("a", 1, base, "vector", 1), c("b", 1, base + " nine", "vector", 2)), 10))
                .hasSize(1);
        // 8 shared of 11 distinct words: Jaccard 0.727
        assertThat(dedup.apply(List.of(c("a", 1, base, "vector", 1),
                c("b", 1, base + " nine ten eleven", "vector", 2)), 10)).hasSize(2);
    }

    @Test
    void each_source_keeps_its_better_rank_and_merged_hits_are_re_sorted() {
        Dedup.Candidate top = c("top", 0.5, "unrelated leading text", "vector", 1);
        Dedup.Candidate x = c("x", 0.3, "dup text", "fulltext", 3);
        Dedup.Candidate y = c("y", 0.3, "dup text", "fulltext", 2);
        List<Dedup.Candidate> out = dedup.apply(List.of(top, x, y), 10);
        assertThat(out).extracting(d -> d.hit().chunkId()).containsExactly("top", "x");
        assertThat(out.get(1).hit().score()).as("the same modality twice counts once").isEqualTo(0.3);
        assertThat(out.get(1).hit().sources().get("fulltext").rank()).isEqualTo(2);
    }

    /** The reference: Jaccard overlap by plain sets (two empty sets are the same). */
    private static double jaccard(int[] a, int[] b) {
        java.util.Set<Integer> union = new java.util.HashSet<>();
        java.util.Set<Integer> common = new java.util.HashSet<>();
        java.util.Arrays.stream(a).forEach(union::add);
        java.util.Arrays.stream(b).filter(union::contains).forEach(common::add);
        java.util.Arrays.stream(b).forEach(union::add);
        return union.isEmpty() ? 1 : (double) common.size() / union.size();
    }

    /** Two versions of a fee list, one figure apart, were one hit: the other, maybe the current one, never cited. */
    @Test
    void nearly_equal_texts_that_differ_in_a_number_or_a_negation_stay_two() {
        String words = "The annual membership fee for the climbing club covers access to the walls, the gym and "
                + "the weekly training sessions, and members renew it each January at the front desk of the club ";
        assertThat(dedup.apply(List.of(c("a", 0.5, words + "for 45 euros.", "vector", 1),
                c("b", 0.4, words + "for 50 euros.", "vector", 2)), 10)).hasSize(2);
        assertThat(dedup.apply(List.of(c("a", 0.5, words + "and it is refundable.", "vector", 1),
                c("b", 0.4, words + "and it is not refundable.", "vector", 2)), 10)).hasSize(2);
        assertThat(dedup.apply(List.of(c("a", 0.5, words + "for 45 euros.", "vector", 1),
                c("b", 0.4, words + "for 45 euros only.", "vector", 2)), 10)).as("the same facts").hasSize(1);
        // The same in other scripts and languages, and with other signs.
        String zh = "会员须在每年一月续费，续费地点为俱乐部前台，会员可使用攀岩墙，会员可使用健身房，会员可参加每周训练，"
                + "训练由教练指导，教练均持有证书，场馆每天开放，节假日另行通知，儿童须由成人陪同，装备可在前台租用，";
        assertThat(dedup.apply(List.of(c("a", 0.5, zh + "会员年费为45元。", "vector", 1),
                c("b", 0.4, zh + "会员年费为50元。", "vector", 2)), 10)).hasSize(2);
        assertThat(dedup.apply(List.of(c("a", 0.5, "Die Jahresgebühr für den Kletterclub deckt den Zugang zu den "
                + "Wänden, dem Studio und den wöchentlichen Trainings ab, und die Mitglieder erneuern sie jedes Jahr im "
                + "Januar an der Rezeption; sie ist erstattungsfähig.", "vector", 1), c("b", 0.4, "Die Jahresgebühr "
                + "für den Kletterclub deckt den Zugang zu den Wänden, dem Studio und den wöchentlichen Trainings ab, "
                + "und die Mitglieder erneuern sie jedes Jahr im Januar an der Rezeption; sie ist nicht "
                + "erstattungsfähig.", "vector", 2)), 10)).hasSize(2);
        assertThat(dedup.apply(List.of(c("a", 0.5, "Metformin is contraindicated when eGFR < 30.", "vector", 1),
                c("b", 0.4, "Metformin is contraindicated when eGFR > 30.", "vector", 2)), 10))
                .as("the same words, another sign").hasSize(2);
        // One document's repeated boilerplate, a page number apart, still merges.
        assertThat(dedup.apply(List.of(inOneDocument("p3", words + "Page 3 of 10."),
                inOneDocument("p4", words + "Page 4 of 10.")), 10)).hasSize(1);
    }

    private static Dedup.Candidate inOneDocument(String id, String text) {
        Chunk chunk = Chunk.builder("manual", 1, id.hashCode() & 0xff).id(id).text(text).offsets(0, text.length())
                .tokenCount(1).build();
        return new Dedup.Candidate(new FusedHit(id, 0.5, Map.of("vector", new SourceScore(1, 0.5)),
                Map.of("vector", 0.5), List.of()), new ChunkView(chunk, "kb", "file:///manual", "T"));
    }

    /** Negations of any script count: \\b, ASCII-only, matched no word with a letter past ASCII at its edge. */
    @Test
    void negations_of_any_script_are_facts() {
        org.assertj.core.api.Assertions.assertThat(Dedup.sameFacts("Sin ningún cargo.", "Sin cargo.")).isFalse();
        org.assertj.core.api.Assertions.assertThat(Dedup.sameFacts("Возврат не возможен в течение месяца.",
                "Возврат возможен в течение месяца.")).isFalse();
        org.assertj.core.api.Assertions.assertThat(Dedup.sameFacts("Η επιστροφή δεν είναι δυνατή.",
                "Η επιστροφή είναι δυνατή.")).isFalse();
        org.assertj.core.api.Assertions.assertThat(Dedup.sameFacts("Возврат не возможен.", "Возврат не возможен!"))
                .as("the same negation in both").isTrue();
    }

    @Test
    void two_empty_sets_overlap_fully() {
        assertThat(Dedup.reaches(new int[0], new int[0], 1.0)).isTrue();
        assertThat(Dedup.reaches(new int[] {1, 2, 3}, new int[] {2, 3, 4}, 0.5)).isTrue();
        assertThat(Dedup.reaches(new int[] {1, 2, 3}, new int[] {2, 3, 4}, 0.51)).isFalse();
    }

    @Test
    void the_early_stopping_overlap_test_agrees_with_jaccard() {
        java.util.Random r = new java.util.Random(7);
        for (int n = 0; n < 20_000; n++) {
            int[] a = r.ints(r.nextInt(30), 0, 40).sorted().distinct().toArray();
            int[] b = r.nextBoolean() ? r.ints(r.nextInt(30), 0, 40).sorted().distinct().toArray()
                    : java.util.stream.IntStream.concat(java.util.Arrays.stream(a).filter(x -> r.nextInt(10) > 0),
                            r.ints(r.nextInt(3), 0, 40)).sorted().distinct().toArray();
            for (double t : new double[] {0.5, 0.6, 0.75, 0.8, 0.9, 1.0}) {
                assertThat(Dedup.reaches(a, b, t)).as("%s %s at %s", java.util.Arrays.toString(a),
                        java.util.Arrays.toString(b), t).isEqualTo(jaccard(a, b) >= t);
            }
        }
    }

    @Test
    void prefix_filtering_finds_every_pair_an_exhaustive_comparison_finds() {
        java.util.Random r = new java.util.Random(11);
        List<String> vocabulary = java.util.stream.IntStream.range(0, 60).mapToObj(i -> "w" + i).toList();
        List<Dedup.Candidate> cands = new java.util.ArrayList<>();
        for (int i = 0; i < 120; i++) {
            StringBuilder text = new StringBuilder();
            int base = r.nextInt(5) * 10;
            for (int w = 0; w < 12; w++) {
                text.append(vocabulary.get(base + (r.nextInt(10) < 8 ? w : r.nextInt(60 - base)))).append(' ');
            }
            cands.add(c("c" + i, 1.0 / (i + 1), text.toString(), "vector", i + 1));
        }
        List<Dedup.Candidate> fast = dedup.apply(cands, 1000);
        // Exhaustive reference: keep a candidate unless an earlier kept one is a duplicate of it.
        List<Dedup.Candidate> kept = new java.util.ArrayList<>();
        for (Dedup.Candidate cand : cands) {
            int[] words = Dedup.words(Dedup.normalise(cand.view().chunk().text()));
            boolean dup = kept.stream().anyMatch(k -> Dedup.normalise(k.view().chunk().text())
                    .equals(Dedup.normalise(cand.view().chunk().text()))
                    || jaccard(Dedup.words(Dedup.normalise(k.view().chunk().text())), words) >= 0.8);
            if (!dup) {
                kept.add(cand);
            }
        }
        assertThat(fast).extracting(d -> d.hit().chunkId()).containsExactlyInAnyOrderElementsOf(
                kept.stream().map(d -> d.hit().chunkId()).toList());
        assertThat(kept.size()).as("the data has duplicates to find").isBetween(20, 110);
    }

    @Test
    void candidates_past_the_limit_are_not_kept_but_earlier_duplicates_still_merge() {
        List<Dedup.Candidate> out = dedup.apply(List.of(c("a", 0.5, "first text", "vector", 1),
                c("b", 0.4, "second words", "vector", 2), c("a2", 0.3, "First text!", "fulltext", 1),
                c("c", 0.2, "third thing", "vector", 3)), 2);
        assertThat(out).extracting(d -> d.hit().chunkId()).containsExactly("a", "b");
        assertThat(out.getFirst().hit().score()).isEqualTo(0.8);
    }

    @Test
    void the_one_pass_normalisation_is_the_regular_expression_it_replaced() {
        java.util.regex.Pattern marks = java.util.regex.Pattern.compile("\\p{M}+");
        java.util.regex.Pattern nonWord = java.util.regex.Pattern.compile("[^\\p{L}\\p{N}]+");
        java.util.function.Function<String, String> reference = text -> {
            String s = text.chars().allMatch(ch -> ch < 0x80) ? text.toLowerCase(java.util.Locale.ROOT)
                    : marks.matcher(java.text.Normalizer.normalize(text, java.text.Normalizer.Form.NFKD)).replaceAll("")
                            .toLowerCase(java.util.Locale.ROOT);
            return nonWord.matcher(s).replaceAll(" ").strip();
        };
        java.util.List<String> samples = new java.util.ArrayList<>(java.util.List.of("", "   ", "Hello, World!",
                "a--b__c", "Café crème brûlée", "İstanbul ıi", "ﬁne ﬂour", "Ⅻ o'clock, x² + y₂", "日本語のテキスト",
                "Ελληνικά κείμενα", "emoji 🙂 here 🚀", "tab\tnew\nline", "١٢٣ arabic digits", "ß straße",
                "e\u0301 combining", "\u0000control\u0007"));
        java.util.Random random = new java.util.Random(7);
        for (int n = 0; n < 300; n++) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < 40; i++) {
                int cp = random.nextInt(4) == 0 ? random.nextInt(0x3000) : random.nextInt(0x80);
                if (Character.isValidCodePoint(cp) && !Character.isSurrogate((char) cp)) {
                    sb.appendCodePoint(cp);
                }
            }
            samples.add(sb.toString());
        }
        for (String x : samples) {
            String expected = reference.apply(x);
            assertThat(Dedup.normalise(x)).as(x).isEqualTo(expected);
            int[] words = expected.isEmpty() ? new int[0] : java.util.Arrays.stream(expected.split(" "))
                    .mapToInt(String::hashCode).sorted().distinct().toArray();
            assertThat(Dedup.normalised(x).words()).as(x).containsExactly(words);
        }
    }
}
