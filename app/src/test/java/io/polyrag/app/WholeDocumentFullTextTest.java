package io.polyrag.app;

import static org.assertj.core.api.Assertions.assertThat;

import static org.awaitility.Awaitility.await;

import io.polyrag.app.api.FusionTuning;
import io.polyrag.app.api.JudgedQuery;
import io.polyrag.app.api.TextIngest;
import io.polyrag.core.config.Config;
import io.polyrag.core.model.JobStatus;
import io.polyrag.core.model.KnowledgeBase;
import io.polyrag.core.model.Modality;
import io.polyrag.core.model.SearchHit;
import io.polyrag.core.model.SearchRequest;
import io.polyrag.core.model.SearchResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The full-text leg weighs a document that holds the query's words across several passages by its whole text
 * (fulltext.document.weight): a report whose three passages each hold one of the three words, beside a short note
 * whose one passage holds two of them, which passage-by-passage BM25 puts first.
 */
class WholeDocumentFullTextTest {
    private static final String QUERY = "ash eruption forecasting";

    @TempDir
    Path tmp;

    /** Polyrag over {@code dir}, a chunk per paragraph, with the full-text blend {@code weight} (null: the default). */
    private Polyrag open(String dir, String weight) {
        Map<String, String> settings = new HashMap<>(Map.of("data.dir", tmp.resolve(dir).toString(),
                "chunk.max.tokens", "32", "chunk.overlap.tokens", "0"));
        if (weight != null) {
            settings.put("fulltext.document.weight", weight);
        }
        return Polyrag.open(Config.load(Map.of(), settings));
    }

    /**
     * The report (three paragraphs, each holding one of the query's three words), {@code notes} field notes (one
     * short passage holding two of them) and ten garden diaries that hold none, in knowledge base "kb".
     */
    private static void collection(Polyrag polyrag, int notes) {
        KnowledgeBase kb = KnowledgeBase.of("kb");
        polyrag.ingest().text(new TextIngest("The mountain erupted in spring, and the village below watched the smoke "
                + "rise for three days.\n\nAsh fell on the valley for weeks, and farmers moved their goats to higher "
                + "pastures.\n\nForecasting needs sensors on the slopes, each powered by a small panel on a mast.",
                "Mountain report", "doc:report", "text", kb));
        for (int i = 0; i < notes; i++) {
            String which = notes == 1 ? "" : String.valueOf(i);
            polyrag.ingest().text(new TextIngest("Ash and more ash after the eruption" + (notes == 1 ? "" : ", note "
                    + i) + ".", "Field note" + (notes == 1 ? "" : " " + i), "doc:note" + which, "text", kb));
        }
        for (int i = 0; i < 10; i++) {
            polyrag.ingest().text(new TextIngest("Tomatoes and beans in the garden, day " + i + ", watered at dawn.",
                    "Garden diary " + i, "doc:diary" + i, "text", kb));
        }
    }

    private SearchResponse search(String weight) {
        try (Polyrag polyrag = open("data-" + weight, weight)) {
            collection(polyrag, 1);
            return polyrag.search().run(new SearchRequest(QUERY, 10, List.of(), Set.of(Modality.FULLTEXT), null));
        }
    }

    @Test
    void a_document_holding_the_query_across_its_passages_ranks_by_its_whole_text() {
        SearchResponse passages = search("0");
        assertThat(passages.hits().stream().filter(h -> h.uri().equals("doc:report")).count())
                .as("the report is three passages, each holding one word").isEqualTo(3);
        assertThat(passages.hits().getFirst().uri()).as("passage by passage, the note's holds two of the words")
                .isEqualTo("doc:note");
        assertThat(passages.fusion()).doesNotContain("blended with its document's");

        SearchResponse documents = search("1");
        assertThat(documents.hits().getFirst().uri()).as("as a whole, the report holds all three")
                .isEqualTo("doc:report");
        assertThat(documents.hits()).extracting(SearchHit::uri).contains("doc:note");

        assertThat(search(null).fusion()).as("the default blends, and explain says how")
                .contains("blended with its document's", "weight 0.50 (fulltext.document.weight)");
    }

    /** A made-up word, the same for the same numbers: {@code group}'s {@code which}-th (0-2). */
    private static String word(int group, int which) {
        String[] syllables = {"ka", "lo", "mi", "nu", "pe", "ro", "si", "tu", "va", "zo"};
        String[] endings = {"rin", "dal", "mox"};
        return syllables[group / 10 % 10] + syllables[group % 10] + syllables[(group + which * 3) % 10]
                + endings[which];
    }

