package io.polyrag.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.app.api.TextIngest;
import io.polyrag.core.model.DocumentMeta;
import io.polyrag.core.model.SearchRequest;
import io.polyrag.core.model.SearchResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A search narrowed to a category finds that category's documents even when others match the words better: they
 * are searched as those documents, not picked out of each leg's best candidates afterwards.
 */
class CategorySearchTest {
    @TempDir
    Path tmp;

    @Test
    void a_small_category_is_not_drowned_by_better_matches_elsewhere() {
        try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("data"), Map.of("vector.enabled", "false",
                "search.candidates", "10")))) {
            for (int i = 0; i < 30; i++) {
                p.ingest().text(TextIngest.of("Turbine maintenance log " + i + ": turbine blades inspected, turbine "
                        + "bearings greased, turbine maintenance done.", "Log " + i));
            }
            String legal = p.ingest().text(TextIngest.of("Contract clause 12 covers liability, indemnity and the "
                    + "insurer's duties; a turbine is named once in the schedule.", "Contract"))
                    .indexed().getFirst().documentId();
            p.components().catalog.describe(legal, null, new DocumentMeta(List.of("legal"), "", ""));
            SearchResponse r = p.search().run(SearchRequest.builder("turbine maintenance").topK(5).category("legal")
                    .build());
            assertThat(r.hits()).extracting(h -> h.documentId()).containsExactly(legal);
        }
    }

    /** A fusion constant for the method the search was not fused by changes nothing, and says so. */
    @Test
    void rrf_k_under_weighted_fusion_and_weights_under_rrf_are_said_to_change_nothing() {
        try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("data"), Map.of("vector.enabled", "false",
                "fusion.method", "weighted")))) {
            p.ingest().text(TextIngest.of("Turbine blades were inspected and the bearings greased.", "Log"));
            assertThat(p.search().run(SearchRequest.builder("turbine").topK(3).rrfK(10).build()).warnings())
                    .anySatisfy(w -> assertThat(w).startsWith("rrf_k is used by fusion=rrf only"));
            assertThat(p.search().run(SearchRequest.builder("turbine").topK(3).rrfK(10).fusion("rrf").build())
                    .warnings()).noneSatisfy(w -> assertThat(w).contains("changed nothing"));
            assertThat(p.search().run(SearchRequest.builder("turbine").topK(3).fusion("rrf")
                    .weights(Map.of("fulltext", 2.0)).build()).warnings())
                    .anySatisfy(w -> assertThat(w).startsWith("weights are used by fusion=weighted only"));
        }
    }
}
