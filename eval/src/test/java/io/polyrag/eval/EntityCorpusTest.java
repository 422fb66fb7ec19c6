package io.polyrag.eval;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EntityCorpusTest {
    @TempDir
    Path tmp;

    @Test
    void the_same_seed_writes_the_same_bytes_and_a_loadable_dataset() throws Exception {
        EntityCorpus.Summary s = EntityCorpus.write(tmp.resolve("a"), 7, 64);
        EntityCorpus.write(tmp.resolve("b"), 7, 64);
        EntityCorpus.write(tmp.resolve("c"), 8, 64);
        for (String f : new String[] {"corpus.jsonl", "queries.jsonl", "qrels-train.tsv", "qrels-test.tsv"}) {
            assertThat(Files.readString(tmp.resolve("a").resolve(f))).as(f)
                    .isEqualTo(Files.readString(tmp.resolve("b").resolve(f)));
        }
        assertThat(Files.readString(tmp.resolve("a/corpus.jsonl")))
                .isNotEqualTo(Files.readString(tmp.resolve("c/corpus.jsonl")));
        BeirDataset test = BeirDataset.load(tmp.resolve("a"));
        BeirDataset train = BeirDataset.load(tmp.resolve("a"), "qrels-train.tsv");
        assertThat(test.warnings()).isEmpty();
        assertThat(test.corpus()).hasSize(s.documents());
        assertThat(test.qrels().size() + train.qrels().size()).isEqualTo(s.questions());
        assertThat(java.util.Collections.disjoint(test.qrels().keySet(), train.qrels().keySet())).isTrue();
        assertThat(s.multiHop()).isGreaterThan(s.questions() / 2);
    }

    @Test
    void a_multi_hop_answer_never_names_the_question_entity() {
        EntityCorpus.write(tmp, 19, 200);
        BeirDataset all = BeirDataset.load(tmp);
        Map<String, Map<String, Integer>> qrels = new java.util.HashMap<>(all.qrels());
        qrels.putAll(BeirDataset.load(tmp, "qrels-train.tsv").qrels());
        int checked = 0;
        for (var q : qrels.entrySet()) {
            String text = all.queries().get(q.getKey());
            // "…founded by Maren Ostrava…", "…makes the Bedruk 300?": the name follows "by", "the" or opens it.
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?:founded by|firm that|business|company|"
                    + "makes the|of the|producing the) ((?:[A-Z][\\w-]*\\s?){2,3})").matcher(text);
            if (!text.startsWith("Who founded") && !text.startsWith("Who is the founder") && !text.startsWith(
                    "Where was") && !text.startsWith("What is the birthplace") && !text.startsWith("Who makes")
                    && !text.startsWith("Which company produces") && m.find()) {
                String entity = m.group(1).strip().replaceAll("[?.]$", "");
                for (String doc : q.getValue().keySet()) {
                    assertThat(all.corpus().get(doc).text()).as(text + " / " + doc).doesNotContain(entity);
                }
                checked++;
            }
        }
        assertThat(checked).isGreaterThan(50);
        assertThat(Set.copyOf(all.corpus().values().stream().map(BeirDataset.Doc::title).toList()))
                .as("one document per entity, titled by its name").hasSize(all.corpus().size());
    }
}