    @Test
    void a_knowledge_base_tuned_on_its_judgments_learns_its_blend_of_passage_and_document() {
        int groups = 24;
        try (Polyrag polyrag = open("tuned", "0")) {
            KnowledgeBase kb = KnowledgeBase.of("surveys");
            List<JudgedQuery> judged = new ArrayList<>();
            for (int g = 0; g < groups; g++) {
                // The report holds the three words a paragraph each; the note two of them in one short passage.
                polyrag.ingest().text(new TextIngest("The survey team reached the northern ridge before the thaw and "
                        + "logged the " + word(g, 0) + " deposits along the creek bed.\n\nBack at camp the "
                        + "cook kept a pot of lentils warm while the crew sorted the " + word(g, 1) + " samples by "
                        + "size.\n\nThe last week went to mapping the " + word(g, 2) + " outcrops on the southern "
                        + "slope, in rain most days.", "Survey report " + g, "report:" + g, null, kb, false));
                polyrag.ingest().text(new TextIngest(word(g, 0) + " and more " + word(g, 0) + " beside the "
                        + word(g, 1) + ".", "Field note " + g, "note:" + g, null, kb, false));
                judged.add(new JudgedQuery("q" + g, word(g, 0) + " " + word(g, 1) + " " + word(g, 2),
                        Map.of("report:" + g, 1)));
            }
            var kbs = polyrag.knowledgeBases();
            kbs.addJudgments("surveys", judged);
            String job = kbs.tune("surveys");
            assertThat(await().atMost(Duration.ofMinutes(3)).until(() -> polyrag.jobs().get(job),
                    j -> j.status().finished()).status()).isEqualTo(JobStatus.SUCCEEDED);
            FusionTuning t = kbs.tuning("surveys").orElseThrow();
            assertThat(t.candidates()).extracting(FusionTuning.Candidate::name).contains("search.candidates=50",
                    "search.candidates=200", "fulltext.document.weight=0.25", "fulltext.document.weight=1.0")
                    .doesNotContain("fulltext.document.weight=0.0");
            assertThat(t.applied()).as(t.reason()).isTrue();
            assertThat(t.fulltextDocumentWeight()).as(t.reason() + " " + t.candidates()).isNotNull().isPositive();
            assertThat(t.fusion()).isEqualTo("configured");

            int first = 0;
            int firstOwn = 0;
            for (JudgedQuery q : judged) {
                SearchResponse tuned = polyrag.search().run(new SearchRequest(q.query(), 5, List.of("surveys"),
                        Set.of(), null));
                assertThat(tuned.fusion()).contains("the fusion its knowledge base was tuned to (configured fusion "
                        + "fulltext.document.weight=" + t.fulltextDocumentWeight(), "(this search's)");
                first += tuned.hits().getFirst().uri().startsWith("report:") ? 1 : 0;
                SearchResponse own = polyrag.search().run(SearchRequest.builder(q.query()).topK(5).knowledgeBases(
                        List.of("surveys")).weights(Map.of("vector", 0.5)).build());
                assertThat(own.fusion()).as("a request's own weights win").doesNotContain("tuned to",
                        "this search's");
                firstOwn += own.hits().getFirst().uri().startsWith("report:") ? 1 : 0;
            }
            assertThat(first).as("reports ranked first, tuned (with equal weights given: %d)", firstOwn)
                    .isGreaterThanOrEqualTo(groups / 2).isGreaterThan(firstOwn + groups / 3);
        }
    }

    @Test
    void a_search_may_set_its_own_blend_and_depth() {
        try (Polyrag polyrag = open("own", "0")) {
            collection(polyrag, 1);
            SearchRequest configured = new SearchRequest(QUERY, 10, List.of(), Set.of(Modality.FULLTEXT), null);
            assertThat(polyrag.search().run(configured).hits().getFirst().uri()).isEqualTo("doc:note");
            SearchResponse own = polyrag.search().run(configured.toBuilder().tuning(new SearchRequest.Tuning(null,
                    Map.of(), null, 3, 1.0)).build());
            assertThat(own.hits().getFirst().uri()).isEqualTo("doc:report");
            assertThat(own.fusion()).contains("weight 1.00 (this search's)", "each leg's list 3 deep");
        }
    }

    @Test
    void the_blend_reads_deeper_than_the_leg_returns_so_a_documents_lower_passages_rise_with_it() {
        try (Polyrag polyrag = open("deep", null)) {
            collection(polyrag, 3);
            // The leg returns three: passage by passage those are the notes', and the report's three rank below them.
            SearchResponse r = polyrag.search().run(SearchRequest.builder(QUERY).topK(3).modalityNames(List.of(
                    "fulltext")).tuning(new SearchRequest.Tuning(null, Map.of(), null, 3, 1.0)).build());
            assertThat(r.hits()).extracting(SearchHit::uri).as("with the whole text alone deciding, each of the "
                    + "report's passages outranks the notes'; read three deep, the blend would hold only the one "
                    + "that represents it").containsExactly("doc:report", "doc:report", "doc:report");
        }
    }
}
