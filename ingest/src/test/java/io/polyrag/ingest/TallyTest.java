package io.polyrag.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.port.ProgressListener;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An ingest's warnings are bounded: the first ones kept, the rest counted in one line. */
class TallyTest {
    @Test
    void warnings_past_the_bound_are_counted_not_kept() {
        Tally t = new Tally(5_000, List.of("fulltext"), ProgressListener.NONE);
        for (int i = 0; i < 5_000; i++) {
            t.warn("deck-" + i + ".pptx: figures: 37 more were left out");
        }
        t.warn("deck-0.pptx: figures: 37 more were left out");
        assertThat(t.progress().warnings()).hasSize(Tally.MAX_WARNINGS + 1).last().isEqualTo(
                (5_000 - Tally.MAX_WARNINGS) + " more warnings, not listed (the first " + Tally.MAX_WARNINGS + " are)");
        assertThat(t.report().warnings()).hasSize(Tally.MAX_WARNINGS + 1);
        // One warning left out, repeated: counted once.
        Tally repeated = new Tally(10, List.of("fulltext"), ProgressListener.NONE);
        for (int i = 0; i < Tally.MAX_WARNINGS; i++) {
            repeated.warn("warning " + i);
        }
        for (int i = 0; i < 3; i++) {
            repeated.warn("the same figure warning");
        }
        assertThat(repeated.progress().warnings().getLast()).startsWith("1 more warnings");
    }
}
