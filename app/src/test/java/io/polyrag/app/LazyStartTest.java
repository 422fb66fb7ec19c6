package io.polyrag.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.app.api.TextIngest;
import io.polyrag.core.model.Modality;
import io.polyrag.core.model.SearchRequest;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a command does not use it does not load: a full-text search, once the data directory has recorded its
 * model, loads neither the embedding model nor the parsers; a vector search then loads the model, which must be
 * the one recorded.
 */
class LazyStartTest {
    @TempDir
    Path tmp;

    @Test
    void a_full_text_search_loads_no_model_and_no_parser() {
        Path data = tmp.resolve("data");
        try (Polyrag first = Polyrag.open(PolyragTest.config(data, Map.of()))) {
            first.ingest().text(new TextIngest("The kiln is fired on Thursdays.", "Kiln", null, null, null));
            assertThat(first.modelLoaded()).as("the first open loads it, to record what the stores need").isTrue();
        }
        try (Polyrag again = Polyrag.open(PolyragTest.config(data, Map.of()))) {
            var fullText = again.search().run(new SearchRequest("kiln", 3, List.of(), Set.of(Modality.FULLTEXT),
                    null));
            assertThat(fullText.hits()).extracting(h -> h.title()).containsExactly("Kiln");
            assertThat(again.modelLoaded()).as("full text needs no model").isFalse();
            assertThat(again.parsersLoaded()).as("a search reads no file").isFalse();
            var both = again.search().run(SearchRequest.of("when is the kiln fired", 3));
            assertThat(both.hits().getFirst().sources()).containsKeys("vector", "fulltext");
            assertThat(again.modelLoaded()).isTrue();
        }
    }
}
