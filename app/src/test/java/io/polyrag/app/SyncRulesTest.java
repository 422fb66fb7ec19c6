package io.polyrag.app;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A modification time as close to the read as a coarse file system's resolution is not trusted next time. */
class SyncRulesTest {
    @Test
    void a_modification_time_within_two_seconds_of_the_read_is_recorded_as_unknown() {
        long now = 1_700_000_000_000L;
        assertThat(SyncRules.settled(now - 500, now)).as("written in the same second as the read").isZero();
        assertThat(SyncRules.settled(now - 1_999, now)).isZero();
        assertThat(SyncRules.settled(now - 2_000, now)).isEqualTo(now - 2_000);
        assertThat(SyncRules.settled(now - 86_400_000, now)).isEqualTo(now - 86_400_000);
        assertThat(SyncRules.settled(0, now)).as("none known").isZero();
        assertThat(SyncRules.settled(now + 1_000, now)).as("a little ahead").isZero();
        assertThat(SyncRules.settled(now + 86_400_000, now)).as("far ahead: trusted, not read at every sync")
                .isEqualTo(now + 86_400_000);
    }
}
