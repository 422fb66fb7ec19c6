package io.polyrag.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.model.JobProgress;
import org.junit.jupiter.api.Test;

/** A resumed run's progress carries on from its earlier runs'. */
class JobOutcomeTest {
    @Test
    void a_resumed_sync_never_shows_more_processed_than_its_total() {
        JobProgress earlier = JobProgress.at("indexing").total(10_000).processed(5_000).added(5_000).build();
        // The resumed run's first batch: it has listed 1,000 so far, all found unchanged.
        JobProgress now = JobProgress.at("indexing").total(1_000).processed(1_000).unchanged(1_000).build();
        JobProgress shown = JobOutcome.cumulative(earlier, now);
        assertThat(shown.total()).isEqualTo(10_000);
        assertThat(shown.processed()).isEqualTo(5_000);
        assertThat(shown.added()).isEqualTo(5_000);
        assertThat(shown.unchanged()).isZero();
    }
}
