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
}
