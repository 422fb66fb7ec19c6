package io.polyrag.eval;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LongDocumentsTest {
    @TempDir
    Path tmp;

    @Test
    void joined_documents_keep_every_part_and_every_judgement_at_its_best_grade() throws Exception {
        Path src = Files.createDirectories(tmp.resolve("src"));
        StringBuilder corpus = new StringBuilder();
        for (int i = 0; i < 5; i++) {
            corpus.append("{\"_id\": \"d").append(i).append("\", \"title\": \"Title ").append(i)
                    .append("\", \"text\": \"Text number ").append(i).append(".\"}\n");
        }
        Files.writeString(src.resolve("corpus.jsonl"), corpus);
        Files.writeString(src.resolve("queries.jsonl"), "{\"_id\": \"q1\", \"text\": \"number\"}\n");
        Files.writeString(src.resolve("qrels-test.tsv"), "query-id\tcorpus-id\tscore\nq1\td0\t1\nq1\td1\t2\n"
                + "q1\td4\t1\nq1\tgone\t1\n");
        Path dest = tmp.resolve("long");
        LongDocuments.main(new String[] {src.toString(), dest.toString(), "--join", "2", "--seed", "3"});

        BeirDataset ds = BeirDataset.load(dest);
        assertThat(ds.corpus()).hasSize(3);
        String all = String.join("\n", ds.corpus().values().stream().map(BeirDataset.Doc::text).toList());
        for (int i = 0; i < 5; i++) {
            assertThat(all).contains("## Title " + i).contains("Text number " + i + ".");
        }
        List<String> qrels = Files.readAllLines(dest.resolve("qrels-test.tsv"));
        assertThat(qrels.getFirst()).isEqualTo("query-id\tcorpus-id\tscore");
        // Each judged part's joined document once, with the best grade of its parts; unknown ids dropped.
        java.util.Map<String, Integer> graded = new java.util.HashMap<>();
        for (String l : qrels.subList(1, qrels.size())) {
            String[] f = l.split("\t");
            assertThat(f[0]).isEqualTo("q1");
            assertThat(graded.put(f[1], Integer.parseInt(f[2]))).as("listed once").isNull();
        }
        String withD1 = ds.corpus().entrySet().stream().filter(e -> e.getValue().text().contains("Text number 1."))
                .findFirst().orElseThrow().getKey();
        assertThat(graded).containsEntry(withD1, 2);
        assertThat(graded.values()).allMatch(g -> g >= 1);

        // Judgements without a header line, one of them with a grade that is not a number: none lost but that one.
        Files.writeString(src.resolve("qrels-test.tsv"), "q1\td0\t1\nq1\td1\t2\nq1\td4\tx\n");
        LongDocuments.main(new String[] {src.toString(), dest.toString(), "--join", "1"});
        assertThat(Files.readAllLines(dest.resolve("qrels-test.tsv"))).hasSize(3)
                .first().isEqualTo("query-id\tcorpus-id\tscore");
        assertThat(BeirDataset.load(dest).qrels().get("q1")).hasSize(2);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> LongDocuments.main(new String[] {src.toString(),
                src.toString()})).hasMessageContaining("DEST is SRC");
    }

    /** BEIR's own layout (qrels/test.tsv), a title-only entry and a byte-order mark: DEST judged, nothing lost. */
    @Test
    void beirs_own_qrels_folder_is_rewritten_too() throws Exception {
        Path src = Files.createDirectories(tmp.resolve("beir"));
        Files.writeString(src.resolve("corpus.jsonl"), "\uFEFF{\"_id\": \"d0\", \"title\": \"Zero\", \"text\": \"Text "
                + "zero.\"}\n{\"_id\": \"d1\", \"title\": \"A title alone\"}\n");
        Files.writeString(src.resolve("queries.jsonl"), "{\"_id\": \"q1\", \"text\": \"zero\"}\n");
        Files.createDirectories(src.resolve("qrels"));
        Files.writeString(src.resolve("qrels/test.tsv"), "query-id\tcorpus-id\tscore\nq1\td1\t1\n");
        Path dest = tmp.resolve("beir-long");
        LongDocuments.main(new String[] {src.toString(), dest.toString(), "--join", "2"});
        assertThat(Files.readAllLines(dest.resolve("qrels/test.tsv"))).containsExactly("query-id\tcorpus-id\tscore",
                "q1\tlong-0\t1");
        assertThat(BeirDataset.load(dest).corpus().get("long-0").text()).contains("## A title alone")
                .contains("Text zero.");
        Files.delete(src.resolve("qrels/test.tsv"));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> LongDocuments.main(new String[] {src.toString(),
                tmp.resolve("unjudged").toString()})).hasMessageContaining("no judgements");
    }
}
