package io.polyrag.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.model.Modality;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The last check's lines as /health and /ready show them, judged again against the legs incomplete now. */
class StoreProblemsTest {
    private static final String GRAPH_LACKS = "the graph store lacks 4 records of 2 visible document versions (…)";
    private static final String VECTOR_LACKS = "the vector store lacks 9 records of 3 visible document versions (…)";
    private static final String ORPHANS = "the fulltext store holds 5 records of 2 " + Recovery.ORPHANS + ": run …";

    @Test
    void a_stores_lacks_line_lasts_only_while_its_leg_is_judged_incomplete() {
        List<String> lastCheck = List.of(GRAPH_LACKS, VECTOR_LACKS, ORPHANS);
        // Both still short: /health lists them, and the orphans.
        assertThat(Admin.storeProblems(lastCheck, Map.of(Modality.GRAPH, "back-filling", Modality.VECTOR,
                "back-filling"), true)).containsExactly(GRAPH_LACKS, VECTOR_LACKS, ORPHANS);
        // A reindex filled the graph store since the check: its line goes (it held /ready at 503 until a restart).
        assertThat(Admin.storeProblems(lastCheck, Map.of(Modality.VECTOR, "back-filling"), true))
                .containsExactly(VECTOR_LACKS, ORPHANS);
        assertThat(Admin.storeProblems(lastCheck, Map.of(), true)).containsExactly(ORPHANS);
        // Where another leg still searches, /ready asks without the incomplete legs: no lacks line at all.
        assertThat(Admin.storeProblems(lastCheck, Map.of(Modality.GRAPH, "back-filling"), false))
                .containsExactly(ORPHANS);
    }
}
