package io.polyrag.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.model.JobInfo;
import io.polyrag.core.model.JobProgress;
import io.polyrag.core.model.JobStatus;
import io.polyrag.core.model.Tenant;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Event ids survive a restart: a subscriber resuming with the id it kept from the process before hears the new
 * process's events (ids restarted at 1 and it heard nothing until the new count passed its id), and an id never
 * issued here (a replica that started later) is taken as from elsewhere.
 */
class JobEventsIdsTest {
    private static JobInfo job(String id) {
        return new JobInfo(id, "ingest", JobStatus.RUNNING, JobProgress.queued(), null, 0, Instant.now(), Instant.now(),
                "", null, null, null);
    }

    @Test
    void an_id_kept_from_before_a_restart_or_from_another_replica_resumes_with_everything_kept() throws Exception {
        Tenant local = Tenant.LOCAL;
        JobEvents before = new JobEvents();
        for (int i = 0; i < 50; i++) {
            before.publish("progress", job("old-" + i));
        }
        long kept = before.lastId(local);
        Thread.sleep(2);
        JobEvents after = new JobEvents();
        after.publish("created", job("new-1"));
        after.publish("finished", job("new-1"));
        assertThat(after.after(local, kept, Duration.ofMillis(200))).extracting(JobEvents.Event::type)
                .containsExactly("created", "finished");
        assertThat(after.after(local, after.lastId(local) + 1_000_000, Duration.ofMillis(200)))
                .as("an id from a replica that started later").hasSize(2);
        assertThat(after.after(local, after.lastId(local), Duration.ofMillis(50))).as("nothing new yet").isEmpty();
        assertThat(after.lastId(local)).isGreaterThan(kept);
    }
}
