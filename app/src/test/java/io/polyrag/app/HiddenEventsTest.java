package io.polyrag.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.model.Tenant;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tenant that adopted local mode's data does not see the operator's back-fills in its job events; its stream
 * passes over them, where it was given the same hidden events again at once, forever (a busy loop).
 */
class HiddenEventsTest {
    @TempDir
    Path tmp;

    @Test
    void events_a_subscriber_may_not_see_are_passed_over() throws Exception {
        try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("data"), Map.of("vector.enabled", "false",
                "worker.enabled", "false")))) {
            Jobs adopted = p.as(Tenant.adopting("acme")).jobs();
            long start = adopted.lastEventId();
            p.admin().reindex("fulltext");
            Jobs.Events first = adopted.events(start, Duration.ofMillis(200));
            assertThat(first.shown()).as("the operator's back-fill is not the tenant's").isEmpty();
            assertThat(first.lastId()).as("but the stream moves past it").isGreaterThan(start);
            long before = System.nanoTime();
            Jobs.Events next = adopted.events(first.lastId(), Duration.ofMillis(300));
            assertThat(next.shown()).isEmpty();
            assertThat(Duration.ofNanos(System.nanoTime() - before)).as("it waits for news, not returned at once")
                    .isGreaterThanOrEqualTo(Duration.ofMillis(250));
        }
    }

    /**
     * An id this process never issued (another replica's, or any too large) is answered once with the events kept,
     * and the stream goes on from them: it returned the same id, so every later read replayed them again at once.
     */
    @Test
    void an_id_from_elsewhere_replays_the_kept_events_once() throws Exception {
        try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("data"), Map.of("vector.enabled", "false",
                "worker.enabled", "false")))) {
            Jobs local = p.as(Tenant.LOCAL).jobs();
            p.admin().reindex("fulltext");
            long foreign = Long.MAX_VALUE - 1;
            Jobs.Events replay = local.events(foreign, Duration.ofMillis(200));
            assertThat(replay.lastId()).as("the cursor is this replica's").isLessThan(foreign);
            long before = System.nanoTime();
            Jobs.Events next = local.events(replay.lastId(), Duration.ofMillis(300));
            assertThat(next.shown()).as("nothing again").isEmpty();
            assertThat(Duration.ofNanos(System.nanoTime() - before)).isGreaterThanOrEqualTo(Duration.ofMillis(250));
        }
    }
}
