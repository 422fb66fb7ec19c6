package io.polyrag.app.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.model.JobInfo;
import io.polyrag.core.model.JobProgress;
import io.polyrag.core.model.JobStatus;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** A job's ETA from its own run's pace: an hour queued made a 90-second job's estimate nine hours. */
class JobEtaTest {
    private static JobInfo job(int attempts, Instant created, Instant started) {
        return new JobInfo("j", "ingest-upload", JobStatus.RUNNING, JobProgress.at("indexing").total(100).processed(10)
                .build(), null, attempts, created, Instant.now(), "", null, null, started);
    }

    @Test
    void a_first_run_is_timed_from_its_start_and_a_resumed_one_from_submission() {
        Instant now = Instant.now();
        Long first = IngestWire.of(job(1, now.minusSeconds(3600), now.minusSeconds(10))).etaSeconds();
        assertThat(first).isBetween(85L, 95L);
        Long resumed = IngestWire.of(job(2, now.minusSeconds(100), now.minusSeconds(10))).etaSeconds();
        assertThat(resumed).as("its count holds the earlier runs' items: from submission").isBetween(895L, 905L);
    }
}
