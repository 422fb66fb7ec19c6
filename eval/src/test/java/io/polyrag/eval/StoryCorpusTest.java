package io.polyrag.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.polyrag.eval.StoryCorpus.Name;
import io.polyrag.eval.StoryCorpus.Question;
import io.polyrag.eval.StoryCorpus.Story;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoryCorpusTest {
    private static final int CAPTAINS = 60;
    private static final List<String> FILES = List.of("corpus.jsonl", "queries.jsonl", "qrels-train.tsv",
            "qrels-test.tsv");

    @TempDir
    Path tmp;

    @Test
    void the_same_seed_writes_the_same_bytes_and_another_seed_other_ones() throws IOException {
        StoryCorpus.write(tmp.resolve("a"), 7, CAPTAINS);
        StoryCorpus.write(tmp.resolve("b"), 7, CAPTAINS);
        StoryCorpus.write(tmp.resolve("c"), 8, CAPTAINS);
        for (String f : FILES) {
            assertThat(Files.readAllBytes(tmp.resolve("b").resolve(f))).as(f)
                    .isEqualTo(Files.readAllBytes(tmp.resolve("a").resolve(f)));
            assertThat(Files.readAllBytes(tmp.resolve("c").resolve(f))).as(f)
                    .isNotEqualTo(Files.readAllBytes(tmp.resolve("a").resolve(f)));
        }
    }

    @Test
    void the_kinds_come_in_shares_of_about_fifty_thirty_twenty() {
        List<Question> questions = StoryCorpus.generate(7, CAPTAINS).questions();
        Map<String, Long> kinds = questions.stream().collect(Collectors.groupingBy(Question::kind,
                Collectors.counting()));
        assertThat(questions).hasSize(45);
        assertThat(kinds.get("two-hop") / 45.0).isCloseTo(0.5, within(0.03));
        assertThat(kinds.get("one-hop") / 45.0).isCloseTo(0.3, within(0.03));
        assertThat(kinds.get("plain") / 45.0).isCloseTo(0.2, within(0.03));
    }

    @Test
    void every_two_hop_form_has_at_least_eight_percent_of_the_two_hop_questions_at_the_default_size() {
        List<Question> twoHop = StoryCorpus.generate(7, 600).questions().stream()
                .filter(q -> q.kind().equals("two-hop")).toList();
        Map<String, Long> forms = twoHop.stream().collect(Collectors.groupingBy(Question::form,
                Collectors.counting()));
        assertThat(twoHop).hasSize(225);
        assertThat(forms).hasSize(7);
        assertThat(forms.values()).allSatisfy(n -> assertThat(n).isGreaterThanOrEqualTo(18));
    }

    @Test
    void a_two_hop_questions_relevant_document_names_the_bridge_but_never_the_entity_it_asks_about() {
        Story story = StoryCorpus.generate(7, CAPTAINS);
        Map<String, BeirDataset.Doc> docs = byId(story);
        List<Question> twoHop = story.questions().stream().filter(q -> q.kind().equals("two-hop")).toList();
        assertThat(twoHop).isNotEmpty().allSatisfy(q -> {
            assertThat(q.entity()).isNotBlank();
            assertThat(q.text().toLowerCase(Locale.ROOT)).contains(q.entity().toLowerCase(Locale.ROOT));
            assertThat(q.relevant()).hasSize(1);
            assertThat(q.relevant()).allSatisfy(id -> {
                assertThat(mentions(docs.get(id), q.entity())).as("%s names %s", id, q.entity()).isFalse();
                assertThat(mentions(docs.get(id), q.bridge())).as("%s names %s", id, q.bridge()).isTrue();
            });
        });
    }

    @Test
    void a_one_hop_questions_relevant_document_names_the_entity_it_asks_about() {
        Story story = StoryCorpus.generate(7, CAPTAINS);
        Map<String, BeirDataset.Doc> docs = byId(story);
        List<Question> oneHop = story.questions().stream().filter(q -> q.kind().equals("one-hop")).toList();
        assertThat(oneHop).isNotEmpty().allSatisfy(q -> {
            assertThat(q.relevant()).hasSize(1);
            assertThat(mentions(docs.get(q.relevant().get(0)), q.entity())).as(q.text()).isTrue();
        });
    }

    @Test
    void a_plain_question_names_nothing_and_has_one_to_five_relevant_documents() {
        List<Question> plain = StoryCorpus.generate(7, CAPTAINS).questions().stream()
                .filter(q -> q.kind().equals("plain")).toList();
        assertThat(plain).isNotEmpty().allSatisfy(q -> {
            assertThat(q.entity()).isEmpty();
            assertThat(q.relevant()).hasSizeBetween(1, 5).doesNotHaveDuplicates();
        });
    }

    @Test
    void train_and_test_are_disjoint_and_cover_every_query() throws IOException {
        Story story = StoryCorpus.generate(7, CAPTAINS);
        StoryCorpus.write(tmp, 7, CAPTAINS);
        Set<String> train = judged(tmp.resolve("qrels-train.tsv"));
        Set<String> test = judged(tmp.resolve("qrels-test.tsv"));
        assertThat(train).doesNotContainAnyElementsOf(test);
        Set<String> all = new HashSet<>(train);
        all.addAll(test);
        assertThat(all).containsExactlyInAnyOrderElementsOf(story.questions().stream().map(Question::id).toList());
        assertThat(test).containsExactlyInAnyOrderElementsOf(story.test());
        assertThat(Math.abs(train.size() - test.size())).isLessThanOrEqualTo(1);
    }

    @Test
    void every_judged_document_is_in_the_corpus_and_nothing_is_empty() throws IOException {
        StoryCorpus.write(tmp, 7, CAPTAINS);
        for (String qrels : List.of("qrels-train.tsv", "qrels-test.tsv")) {
            BeirDataset data = BeirDataset.load(tmp, qrels);
            assertThat(data.warnings()).as(qrels).isEmpty();
            assertThat(data.qrels().values()).allSatisfy(judged -> assertThat(data.corpus()).containsKeys(
                    judged.keySet().toArray(String[]::new)));
            assertThat(data.corpus().values()).allSatisfy(d -> {
                assertThat(d.title()).isNotBlank();
                assertThat(d.text()).isNotBlank();
            });
            assertThat(data.queries().values()).allSatisfy(q -> assertThat(q).isNotBlank());
        }
        assertThat(Files.readString(tmp.resolve("queries.jsonl"), StandardCharsets.UTF_8))
                .contains("\"metadata\":{\"kind\":\"two-hop\"}", "\"metadata\":{\"kind\":\"one-hop\"}",
                        "\"metadata\":{\"kind\":\"plain\"}");
    }

    @Test
    void names_repeat_only_in_the_deliberate_distractor_pairs() {
        List<Name> names = StoryCorpus.generate(7, 600).names();
        assertThat(names).extracting(n -> n.name().toLowerCase(Locale.ROOT)).doesNotHaveDuplicates();
        Map<String, Name> byId = names.stream().collect(Collectors.toMap(Name::id, Function.identity()));
        Map<String, List<Name>> byKey = names.stream().collect(Collectors.groupingBy(
                n -> n.key().toLowerCase(Locale.ROOT), LinkedHashMap::new, Collectors.toList()));
        assertThat(byKey.values()).allSatisfy(group -> {
            assertThat(group).hasSizeLessThanOrEqualTo(2);
            if (group.size() == 2) {
                assertThat(group.get(0).twin()).isEqualTo(group.get(1).id());
                assertThat(group.get(1).twin()).isEqualTo(group.get(0).id());
            }
        });
        List<Name> twinned = names.stream().filter(n -> !n.twin().isEmpty()).toList();
        assertThat(twinned).allSatisfy(n -> {
            assertThat(byId.get(n.twin()).key()).isEqualTo(n.key());
            assertThat(n.name()).containsIgnoringCase(n.key());
        });
        Set<String> sorts = twinned.stream().map(n -> kind(n.id()) + "/" + kind(n.twin())).collect(Collectors.toSet());
        assertThat(sorts).contains("ship/ship", "port/port", "yard/museum", "person/person");
    }

    @Test
    void about_a_third_of_the_relations_live_in_a_note_of_their_own() {
        StoryWorld world = StoryWorld.build(new Random(7), 600);
        List<String> docs = new ArrayList<>();
        world.builds().forEach(b -> docs.add(b.doc()));
        world.commands().forEach(c -> docs.add(c.doc()));
        world.births().forEach(b -> docs.add(b.doc()));
        world.foundings().forEach(f -> docs.add(f.doc()));
        world.wrights().forEach(w -> docs.add(w.doc()));
        world.holdings().forEach(h -> docs.add(h.doc()));
        world.authorships().forEach(a -> docs.add(a.doc()));
        long notes = docs.stream().filter(d -> d.startsWith("note-")).count();
        assertThat((double) notes / docs.size()).isCloseTo(1 / 3.0, within(0.04));
        assertThat(world.notes()).hasSize((int) notes);
    }

    private static String kind(String id) {
        return id.substring(0, id.indexOf('-'));
    }

    private static Map<String, BeirDataset.Doc> byId(Story story) {
        return story.documents().stream().collect(Collectors.toMap(BeirDataset.Doc::id, Function.identity()));
    }

    private static boolean mentions(BeirDataset.Doc doc, String name) {
        String needle = name.toLowerCase(Locale.ROOT);
        return (doc.title() + "\n" + doc.text()).toLowerCase(Locale.ROOT).contains(needle);
    }

    private static Set<String> judged(Path qrels) throws IOException {
        List<String> lines = Files.readAllLines(qrels, StandardCharsets.UTF_8);
        assertThat(lines.get(0)).isEqualTo("query-id\tcorpus-id\tscore");
        return lines.subList(1, lines.size()).stream().map(l -> {
            assertThat(l.split("\t")).hasSize(3).endsWith("1");
            return l.split("\t")[0];
        }).collect(Collectors.toSet());
    }
}
