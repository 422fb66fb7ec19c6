package io.polyrag.eval;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.model.Modality;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunSpecTest {
    @Test
    void the_default_ablation_shows_what_the_graph_arms_add() {
        assertThat(RunSpec.defaults(List.of(Modality.VECTOR, Modality.FULLTEXT, Modality.GRAPH, Modality.RDF)))
                .extracting(RunSpec::name)
                .containsExactly("vector", "fulltext", "graph", "rdf", "vector+fulltext", "rrf", "weighted");
        assertThat(RunSpec.defaults(List.of(Modality.VECTOR, Modality.FULLTEXT))).extracting(RunSpec::name)
                .containsExactly("vector", "fulltext", "rrf", "weighted");
        assertThat(RunSpec.defaults(List.of(Modality.FULLTEXT))).extracting(RunSpec::name).containsExactly("fulltext");
    }
}
