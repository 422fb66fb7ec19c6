package io.polyrag.app;

import io.polyrag.core.model.KnowledgeBase;
import io.polyrag.app.api.TextIngest;
import io.polyrag.app.api.ReceivedFile;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.polyrag.core.StoreException;
import io.polyrag.core.config.Config;
import io.polyrag.core.model.CheckReport;
import io.polyrag.core.model.JobInfo;
import io.polyrag.core.model.JobProgress;
import io.polyrag.core.model.JobStatus;
import io.polyrag.core.model.SearchHit;
import io.polyrag.core.model.SearchRequest;
import io.polyrag.testing.SmallDisk;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Damaged stores, failing jobs and full disks, through the facade, on the real embedded stores. */
class DurabilityTest {
    @TempDir
    Path tmp;

    private Polyrag open(Path data, Map<String, String> more) {
        Map<String, String> s = new HashMap<>(Map.of("data.dir", data.toString(), "vector.enabled", "false"));
        s.putAll(more);
        return Polyrag.open(Config.load(Map.of(), s));
    }

    private static void ingest(Polyrag p, String uri, String text) {
        p.ingest().text(new TextIngest(text, null, uri, "text", KnowledgeBase.of("kb")));
    }

    private static List<String> uris(Polyrag p, String query) {
        return p.search().run(SearchRequest.of(query, 5)).hits().stream().map(SearchHit::uri).toList();
    }

    @Test
    void a_store_that_lost_its_commit_point_is_reported_not_ready_and_rebuilt_by_check_repair() throws Exception {
        Path data = tmp.resolve("data");
        Map<String, String> vectors = Map.of("vector.enabled", "true");
        try (Polyrag p = open(data, vectors)) {
            ingest(p, "note:a", "The lighthouse keeper logged a westerly gale.");
            ingest(p, "note:b", "The orchard manager grafted quince scions onto hawthorn.");
            ingest(p, "note:c", "Tidal mills turned when the sluice gates opened.");
        }
        for (String store : List.of("fulltext", "vector")) {
            try (Stream<Path> files = Files.list(data.resolve(store))) {
                for (Path f : files.filter(f -> f.getFileName().toString().startsWith("segments_")).toList()) {
                    Files.delete(f);
                }
            }
        }
        try (Polyrag p = open(data, vectors)) {
            assertThat(p.admin().readiness()).hasSize(2).allSatisfy(problem -> assertThat(problem)
                    .contains("lacks 3 records of 3 visible document versions").contains("polyrag check --repair"));
            assertThat(p.admin().readiness()).anySatisfy(problem -> assertThat(problem).startsWith("the fulltext store"));
            assertThat(uris(p, "quince hawthorn")).isEmpty();
            CheckReport before = p.admin().check(false);
            assertThat(before.consistent()).isFalse();
            assertThat(before.stores()).allSatisfy(s -> assertThat(s.records()).isZero());

            CheckReport repaired = p.admin().check(true);
            assertThat(repaired.consistent()).isTrue();
            assertThat(repaired.stores()).filteredOn(s -> s.store().equals("vector") || s.store().equals("fulltext"))
                    .hasSize(2).allSatisfy(s -> assertThat(s.reindexedVersions()).isEqualTo(3));
            assertThat(p.admin().readiness()).isEmpty();
            assertThat(uris(p, "quince hawthorn").getFirst()).isEqualTo("note:b");
            assertThat(p.search().run(new SearchRequest("a storm at sea near the coast", 3, List.of(),
                    java.util.Set.of(io.polyrag.core.model.Modality.VECTOR), null)).hits().getFirst().uri())
                    .as("the vector index is rebuilt with real embeddings").isEqualTo("note:a");
            assertThat(p.admin().check(false).stores()).filteredOn(s -> s.store().equals("vector")
                    || s.store().equals("fulltext")).allSatisfy(s -> assertThat(s.records()).isEqualTo(3));
        }
    }

    @Test
    void an_upload_job_whose_files_all_fail_ends_failed_and_one_with_some_failures_ends_partial() throws Exception {
        try (Polyrag p = open(tmp.resolve("data"), Map.of())) {
            JobInfo failed = run(p, Map.of("empty1.txt", " ", "empty2.txt", "\n"));
            assertThat(failed.status()).isEqualTo(JobStatus.FAILED);
            assertThat(failed.error()).startsWith("all 2 files failed; the first: ").contains("no text to index");
            JobInfo partial = run(p, Map.of("good.txt", "A note about tidal mills.", "empty.txt", " "));
            assertThat(partial.status()).isEqualTo(JobStatus.PARTIAL);
            assertThat(partial.error()).isEqualTo("1 of 2 files failed; the others were indexed (see errors)");
            JobInfo ok = run(p, Map.of("other.txt", "A note about sluice gates."));
            assertThat(ok.status()).isEqualTo(JobStatus.SUCCEEDED);
            assertThat(ok.error()).isNull();
        }
    }

