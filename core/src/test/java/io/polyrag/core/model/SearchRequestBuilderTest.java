package io.polyrag.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.polyrag.core.InvalidInputException;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The one builder every front door fills a search request with: each field checked where it is set. */
class SearchRequestBuilderTest {

    @Test
    void a_null_argument_keeps_what_the_field_held_so_a_door_passes_what_its_caller_sent() {
        SearchRequest r = SearchRequest.builder("kiln").topK(7).topK(null).fusion("weighted").fusion((String) null)
                .category("Ops").category(null).rrfK(30).rrfK(null).rerank(false).rerank(null)
                .knowledgeBases(List.of("docs")).knowledgeBases(null).modalityNames(List.of("vector"))
                .modalityNames(null).build();

        assertThat(r.topK()).isEqualTo(7);
        assertThat(r.fusion()).isEqualTo(FusionMethod.WEIGHTED);
        assertThat(r.category()).isEqualTo("ops");
        assertThat(r.tuning().rrfK()).isEqualTo(30);
        assertThat(r.tuning().rerank()).isFalse();
        assertThat(r.knowledgeBases()).containsExactly("docs");
        assertThat(r.modalities()).containsExactly(Modality.VECTOR);
    }

    @Test
    void names_become_values_and_blanks_are_dropped() {
        Map<String, Double> weights = new LinkedHashMap<>();
        weights.put("fulltext", 2.0);
        SearchRequest r = SearchRequest.builder("kiln").knowledgeBases(Arrays.asList("a", " ", null, "a", "b"))
                .modalityNames(List.of("vector", "", "FULLTEXT")).documentIds(List.of("d1", " ", "d2"))
                .weights(weights).fusion("  ").category(" ").build();

        assertThat(r.knowledgeBases()).containsExactly("a", "b");
        assertThat(r.modalities()).containsExactlyInAnyOrder(Modality.VECTOR, Modality.FULLTEXT);
        assertThat(r.documentIds()).containsExactlyInAnyOrder("d1", "d2");
        assertThat(r.tuning().weights()).isEqualTo(Map.of(Modality.FULLTEXT, 2.0));
        assertThat(r.fusion()).isNull();
        assertThat(r.category()).isNull();
    }

    @Test
    void each_bad_field_is_refused_naming_it_and_the_fix() {
        assertThatThrownBy(() -> SearchRequest.builder("q").modalityNames(List.of("graf")))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("unknown modality 'graf'")
                .hasMessageContaining("vector");
        assertThatThrownBy(() -> SearchRequest.builder("q").fusion("borda"))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("use rrf or weighted");
        assertThatThrownBy(() -> SearchRequest.builder("q").documentIds(IntStream.range(0, 1001)
                .mapToObj(i -> "d" + i).toList())).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("document_ids names 1001 documents: at most 1000");
        assertThatThrownBy(() -> SearchRequest.builder("q").documentIds(List.of("d".repeat(129))))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("document_ids: an id is at most 128");
        assertThatThrownBy(() -> SearchRequest.builder("q").category("no/slashes"))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("category");
        assertThatThrownBy(() -> SearchRequest.builder("q").weights(Collections.singletonMap("vector", null)))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("weights.vector");
        assertThatThrownBy(() -> SearchRequest.builder("q").weights(Map.of("vector", -1.0)).build())
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("weights.vector");
        assertThatThrownBy(() -> SearchRequest.builder("q").rrfK(0).build())
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("rrf_k must be between 1 and 10000");
    }

    @Test
    void to_builder_changes_one_field_and_keeps_the_rest() {
        SearchRequest r = SearchRequest.builder("first").topK(4).knowledgeBases(List.of("kb"))
                .modalities(Set.of(Modality.FULLTEXT)).fusion(FusionMethod.RRF).documentIds(List.of("d"))
                .category("ops").rrfK(20).weights(Map.of("vector", 0.5)).rerank(true).build();

        SearchRequest again = r.toBuilder().query("second").build();

        assertThat(again.query()).isEqualTo("second");
        assertThat(again).isEqualTo(new SearchRequest("second", r.topK(), r.knowledgeBases(), r.modalities(),
                r.fusion(), r.documentIds(), r.category(), r.tuning()));
    }
}
