package io.polyrag.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.app.api.TextIngest;
import io.polyrag.core.config.Config;
import io.polyrag.core.model.KnowledgeBase;
import io.polyrag.core.model.Modality;
import io.polyrag.core.model.SearchHit;
import io.polyrag.core.model.SearchRequest;
import io.polyrag.core.model.SearchResponse;
import java.nio.file.Path;
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

    private SearchResponse search(String weight) {
        Map<String, String> settings = new HashMap<>(Map.of("data.dir", tmp.resolve("data-" + weight).toString(),
                "chunk.max.tokens", "32", "chunk.overlap.tokens", "0"));
        if (weight != null) {
            settings.put("fulltext.document.weight", weight);
        }
        try (Polyrag polyrag = Polyrag.open(Config.load(Map.of(), settings))) {
            KnowledgeBase kb = KnowledgeBase.of("kb");
            polyrag.ingest().text(new TextIngest("The mountain erupted in spring, and the village below watched "
                    + "the smoke rise for three days.\n\nAsh fell on the valley for weeks, and farmers moved their "
                    + "goats to higher pastures.\n\nForecasting needs sensors on the slopes, each powered by a "
                    + "small panel on a mast.", "Mountain report", "doc:report", "text", kb));
            polyrag.ingest().text(new TextIngest("Ash and more ash after the eruption.", "Field note", "doc:note",
                    "text", kb));
            for (int i = 0; i < 10; i++) {
                polyrag.ingest().text(new TextIngest("Tomatoes and beans in the garden, day " + i + ", watered at "
                        + "dawn.", "Garden diary " + i, "doc:diary" + i, "text", kb));
            }
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
}
