package io.polyrag.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.polyrag.app.Polyrag;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.config.Config;
import io.polyrag.core.model.Modality;
import io.polyrag.core.port.ProgressListener;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The harness on a small dataset the test writes, through the real facade and embedded stack. */
class EvaluationTest {
    @TempDir
    Path tmp;

    private static final String[][] DOCS = {
        {"d1", "Volcanoes", "Magma rises through the crust and erupts as lava from volcanic vents."},
        {"d2", "Glaciers", "Glaciers are slow rivers of ice that carve valleys as they move downhill."},
        {"d3", "Coral reefs", "Coral reefs are built by colonies of tiny animals and bleach when seas warm."},
        {"d4", "Bees", "Honey bees communicate the direction of flowers with a waggle dance."},
        {"d5", "Tides", "The gravitational pull of the moon raises the tides twice a day."},
        {"d6", "Deserts", "Deserts receive less than 250 millimetres of rain in a year."}};

    private Path dataset(String extraCorpus, String extraQrels) throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("mini"));
        StringBuilder corpus = new StringBuilder();
        for (String[] d : DOCS) {
            corpus.append("{\"_id\": \"").append(d[0]).append("\", \"title\": \"").append(d[1])
                    .append("\", \"text\": \"").append(d[2]).append("\"}\n");
        }
        Files.writeString(dir.resolve("corpus.jsonl"), corpus + extraCorpus);
        Files.writeString(dir.resolve("queries.jsonl"), """
                {"_id": "q1", "text": "lava erupting from a volcano"}
                {"_id": "q2", "text": "how do bees tell each other where flowers are"}
                {"_id": "q3", "text": "why do oceans rise and fall each day"}
                {"_id": "q4", "text": "   "}
                """);
        Files.writeString(dir.resolve("qrels-test.tsv"), "query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td4\t1\n"
                + "q3\td5\t2\n" + extraQrels);
        return dir;
    }

    @Test
    void evaluates_each_modality_and_their_fusion_through_the_facade() throws IOException {
        BeirDataset ds = BeirDataset.load(dataset("", ""));
        try (Polyrag p = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("idx").toString(),
                "search.max.top.k", "1000", "graph.enabled", "false", "rdf.enabled", "false")))) {
            List<String> log = new ArrayList<>();
            EvalReport r = Evaluation.run(p, ds, RunSpec.defaults(p.admin().status().modalities()), ProgressListener.NONE,
                    log::add);
            assertThat(r.documents()).isEqualTo(6);
            assertThat(r.queries()).isEqualTo(3);
            assertThat(r.runs()).extracting(EvalReport.Run::name).containsExactly("vector", "fulltext", "rrf",
                    "weighted");
            for (EvalReport.Run run : r.runs()) {
                assertThat(run.ndcg10()).as(run.name()).isBetween(0.5, 1.0);
                assertThat(run.recall100()).as(run.name()).isEqualTo(1.0);
                assertThat(run.p50Ms()).isPositive();
                assertThat(run.perQueryNdcg()).containsOnlyKeys("q1", "q2", "q3");
            }
            assertThat(r.runs().get(0).ndcg10()).as("dense finds the paraphrases").isEqualTo(1.0);
            for (EvalReport.Run run : r.runs()) {
                assertThat(run.ndcg10Ci95().get(0)).as(run.name()).isLessThanOrEqualTo(run.ndcg10());
                assertThat(run.ndcg10Ci95().get(1)).as(run.name()).isGreaterThanOrEqualTo(run.ndcg10());
                if (run.modalities().size() == 1) {
                    assertThat(run.vsBestSingle()).as(run.name()).isNull();
                } else {
                    assertThat(run.vsBestSingle().run()).as(run.name()).isEqualTo("vector");
                    assertThat(run.vsBestSingle().delta()).isCloseTo(run.ndcg10() - 1.0,
                            org.assertj.core.api.Assertions.within(1e-3));
                }
            }
            assertThat(r.ingest().chunks()).isEqualTo(6);
            assertThat(log).anyMatch(l -> l.contains("indexing 6 documents"));
            EvalReport again = Evaluation.run(p, ds, List.of(RunSpec.parse("fulltext", p.admin().status().modalities())),
                    ProgressListener.NONE, l -> { });
            assertThat(again.ingest().reused()).isEqualTo(6);
            assertThat(again.ingest().chunks()).isZero();
            String html = HtmlReport.render(r);
            assertThat(html).contains("<table>").contains("nDCG@10").contains("<svg").contains("against vector")
                    .contains("95% CI").contains("randomisation test");
        }
    }

    /**
     * An index reused for a corpus that lost documents (a subset, a generated set made again under the same name):
     * they leave the index, where they were searched and ranked as not relevant.
     */
    @Test
    void documents_the_corpus_no_longer_has_leave_the_index() throws IOException {
        String decoy = "{\"_id\": \"d7\", \"title\": \"Lava from a volcano\", \"text\": \"Lava erupting from a "
                + "volcano: lava erupting, a volcano erupting lava.\"}\n";
        try (Polyrag p = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("reused").toString(),
                "graph.enabled", "false", "rdf.enabled", "false")))) {
            List<RunSpec> fulltext = List.of(RunSpec.parse("fulltext", p.admin().status().modalities()));
            EvalReport before = Evaluation.run(p, BeirDataset.load(dataset(decoy, "")), fulltext,
                    ProgressListener.NONE, l -> { });
            assertThat(before.runs().getFirst().perQueryNdcg().get("q1")).as("the decoy outranks d1").isLessThan(1.0);
            List<String> log = new ArrayList<>();
            EvalReport after = Evaluation.run(p, BeirDataset.load(dataset("", "")), fulltext, ProgressListener.NONE,
                    log::add);
            assertThat(log).anyMatch(l -> l.contains("deleting 1 documents"));
            assertThat(after.runs().getFirst().perQueryNdcg().get("q1")).isEqualTo(1.0);
            assertThat(p.documents().list(null, 0, 100)).hasSize(6);
        }
    }

    @Test
    void malformed_lines_and_unknown_references_are_reported_and_skipped() throws IOException {
        BeirDataset ds = BeirDataset.load(dataset("{\"_id\": \"bad\", \"title\": \n[1]\n",
                "q1\tmissing-doc\t1\nq9\td1\t1\nq2\td4\n"));
        assertThat(ds.corpus()).hasSize(6);
        assertThat(ds.qrels()).containsOnlyKeys("q1", "q2", "q3");
        assertThat(ds.warnings()).anyMatch(w -> w.startsWith("corpus.jsonl:7: malformed JSON"))
                .anyMatch(w -> w.startsWith("corpus.jsonl:8: not a JSON object"))
                .anyMatch(w -> w.startsWith("queries.jsonl:4: query q4 is empty"))
                .anyMatch(w -> w.contains("1 judgements name queries missing"))
                .anyMatch(w -> w.contains("1 judgements name documents missing"))
                .anyMatch(w -> w.startsWith("qrels-test.tsv:7: expected query-id"));
    }

    /** A corpus written pretty-printed (a warning per line): the first ones per file, and how many more. */
    @Test
    void warnings_are_kept_per_file_up_to_a_bound_and_the_rest_counted() throws IOException {
        BeirDataset ds = BeirDataset.load(dataset("{\n".repeat(500), ""));
        assertThat(ds.warnings().stream().filter(w -> w.startsWith("corpus.jsonl:"))).hasSize(
                BeirDataset.WARNINGS_PER_FILE + 1);
        assertThat(ds.warnings()).contains("corpus.jsonl: " + (500 - BeirDataset.WARNINGS_PER_FILE) + " more "
                + "warnings like these, not listed");
    }

    @Test
    void files_saved_with_a_byte_order_mark_lose_no_line() throws IOException {
        Path dir = dataset("", "q2\td6\t0\n");
        for (String f : List.of("corpus.jsonl", "queries.jsonl", "qrels-test.tsv")) {
            Files.writeString(dir.resolve(f), "\uFEFF" + Files.readString(dir.resolve(f)));
        }
        BeirDataset ds = BeirDataset.load(dir);
        assertThat(ds.corpus()).hasSize(6).containsKey("d1");
        assertThat(ds.qrels()).containsOnlyKeys("q1", "q2", "q3");
        assertThat(ds.warnings()).noneMatch(w -> w.contains("corpus.jsonl:1") || w.contains("queries.jsonl:1")
                || w.contains("qrels-test.tsv:1") || w.contains("missing"));
        // Without a header the first judgement is the first line, its query id after the mark.
        Files.writeString(dir.resolve("qrels-test.tsv"), "\uFEFFq1\td1\t1\nq2\td4\t1\n");
        assertThat(BeirDataset.load(dir).qrels()).containsOnlyKeys("q1", "q2");
    }

    @Test
    void a_query_judged_only_not_relevant_is_left_out_and_said() throws IOException {
        Path dir = dataset("", "");
        Files.writeString(dir.resolve("qrels-test.tsv"), "q1\td1\t1\nq2\td4\t0\nq2\td6\t0\n");
        BeirDataset ds = BeirDataset.load(dir);
        assertThat(ds.qrels()).containsOnlyKeys("q1");
        assertThat(ds.warnings()).anyMatch(w -> w.contains("1 query has no judgement above 0"));
    }

    /** An entry without a title (FiQA, Quora) is indexed without one: its id was its title, heading every chunk. */
    @Test
    void an_entry_without_a_title_is_not_titled_by_its_id() {
        try (Polyrag p = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("untitled").toString(),
                "vector.enabled", "false", "graph.enabled", "false", "rdf.enabled", "false")))) {
            p.ingest().items(List.of(Evaluation.item(new BeirDataset.Doc("2016", "", "Tax brackets explained.")),
                    Evaluation.item(new BeirDataset.Doc("7", "Lava", "Lava tubes of Hawaii."))),
                    io.polyrag.core.model.KnowledgeBase.of("eval"), ProgressListener.NONE);
            assertThat(p.search().run(io.polyrag.core.model.SearchRequest.builder("2016").knowledgeBases(
                    List.of("eval")).build()).hits()).as("the id is no word of the document").isEmpty();
            assertThat(p.search().run(io.polyrag.core.model.SearchRequest.builder("tax brackets").knowledgeBases(
                    List.of("eval")).build()).hits().getFirst().title()).isEmpty();
            assertThat(p.search().run(io.polyrag.core.model.SearchRequest.builder("lava").knowledgeBases(
                    List.of("eval")).build()).hits().getFirst().title()).isEqualTo("Lava");
        }
    }

    @Test
    void an_entry_of_a_title_alone_is_indexed_with_it_as_its_text() {
        var item = Evaluation.item(new BeirDataset.Doc("t1", "Lava tubes of Hawaii", ""));
        assertThat(new String(item.content(), java.nio.charset.StandardCharsets.UTF_8))
                .contains("<body><p>Lava tubes of Hawaii</p>");
    }

    /** Nothing usable (TREC-style qrels here): the error says why, with the warnings that were not printed. */
    @Test
    void a_dataset_with_nothing_to_evaluate_says_why() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("trec"));
        Files.writeString(dir.resolve("corpus.jsonl"), "{\"_id\": \"d1\", \"text\": \"Tides rise.\"}\n");
        Files.writeString(dir.resolve("queries.jsonl"), "{\"_id\": \"q1\", \"text\": \"tides\"}\n");
        Files.writeString(dir.resolve("qrels-test.tsv"), "q1 0 d1 1\n");
        assertThatThrownBy(() -> BeirDataset.load(dir)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("nothing to evaluate").hasMessageContaining("expected query-id");
    }

    @Test
    void a_missing_file_is_named() throws IOException {
        Path dir = dataset("", "");
        Files.delete(dir.resolve("queries.jsonl"));
        assertThatThrownBy(() -> BeirDataset.load(dir)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("queries.jsonl is missing");
        assertThatThrownBy(() -> BeirDataset.load(tmp.resolve("nope"))).hasMessageContaining("is not a directory");
    }

    @Test
    void run_names_parse_into_modalities_and_fusion() {
        List<Modality> enabled = List.of(Modality.VECTOR, Modality.FULLTEXT);
        assertThat(RunSpec.parse("vector+fulltext:weighted", enabled).modalities()).hasSize(2);
        assertThat(RunSpec.parse("rrf", enabled).fusion()).hasToString("rrf");
        assertThatThrownBy(() -> RunSpec.parse("graph", enabled)).hasMessageContaining("not enabled");
        assertThatThrownBy(() -> RunSpec.parse("magic", enabled)).hasMessageContaining("unknown modality");
    }

    private static io.polyrag.core.model.SearchHit hit(String uri) {
        return io.polyrag.core.model.SearchHit.builder().rank(1).score(1).documentId("x").chunkId("c").uri(uri)
                .title("t").text("text").knowledgeBase("eval").version(1).build();
    }

    @Test
    void a_hits_merged_duplicates_count_right_after_it() {
        var h = io.polyrag.core.model.SearchHit.builder().rank(1).score(1).documentId("x").chunkId("c")
                .uri("beir:d2").title("t").text("text").knowledgeBase("eval").version(1)
                .merged(List.of("abc-v1-0", "q7id-v2-3", "unknown-v1-0")).build();
        assertThat(Evaluation.documents(List.of(h, hit("beir:d1"), hit("beir:d3")), "q7", Map.of("abc", "d3",
                "q7id", "q7"))).containsExactly("d2", "d3", "d1");
    }

    @Test
    void chunk_hits_become_a_document_ranking_without_the_query_itself() {
        assertThat(Evaluation.documents(List.of(hit("beir:d2"), hit("beir:q7"), hit("beir:d1"), hit("beir:d2")),
                "q7")).containsExactly("d2", "d1");
    }

    @Test
    void the_raw_library_reference_runs_beside_polyrag_and_fused_runs_are_compared_with_it() throws IOException {
        BeirDataset ds = BeirDataset.load(dataset("", ""));
        try (Polyrag p = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("raw").toString(),
                "search.max.top.k", "1000")))) {
            var enabled = p.admin().status().modalities();
            List<RunSpec> runs = java.util.stream.Stream.of("vector", "weighted", "raw-bm25", "raw-vector", "raw-rrf",
                    "raw-minmax").map(n -> RunSpec.parse(n, enabled)).toList();
            List<String> log = new ArrayList<>();
            Path runFiles = tmp.resolve("runs");
            EvalReport r = Evaluation.run(p, ds, runs, ProgressListener.NONE, log::add, runFiles);
            assertThat(r.runs()).extracting(EvalReport.Run::name).containsExactly("vector", "weighted", "raw-bm25",
                    "raw-vector", "raw-rrf", "raw-minmax");
            // Each run's ranking as a TREC run file, from which its nDCG@10 is what the report says.
            for (EvalReport.Run run : r.runs()) {
                List<String> lines = Files.readAllLines(runFiles.resolve(Evaluation.runFileName(
                        run.name())));
                assertThat(lines).as(run.name()).isNotEmpty().allMatch(l -> l.matches("\\S+ Q0 \\S+ \\d+ \\S+ "
                        + java.util.regex.Pattern.quote(run.name())));
                // Read as trec_eval reads it: by score, ties broken by the document id, descending.
                Map<String, List<String[]>> byQuery = new java.util.LinkedHashMap<>();
                lines.forEach(l -> byQuery.computeIfAbsent(l.split(" ")[0], q -> new ArrayList<>()).add(l.split(" ")));
                Map<String, List<String>> ranked = new java.util.LinkedHashMap<>();
                byQuery.forEach((q, rows) -> {
                    for (int i = 1; i < rows.size(); i++) {
                        assertThat(Double.parseDouble(rows.get(i)[4])).as(run.name() + " " + q + " line " + i)
                                .isLessThan(Double.parseDouble(rows.get(i - 1)[4]));
                    }
                    ranked.put(q, rows.stream().sorted(java.util.Comparator.<String[]>comparingDouble(
                            f -> -Double.parseDouble(f[4])).thenComparing(f -> f[2], java.util.Comparator
                            .reverseOrder())).map(f -> f[2]).toList());
                });
                double mean = ds.qrels().entrySet().stream().mapToDouble(q -> io.polyrag.app.quality.Metrics.ndcg(
                        ranked.getOrDefault(q.getKey(), List.of()), q.getValue(), 10)).average().orElseThrow();
                assertThat(mean).as(run.name()).isCloseTo(run.ndcg10(), org.assertj.core.api.Assertions.within(1e-4));
            }
            assertThat(Evaluation.runFileName("vector+fulltext:weighted")).isEqualTo("vector+fulltext_weighted.trec");
            // The charts draw polyrag's best fused run against its single legs, never a raw-library reference.
            assertThat(HtmlReport.render(r)).contains("<h2>weighted against vector</h2>").doesNotContain("<h2>raw-");
            EvalReport.Run rawVector = r.runs().get(3);
            assertThat(rawVector.ndcg10()).as("one vector per document finds the paraphrases too").isEqualTo(1.0);
            assertThat(rawVector.fusion()).isEqualTo("none (raw)");
            assertThat(r.runs().get(4).fusion()).isEqualTo("rrf (raw)");
            assertThat(r.runs().get(5).fusion()).isEqualTo("weighted (raw)");
            EvalReport.Run weighted = r.runs().get(1);
            // Compared with the better of the two raw fusions.
            EvalReport.Run better = r.runs().get(5).ndcg10() > r.runs().get(4).ndcg10() ? r.runs().get(5)
                    : r.runs().get(4);
            assertThat(weighted.vsRaw().run()).isEqualTo(better.name());
            assertThat(weighted.vsRaw().delta()).isCloseTo(weighted.ndcg10() - better.ndcg10(),
                    org.assertj.core.api.Assertions.within(1e-3));
            assertThat(weighted.vsBestSingle().run()).as("a raw run is not polyrag's best single").isEqualTo("vector");
            assertThat(r.runs().get(2).vsRaw()).isNull();
            assertThat(log).anyMatch(l -> l.contains("raw reference: embedding 6 documents"));
        }
    }

    @Test
    void raw_minmax_adds_each_lists_scores_mapped_to_zero_one_with_equal_weights() {
        // a: 10 -> 1, 5 -> 0.5, 0 -> 0; b: 3 -> 1, 1 -> 0. Sums: x 0.5 + 1, y 1 + 0, z 0 + 0.
        assertThat(RawReference.minmax(List.of(new RawReference.Scored("y", 10), new RawReference.Scored("x", 5),
                new RawReference.Scored("z", 0)), List.of(new RawReference.Scored("x", 3),
                new RawReference.Scored("z", 1)))).containsExactly("x", "y", "z");
    }

    @Test
    void raw_rrf_sums_reciprocal_ranks_over_both_lists() {
        assertThat(RawReference.rrf(List.of("a", "b", "c"), List.of("b", "d"))).containsExactly("b", "a", "d", "c");
    }
}
