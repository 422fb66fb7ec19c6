package io.polyrag.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.polyrag.app.api.FusionTuning;
import io.polyrag.app.api.JudgedQuery;
import io.polyrag.app.api.KbEvaluation;
import io.polyrag.app.api.TextIngest;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.NotFoundException;
import io.polyrag.core.model.FusionMethod;
import io.polyrag.core.model.JobInfo;
import io.polyrag.core.model.JobStatus;
import io.polyrag.core.model.KnowledgeBase;
import io.polyrag.core.model.SearchRequest;
import io.polyrag.core.model.SearchResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fusion learned from a knowledge base's judged queries. The collection is built so that the configured fusion (equal
 * weights) is misled: each question asks about a unit by its code in words ("warranty", "covers", "unit") that a few
 * general warranty pages repeat and the unit's own record never uses. Full text ranks those pages high; the vector
 * leg finds the record by its code. Tuning must find that the vector leg deserves more weight here (measured: nDCG@10
 * 0.72 with equal weights, 0.79 with the vector leg at 0.9), apply it to this knowledge base only, and say so in the
 * search's explanation; the evaluation must show it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KbFusionTest {
    @TempDir
    static Path tmp;

    private Polyrag polyrag;
    private static final String KB = "units";
    private static final int UNITS = 40;
    private static final String[] CROPS = {"apple", "pear", "plum", "cherry", "barley", "oat", "rye", "hops",
        "quince", "grape"};
    private static final String[] PLACES = {"Lund", "Bergen", "Tartu", "Oulu", "Aarhus", "Turku"};

    private static String code(int i) {
        return "KX-" + (4100 + 37 * i);
    }

    @BeforeAll
    void open() {
        polyrag = Polyrag.open(PolyragTest.config(tmp.resolve("data"), Map.of()));
        KnowledgeBase kb = KnowledgeBase.of(KB);
        for (int i = 0; i < UNITS; i++) {
            polyrag.ingest().text(new TextIngest("Record " + code(i) + ". The " + CROPS[i % CROPS.length]
                    + " harvest near " + PLACES[i % PLACES.length] + " was logged by field crew " + (i % 7 + 1)
                    + " on a cold morning; the crates went to the " + PLACES[(i + 2) % PLACES.length] + " depot.",
                    "Record " + code(i), "unit:" + i, null, kb, false));
        }
        for (int i = 0; i < 8; i++) {
            polyrag.ingest().text(new TextIngest("Warranty coverage explained, part " + (i + 1) + ": which units our "
                    + "warranty covers, how long the warranty lasts for each unit, and how a warranty claim for a "
                    + "faulty unit is made and handled.", "Warranty guide " + (i + 1), "warranty:" + i, null, kb,
                    false));
        }
        polyrag.ingest().text(new TextIngest("An unrelated note about the weather.", "Weather", "other:1", null,
                KnowledgeBase.of("other"), false));
    }

    @AfterAll
    void close() {
        polyrag.close();
    }

    /**
     * A tuning written by a later release (a rolling upgrade, a rollback) carries fields this one does not know: it is
     * read (they are skipped), and a row that cannot be read at all is taken as no tuning. Read strictly, either made
     * every search of the knowledge base, and every search naming none, a 500.
     */
    @Test
    void a_tuning_stored_by_a_later_release_is_read_and_a_damaged_one_ignored() {
        FusionTuning written = new FusionTuning(true, "weighted", Map.of("vector", 0.8, "fulltext", 0.2), null, 20, 5,
                0.5, 0.6, 0.1, 0.01, "applied", 40, java.time.Instant.parse("2026-12-01T00:00:00Z"), List.of(), 100,
                null, null);
        String later = Json.MAPPER.writeValueAsString(written).replaceFirst("\\{", "{\"from_a_later_release\":1,");
        Map<String, String> rows = new java.util.HashMap<>(Map.of("acme/kb", later, "acme/broken", "{\"applied\": tr"));
        io.polyrag.core.port.JudgmentStore store = new io.polyrag.core.port.JudgmentStore() {
            public void putJudgments(String kb, List<io.polyrag.core.port.JudgmentStore.Judgment> j) { }
            public List<io.polyrag.core.port.JudgmentStore.Judgment> judgments(String kb) { return List.of(); }
            public int deleteJudgments(String kb, String queryId) { return 0; }
            public java.util.Optional<String> tuning(String kb) { return java.util.Optional.ofNullable(rows.get(kb)); }
            public void putTuning(String kb, String json) { }
            public java.util.Optional<String> evaluation(String kb) { return java.util.Optional.ofNullable(rows.get(kb)); }
            public void putEvaluation(String kb, String json) { }
        };
        KbFusion fusion = new KbFusion(null, store, null, null, null);
        assertThat(fusion.tuning("acme/kb")).contains(written);
        assertThat(fusion.tuning("acme/broken")).isEmpty();
        assertThat(fusion.lastEvaluation("acme/broken")).isEmpty();
    }

    private static List<JudgedQuery> judged(int n) {
        List<JudgedQuery> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new JudgedQuery("u" + i, "Which warranty covers unit " + code(i) + "?", Map.of("unit:" + i, 1)));
        }
        return out;
    }

    @Test
    void tuning_learns_what_the_collection_needs_applies_it_to_that_knowledge_base_only_and_the_evaluation_shows_it() {
        var kbs = polyrag.knowledgeBases();
        kbs.deleteJudgments(KB, null);
        assertThatThrownBy(() -> kbs.tune(KB)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("at least 20");
        assertThat(kbs.addJudgments(KB, judged(UNITS))).isEqualTo(UNITS);
        assertThat(kbs.judgments(KB)).hasSize(UNITS).allSatisfy(j -> assertThat(j.relevant()).hasSize(1));

        String job = kbs.tune(KB);
        JobInfo done = await().atMost(Duration.ofMinutes(3)).until(() -> polyrag.jobs().get(job),
                j -> j.status().finished());
        assertThat(done.status()).isEqualTo(JobStatus.SUCCEEDED);
        FusionTuning t = kbs.tuning(KB).orElseThrow();
        assertThat(t.applied()).as(t.reason()).isTrue();
        assertThat(t.ndcg10Tuned()).isGreaterThan(t.ndcg10Configured());
        assertThat(t.p()).isLessThan(KbFusion.APPLY_P);
        assertThat(t.queries()).isEqualTo(UNITS);
        assertThat(t.candidates()).as("the fusion grid, two depths, four blends of passage and document in each text "
                + "leg").hasSize(24).extracting(FusionTuning.Candidate::name).contains("vector.document.weight=1.0",
                        "fulltext.document.weight=0.0");
        FusionTuning.Candidate best = t.candidates().stream().max(java.util.Comparator.comparingDouble(
                FusionTuning.Candidate::ndcg10)).orElseThrow();
        assertThat(t.reason()).startsWith("applied " + best.name());
        assertThat(t.fusion()).isEqualTo("weighted");
        assertThat(t.weights().get("vector")).as("the words the questions share with the warranty pages mislead full "
                + "text").isGreaterThan(t.weights().get("fulltext"));
        assertThat(done.progress().warnings()).containsExactly(t.reason());

        SearchResponse tuned = polyrag.search().run(new SearchRequest("Which warranty covers unit " + code(3) + "?",
                5, List.of(KB), Set.of(), null));
        assertThat(tuned.fusion()).contains("the fusion its knowledge base was tuned to");
        SearchResponse own = polyrag.search().run(new SearchRequest("Which warranty covers unit " + code(3) + "?", 5,
                List.of(KB), Set.of(), FusionMethod.WEIGHTED));
        assertThat(own.fusion()).as("a request's own fusion wins").doesNotContain("tuned");
        SearchResponse both = polyrag.search().run(new SearchRequest("weather", 5, List.of(KB, "other"), Set.of(),
                null));
        assertThat(both.fusion()).contains("tuned differently").contains("the configured fusion");

        KbEvaluation e = kbs.evaluate(KB);
        assertThat(e.runs()).extracting(KbEvaluation.Run::name).containsExactly("configured", "tuned", "vector",
                "fulltext");
        KbEvaluation.Run configured = e.runs().get(0);
        KbEvaluation.Run tunedRun = e.runs().get(1);
        assertThat(tunedRun.ndcg10()).isGreaterThan(configured.ndcg10());
        assertThat(tunedRun.vsConfigured().delta()).isPositive();
        assertThat(tunedRun.description()).as("scored on the queries it was tuned on, and says so").contains(
                "in-sample").contains("held out, it measured");
        assertThat(configured.vsConfigured()).isNull();
        assertThat(kbs.lastEvaluation(KB).orElseThrow().evaluatedAt()).isEqualTo(e.evaluatedAt());

        kbs.dropTuning(KB);
        assertThat(polyrag.search().run(new SearchRequest("Which warranty covers unit " + code(3) + "?", 5,
                List.of(KB), Set.of(), null)).fusion()).doesNotContain("tuned");
    }

    /** A judged document re-indexed while the tuning runs: its figures mix two versions, so nothing is applied. */
    @Test
    void a_tuning_during_which_a_judged_document_changed_is_not_applied() {
        var kbs = polyrag.knowledgeBases();
        kbs.deleteJudgments(KB, null);
        kbs.addJudgments(KB, judged(UNITS));
        String job = kbs.tune(KB);
        await().atMost(Duration.ofMinutes(2)).until(() -> polyrag.jobs().get(job).progress().processed() > 30
                || polyrag.jobs().get(job).status().finished());
        String text = "Record " + code(5) + ". The " + CROPS[5 % CROPS.length] + " harvest near "
                + PLACES[5 % PLACES.length] + " was logged by field crew " + (5 % 7 + 1) + " on a cold morning; the "
                + "crates went to the " + PLACES[(5 + 2) % PLACES.length] + " depot.";
        polyrag.ingest().text(new TextIngest(text + " Revised.", "Record " + code(5), "unit:5", null,
                KnowledgeBase.of(KB), false));
        JobInfo done = await().atMost(Duration.ofMinutes(3)).until(() -> polyrag.jobs().get(job),
                j -> j.status().finished());
        try {
            assertThat(polyrag.jobs().get(job).progress().processed()).as("it was still running").isPositive();
            FusionTuning t = kbs.tuning(KB).orElseThrow();
            assertThat(t.applied()).isFalse();
            assertThat(t.reason()).contains("changed while the tuning ran").contains("tune again");
            assertThat(done.status()).isEqualTo(JobStatus.SUCCEEDED);
        } finally {
            polyrag.ingest().text(new TextIngest(text, "Record " + code(5), "unit:5", null, KnowledgeBase.of(KB),
                    false));
            kbs.dropTuning(KB);
        }
    }

    @Test
    void judgments_are_checked_naming_the_field_and_the_fix() {
        var kbs = polyrag.knowledgeBases();
        assertThatThrownBy(() -> kbs.addJudgments(KB, List.of())).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("judgments: give at least one");
        assertThatThrownBy(() -> kbs.addJudgments(KB, List.of(new JudgedQuery("a", "q", Map.of("nope", 1)))))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("judgments[0].relevant names 'nope'")
                .hasMessageContaining("no document of knowledge base 'units'");
        // Every unknown document at once; one graded 0 counts for nothing and is left out, not refused.
        assertThatThrownBy(() -> kbs.addJudgments(KB, List.of(new JudgedQuery("a", "q", Map.of("nope", 1)),
                new JudgedQuery("b", "r", Map.of("nada", 2))))).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("2 documents knowledge base 'units' does not hold").hasMessageContaining("'nope'")
                .hasMessageContaining("'nada'");
        assertThat(kbs.addJudgments(KB, List.of(new JudgedQuery("zero-unknown", "Which unit is first?", Map.of(
                "unit:1", 1, "nope", 0))))).isEqualTo(1);
        assertThat(kbs.judgments(KB).stream().filter(j -> j.queryId().equals("zero-unknown")).findFirst()
                .orElseThrow().relevant()).hasSize(1);
        kbs.deleteJudgments(KB, "zero-unknown");
        assertThatThrownBy(() -> kbs.addJudgments(KB, List.of(new JudgedQuery("a", "q", Map.of("unit:1", 1)),
                new JudgedQuery("a", "r", Map.of("unit:2", 1))))).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("judgments[1].query_id 'a' appears twice");
        assertThatThrownBy(() -> kbs.addJudgments(KB, List.of(new JudgedQuery("a", " ", Map.of("unit:1", 1)))))
                .hasMessageContaining("judgments[0].query is required");
        assertThatThrownBy(() -> kbs.addJudgments(KB, List.of(new JudgedQuery("a", "q", Map.of("unit:1", 11)))))
                .hasMessageContaining("must be a grade from 0");
        assertThatThrownBy(() -> kbs.addJudgments(KB, List.of(new JudgedQuery("a", "q", Map.of("unit:1", 0)))))
                .hasMessageContaining("at least one relevant document");
        assertThatThrownBy(() -> kbs.addJudgments(KB, List.of(new JudgedQuery("a", "q", Map.of("other:1", 1)))))
                .as("a document of another knowledge base").hasMessageContaining("no document of knowledge base");
        assertThatThrownBy(() -> kbs.addJudgments(KB, List.of(new JudgedQuery("a", "q\u0000x", Map.of("unit:1", 1)))))
                .hasMessageContaining("judgments[0].query holds a control character");
        assertThatThrownBy(() -> kbs.addJudgments(KB, List.of(new JudgedQuery("a", "q", Map.of("unit:\u0000", 1)))))
                .hasMessageContaining("control character");
        // A query longer than the server searches is refused when judged, naming its id (the tune job failed on it).
        KbJudgments narrow = new KbJudgments(null, null, io.polyrag.core.config.Config.defaults(Map.of(
                "search.max.query.chars", "50")));
        assertThatThrownBy(() -> narrow.add(KnowledgeBase.of(KB), List.of(new JudgedQuery("long1", "x".repeat(60),
                Map.of("unit:1", 1))))).isInstanceOf(InvalidInputException.class).hasMessageContaining("query_id 'long1'")
                .hasMessageContaining("at most 50").hasMessageContaining("search.max.query.chars");
        // One question, one judgment: the first of an upload counts, a later upload's replaces one of another id.
        assertThat(kbs.addJudgments(KB, List.of(new JudgedQuery("dup1", "Where is unit Z?", Map.of("unit:1", 1)),
                new JudgedQuery("dup2", " where is  UNIT z?", Map.of("unit:2", 1))))).isEqualTo(1);
        assertThat(kbs.addJudgments(KB, List.of(new JudgedQuery("dup3", "WHERE is unit Z?", Map.of("unit:3", 1)))))
                .isEqualTo(1);
        assertThat(kbs.judgments(KB)).extracting(JudgedQuery::queryId).contains("dup3").doesNotContain("dup1",
                "dup2");
        kbs.deleteJudgments(KB, "dup3");
        assertThatThrownBy(() -> kbs.deleteJudgments(KB, " ")).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("query_id is empty");
        assertThatThrownBy(() -> kbs.judgments("missing")).isInstanceOf(NotFoundException.class);
        assertThatThrownBy(() -> polyrag.as(io.polyrag.core.model.Tenant.of("globex")).knowledgeBases()
                .judgments(KB)).as("another tenant's knowledge base").isInstanceOf(NotFoundException.class);
        assertThatThrownBy(() -> JudgedQuery.fromBeir("query-id\tcorpus-id\tscore\nq9\td1\t1\n",
                "{\"_id\": \"q1\", \"text\": \"x\"}\n")).hasMessageContaining("qrels line 2 judges query 'q9'");
        assertThatThrownBy(() -> JudgedQuery.fromBeir("q1 d1 one\n", "{\"_id\": \"q1\", \"text\": \"x\"}\n"))
                .hasMessageContaining("qrels line 1 must be");
        // Files saved with a byte-order mark (Windows' "UTF-8 with BOM") are read as without.
        assertThat(JudgedQuery.fromBeir("\uFEFFquery-id\tcorpus-id\tscore\nq1\td1\t1\n",
                "\uFEFF{\"_id\": \"q1\", \"text\": \"x\"}\n")).extracting(JudgedQuery::queryId).containsExactly("q1");
        // Past the bound of judged queries, refused at that line, before the queries are read at all.
        StringBuilder many = new StringBuilder();
        for (int i = 0; i <= JudgedQuery.MAX_QUERIES; i++) {
            many.append("q").append(i).append("\td1\t1\n");
        }
        java.io.Reader unread = new java.io.Reader() {
            @Override
            public int read(char[] buf, int off, int len) {
                throw new AssertionError("the queries were read");
            }

            @Override
            public void close() {
            }
        };
        assertThatThrownBy(() -> JudgedQuery.fromBeir(many.toString(), unread)).hasMessageContaining(
                "qrels line " + (JudgedQuery.MAX_QUERIES + 1)).hasMessageContaining("more than 5000");
        assertThat(JudgedQuery.fromBeir("query-id\tcorpus-id\tscore\nq1\td1\t2\nq1\td2\t1\nq2\td1\t0\n",
                "{\"_id\": \"q1\", \"text\": \"one\"}\n{\"_id\": \"q2\", \"text\": \"two\"}\n"))
                .containsExactly(new JudgedQuery("q1", "one", Map.of("d1", 2, "d2", 1)));
    }

    @Test
    void one_tuning_per_knowledge_base_is_queued_or_running_at_a_time() throws Exception {
        // No workers: the first tuning stays queued, so the second meets it.
        try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("queued"), Map.of("worker.enabled", "false")))) {
            p.ingest().text(new TextIngest("A page.", "Page", "page:1", null, KnowledgeBase.of("q"), false));
            List<JudgedQuery> twenty = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                twenty.add(new JudgedQuery("p" + i, "page " + i, Map.of("page:1", 1)));
            }
            p.knowledgeBases().addJudgments("q", twenty);
            // Eight requests at once: exactly one queues a tuning, the others are told it is queued.
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(8);
            java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
            List<java.util.concurrent.Future<String>> asked = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                asked.add(pool.submit(() -> {
                    go.await();
                    try {
                        return p.knowledgeBases().tune("q");
                    } catch (io.polyrag.core.ConflictException e) {
                        return null;
                    }
                }));
            }
            go.countDown();
            List<String> started = new ArrayList<>();
            for (var f : asked) {
                String id = f.get();
                if (id != null) {
                    started.add(id);
                }
            }
            pool.shutdown();
            assertThat(started).hasSize(1);
            String first = started.getFirst();
            assertThatThrownBy(() -> p.knowledgeBases().tune("q")).isInstanceOf(io.polyrag.core.ConflictException.class)
                    .hasMessageContaining(first);
            assertThat(p.as(io.polyrag.core.model.Tenant.of("globex")).knowledgeBases().judgments("default"))
                    .as("another tenant's default knowledge base: its own, empty").isEmpty();
        }
    }

    /**
     * A tenant whose only knowledge base is not the default one searches just it when it names none (a default one
     * that does not exist made every such search "tuned differently", so no tuning applied); an evaluation on a
     * server whose search.max.top.k is below its depths searches as deep as allowed (it was a 400).
     */
    @Test
    void a_search_naming_no_knowledge_base_is_scoped_to_those_that_exist_and_evaluation_respects_max_top_k() {
        try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("single"), Map.of("vector.enabled", "false",
                "search.max.top.k", "30")))) {
            p.ingest().text(new TextIngest("The handbook says leave is booked a week ahead.", "Leave", "hb:1", null,
                    KnowledgeBase.of("handbook"), false));
            assertThat(Scope.of(p.components().catalog, io.polyrag.core.model.Tenant.LOCAL, Set.of())
                    .knowledgeBases()).containsExactly("handbook");
            p.knowledgeBases().addJudgments("handbook", List.of(new JudgedQuery("q1", "When is leave booked?",
                    Map.of("hb:1", 1))));
            KbEvaluation e = p.knowledgeBases().evaluate("handbook");
            assertThat(e.runs().getFirst().ndcg10()).isEqualTo(1.0);
        }
    }

    @Test
    void a_deleted_knowledge_base_takes_its_judgments_and_tuning_with_it() {
        var kbs = polyrag.knowledgeBases();
        KnowledgeBase gone = KnowledgeBase.of("gone");
        polyrag.ingest().text(new TextIngest("A page about gone things.", "Gone", "gone:1", null, gone, false));
        kbs.addJudgments("gone", List.of(new JudgedQuery("g", "gone things", Map.of("gone:1", 1))));
        assertThat(kbs.evaluate("gone").runs().getFirst().ndcg10()).isEqualTo(1.0);
        kbs.delete("gone");
        polyrag.ingest().text(new TextIngest("A page about gone things.", "Gone", "gone:1", null, gone, false));
        assertThat(kbs.judgments("gone")).isEmpty();
        assertThat(kbs.lastEvaluation("gone")).isEmpty();
    }
}