    private static JobInfo run(Polyrag p, Map<String, String> files) throws Exception {
        Path dir = p.uploads().newStagingDir();
        List<ReceivedFile> staged = new java.util.ArrayList<>();
        for (Map.Entry<String, String> f : new java.util.TreeMap<>(files).entrySet()) {
            Path file = Files.writeString(dir.resolve(f.getKey()), f.getValue());
            staged.add(new ReceivedFile(f.getKey(), file));
        }
        String id = p.uploads().submit(KnowledgeBase.of("kb"), dir, staged, false);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        JobInfo j = p.jobs().get(id);
        while (!j.status().finished() && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(20);
            j = p.jobs().get(id);
        }
        // Deleted right after the job's end is recorded, so just after it is seen.
        org.awaitility.Awaitility.await("staged files are deleted once the job has ended")
                .atMost(java.time.Duration.ofSeconds(10)).until(() -> !Files.exists(dir));
        return j;
    }

    @Test
    void on_a_full_disk_search_keeps_serving_an_ingest_fails_with_one_line_and_all_works_once_space_is_freed()
            throws Exception {
        try (SmallDisk disk = SmallDisk.mount(tmp, 64)) {
            try (Polyrag p = open(disk.path().resolve("data"), Map.of())) {
                ingest(p, "note:a", "The lighthouse keeper logged a westerly gale.");
                disk.fill(32 * 1024);
                String big = "Quince orchards and hawthorn hedges. ".repeat(20_000);
                assertThatThrownBy(() -> ingest(p, "note:big", big)).isInstanceOf(StoreException.class)
                        .hasMessageContaining("no space left on device at " + disk.path().resolve("data"));
                assertThat(uris(p, "lighthouse gale")).containsExactly("note:a");
                disk.free();
                ingest(p, "note:b", "Tidal mills turned when the sluice gates opened.");
                assertThat(uris(p, "tidal sluice")).containsExactly("note:b");
                assertThat(p.admin().check(false).consistent()).isTrue();
                assertThat(p.admin().readiness()).isEmpty();
            }
        }
    }

    /** An accepted upload on a full disk waits, keeping the files it has not reached, and finishes once space is. */
    @Test
    void an_upload_job_on_a_full_disk_waits_and_finishes_once_space_is_freed() throws Exception {
        try (SmallDisk disk = SmallDisk.mount(tmp, 64)) {
            try (Polyrag p = open(disk.path().resolve("data"), Map.of("blob.dir", tmp.resolve("blobs").toString(),
                    "ingest.batch.documents", "1"))) {
                ingest(p, "note:a", "The lighthouse keeper logged a westerly gale.");
                Path dir = p.uploads().newStagingDir();
                List<ReceivedFile> files = new java.util.ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    Files.writeString(dir.resolve("f" + i), ("Quince orchard " + i + " and hawthorn hedges. ")
                            .repeat(8_000));
                    files.add(new ReceivedFile("orchard-" + i + ".txt", dir.resolve("f" + i)));
                }
                disk.fill(32 * 1024);
                String job = p.uploads().submit(KnowledgeBase.of("farm"), dir, files, true);
                // While the disk is full, reading the job can fail too (H2 reports its failed background write at
                // the next commit, a read's included): the job itself must wait, not fail.
                // Read in one call, so a timeout names the state it last saw.
                await().atMost(Duration.ofSeconds(60)).ignoreExceptionsInstanceOf(StoreException.class)
                        .until(() -> p.jobs().get(job), j -> JobProgress.WAITING.equals(j.progress().stage())
                                || j.status().finished());
                assertThat(p.jobs().get(job).status()).as(String.valueOf(p.jobs().get(job).error()))
                        .isNotEqualTo(JobStatus.FAILED);
                disk.free();
                await().atMost(Duration.ofSeconds(120)).ignoreExceptionsInstanceOf(StoreException.class)
                        .until(() -> p.jobs().get(job), j -> j.status().finished());
                assertThat(p.jobs().get(job).status()).isEqualTo(JobStatus.SUCCEEDED);
                assertThat(p.documents().list(null, 0, 10)).hasSize(5);
            }
        }
    }

    @Test
    void starting_on_a_full_disk_says_that_the_disk_is_full_and_where() throws Exception {
        try (SmallDisk disk = SmallDisk.mount(tmp, 16)) {
            disk.fill(0);
            assertThatThrownBy(() -> open(disk.path().resolve("data"), Map.of()).close())
                    .hasMessageContaining("no space left on device at " + disk.path().resolve("data"));
        }
    }
}
