package io.polyrag.app.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.app.Json;
import io.polyrag.core.model.ChunkKind;
import io.polyrag.core.model.IndexedDocument;
import io.polyrag.core.model.IngestReport;
import io.polyrag.core.model.ItemError;
import io.polyrag.core.model.Modality;
import io.polyrag.core.model.SearchHit;
import io.polyrag.core.model.SearchResponse;
import io.polyrag.core.model.SourceScore;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.annotation.JsonNaming;

class WireContractTest {
    private static final List<Class<?>> WIRES = List.of(SearchWire.class, IngestWire.class, AdminWire.class);

    @Test
    void every_wire_record_with_a_multi_word_field_is_snake_cased() {
        List<String> camel = new ArrayList<>();
        for (Class<?> wire : WIRES) {
            for (Class<?> r : wire.getDeclaredClasses()) {
                if (!r.isRecord() || r.isAnnotationPresent(JsonNaming.class)) {
                    continue;
                }
                Arrays.stream(r.getRecordComponents()).map(RecordComponent::getName)
                        .filter(n -> !n.equals(n.toLowerCase())).forEach(n -> camel.add(r.getSimpleName() + "." + n));
            }
        }
        assertThat(camel).as("record components that would reach clients in camelCase").isEmpty();
    }

    @Test
    void one_vocabulary_sources_are_cited_documents_and_retrievers_are_per_retriever_ranks() {
        // "sources" names an answer's cited documents (a list of SearchWire.Source) or, under /v1/sync/sources, the
        // sync sources listed (IngestWire.Source); a hit's rank and score in each retriever's list is "retrievers"
        // (REST, MCP and the command line alike); "ranks" is not a name.
        List<String> misuse = new ArrayList<>();
        for (Class<?> wire : WIRES) {
            for (Class<?> r : wire.getDeclaredClasses()) {
                if (!r.isRecord()) {
                    continue;
                }
                for (RecordComponent c : r.getRecordComponents()) {
                    String type = c.getGenericType().getTypeName();
                    boolean listed = type.equals("java.util.List<" + SearchWire.Source.class.getName() + ">")
                            || type.equals("java.util.List<" + IngestWire.Source.class.getName() + ">");
                    if (c.getName().equals("sources") && !listed || c.getName().equals("ranks")
                            || c.getName().equals("retrievers") && !r.equals(SearchWire.Hit.class)) {
                        misuse.add(r.getSimpleName() + "." + c.getName());
                    }
                }
            }
        }
        assertThat(misuse).isEmpty();
        assertThat(Arrays.stream(SearchWire.Hit.class.getRecordComponents()).map(RecordComponent::getName))
                .contains("retrievers").doesNotContain("sources");
    }

    @Test
    void a_search_result_and_an_ingest_report_print_only_snake_case_names() {
        SearchResponse r = new SearchResponse("q", 3, List.of(Modality.VECTOR), List.of(), List.of(SearchHit.builder()
                .rank(1).score(0.5).documentId("d").chunkId("c").uri("u").title("t").text("text")
                .kind(ChunkKind.PROSE).headingPath(List.of("H")).knowledgeBase("default")
                .sources(Map.of("vector", new SourceScore(1, 0.5))).version(1).ordinal(0).location("page 2")
                .contributions(Map.of("vector", 0.5)).build()), List.of());
        IngestReport i = IngestReport.builder().counts(1, 1, 0, 0, 0).chunks(2).tookMs(5)
                .errors(List.of(new ItemError("a", "b"))).indexed(List.of(new IndexedDocument("u", "d", 1, "added")))
                .build();
        for (Object wire : List.of(SearchWire.of(r), IngestWire.ofText(i))) {
            List<String> names = new ArrayList<>();
            collect(Json.MAPPER.valueToTree(wire), names);
            assertThat(names).isNotEmpty().allMatch(n -> n.matches("[a-z0-9_]+"), "snake_case");
        }
        JsonNode hit = Json.MAPPER.valueToTree(SearchWire.of(r)).get("hits").get(0);
        assertThat(hit.get("document_id").asString()).isEqualTo("d");
        assertThat(hit.get("heading_path").get(0).asString()).isEqualTo("H");
        assertThat(hit.get("kind").asString()).isEqualTo("prose");
        assertThat(hit.get("retrievers").get("vector").get("rank").asInt()).isEqualTo(1);
    }

    private static void collect(JsonNode n, List<String> names) {
        if (n.isObject()) {
            for (var e : n.properties()) {
                // map keys chosen by data (modality names under "retrievers") are names too, and are lower case
                names.add(e.getKey());
                collect(e.getValue(), names);
            }
        } else if (n.isArray()) {
            n.forEach(x -> collect(x, names));
        }
    }
}
