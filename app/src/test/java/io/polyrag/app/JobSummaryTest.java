package io.polyrag.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.model.ItemError;
import io.polyrag.core.model.JobProgress;
import io.polyrag.core.model.JobStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A job's one-line summary names its items as its handler calls them: an upload's files, a sync's items. */
class JobSummaryTest {

    @Test
    void a_summary_names_the_items_of_its_kind_of_job() {
        JobProgress some = JobProgress.at("done").total(3).failed(1).build();
        JobProgress all = JobProgress.at("done").total(2).failed(2)
                .errors(List.of(new ItemError("a.md", "a.md: no text to index"))).build();

        assertThat(JobOutcome.error(JobStatus.PARTIAL, some, "file"))
                .isEqualTo("1 of 3 files failed; the others were indexed (see errors)");
        assertThat(JobOutcome.error(JobStatus.PARTIAL, some, "item"))
                .isEqualTo("1 of 3 items failed; the others were indexed (see errors)");
        assertThat(JobOutcome.error(JobStatus.FAILED, all, "item"))
                .isEqualTo("all 2 items failed; the first: a.md: no text to index");
        assertThat(new SyncJob(null, null, null, null, null, 50).item()).isEqualTo("item");
        assertThat(new UploadJob(null, null, null, null).item()).isEqualTo("file");
    }
}
