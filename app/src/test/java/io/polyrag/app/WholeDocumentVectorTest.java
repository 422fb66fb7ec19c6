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
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The vector leg weighs a document cut into small passages by its whole vector too (vector.document.weight): with
 * the real model, a three-paragraph report is embedded whole at ingest, a one-paragraph note is not, and the leg's
 * scores and explain say so.
 */
class WholeDocumentVectorTest {
    private static final String QUERY = "how the volcano's ash is forecast";

    @TempDir
    Path tmp;

    private SearchResponse search(String weight) {
        return search(weight, null);
    }

    /** The collection searched with {@code weight} configured and, when not null, the search's own {@code own}. */
    private SearchResponse search(String weight, Double own) {
        try (Polyrag polyrag = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("data-" + weight
                + "-" + own).toString(), "chunk.max.tokens", "32", "chunk.overlap.tokens", "0",
                "vector.document.weight", weight)))) {
            KnowledgeBase kb = KnowledgeBase.of("kb");
            polyrag.ingest().text(new TextIngest("The mountain erupted in spring, and the village below watched the "
                    + "smoke rise for three days.\n\nAsh fell on the valley for weeks, and farmers moved their goats to "
                    + "higher pastures.\n\nForecasting needs sensors on the slopes, each powered by a small panel on a "
                    + "mast.", "Mountain report", "doc:report", "text", kb));
            polyrag.ingest().text(new TextIngest("Ash and more ash after the eruption.", "Field note", "doc:note",
                    "text", kb));
            return polyrag.search().run(new SearchRequest(QUERY, 10, List.of(), Set.of(Modality.VECTOR), null)
                    .toBuilder().vectorDocumentWeight(own).build());
        }
    }

    private static List<Double> reportScores(SearchResponse r) {
        return r.hits().stream().filter(h -> h.uri().equals("doc:report")).map(SearchHit::sources)
                .map(s -> s.get(Modality.VECTOR.wireName()).score()).toList();
    }

    @Test
    void a_document_of_small_passages_is_scored_by_its_whole_vector_too() {
        SearchResponse passages = search("0");
        assertThat(reportScores(passages)).as("the report is three passages, each with its own cosine").hasSize(3)
                .doesNotHaveDuplicates();
        assertThat(passages.fusion()).doesNotContain("whole vector");

        SearchResponse whole = search("1");
        assertThat(reportScores(whole)).as("weight 1: each passage scores the report's whole cosine").hasSize(3)
                .containsOnly(reportScores(whole).getFirst());
        assertThat(whole.fusion()).as("explain says how, and that the note has none")
                .contains("blended with its document's whole vector where it has one (1 of 2 documents)",
                        "weight 1.00 (vector.document.weight)");
        double note = whole.hits().stream().filter(h -> h.uri().equals("doc:note")).findFirst().orElseThrow()
                .sources().get(Modality.VECTOR.wireName()).score();
        double noteBefore = passages.hits().stream().filter(h -> h.uri().equals("doc:note")).findFirst()
                .orElseThrow().sources().get(Modality.VECTOR.wireName()).score();
        assertThat(note).as("a one-passage document keeps its passage's cosine").isEqualTo(noteBefore);

        SearchResponse own = search("0.5", 1.0);
        assertThat(reportScores(own)).as("a search's own weight wins over the configured one").hasSize(3)
                .containsOnly(reportScores(own).getFirst());
        assertThat(own.fusion()).contains("weight 1.00 (this search's)");
    }
}
