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

    /**
     * A subscriber waits on its own tenant's signal: another tenant's events neither wake it with nothing nor end its
     * wait; its own event does, at once; closing ends every wait.
     */
    @Test
    void a_subscriber_hears_its_own_tenants_events_and_is_not_ended_by_anothers() throws Exception {
        JobEvents events = new JobEvents();
        Tenant acme = Tenant.of("acme");
        long since = events.lastId(acme);
        var heard = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return events.after(acme, since, Duration.ofSeconds(20));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        Thread.sleep(100);
        for (int i = 0; i < 200; i++) {
            events.publish("progress", owned(job("globex-" + i), Tenant.of("globex").id()));
        }
        Thread.sleep(100);
        assertThat(heard).as("another tenant's events end nothing").isNotDone();
        assertThat(events.wakeUps()).as("nor wake it (each of the 200 did)").isLessThanOrEqualTo(1);
        long t0 = System.nanoTime();
        events.publish("created", owned(job("acme-1"), acme.id()));
        assertThat(heard.get(5, java.util.concurrent.TimeUnit.SECONDS)).extracting(e -> e.job().id())
                .containsExactly("acme-1");
        assertThat((System.nanoTime() - t0) / 1_000_000).isLessThan(5_000);
        var waiting = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return events.after(acme, events.lastId(acme), Duration.ofSeconds(20));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        Thread.sleep(100);
        events.close();
        assertThat(waiting.get(5, java.util.concurrent.TimeUnit.SECONDS)).as("closing ends the wait").isEmpty();
    }

    private static JobInfo owned(JobInfo j, String tenant) {
        return new JobInfo(j.id(), j.kind(), j.status(), j.progress(), j.error(), j.attempts(), j.createdAt(),
                j.updatedAt(), tenant, j.knowledgeBase(), j.source(), j.startedAt());
    }
}
