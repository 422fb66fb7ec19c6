package io.polyrag.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.app.api.ReceivedFile;
import io.polyrag.core.model.JobStatus;
import io.polyrag.core.model.KnowledgeBase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Uploads are staged in the blob store, so any replica sharing it can run their job: a job's blobs stay while it is
 * queued, however old, and go once it has ended; kept uploads expire; blobs no job owns (a crash between storing and
 * submitting) are swept after an hour, and nothing younger.
 */
class UploadStagingTest {
    @TempDir
    Path tmp;

    private Path data() {
        return tmp.resolve("data");
    }

    private Polyrag open(boolean workers) {
        return Polyrag.open(PolyragTest.config(data(), Map.of("worker.enabled", Boolean.toString(workers))));
    }

    @Test
    void staged_blobs_live_as_long_as_their_job_needs_them_and_strays_are_swept() throws Exception {
        String job;
        String kept;
        try (Polyrag p = open(false)) {
            Path dir = p.uploads().newStagingDir();
            Files.writeString(dir.resolve("0"), "# Okapi\n\nThe okapi is a giraffid native to the Congo.");
            job = p.uploads().submit(KnowledgeBase.of("zoo"), dir, List.of(new ReceivedFile("okapi.md",
                    dir.resolve("0"))), false);
            assertThat(dir).as("the local scratch folder is not needed once the blob is stored").doesNotExist();
            Path upload = Files.createTempFile(tmp, "up", ".md");
            Files.writeString(upload, "# Tapir\n\nThe tapir browses at dusk in the lowland forest.");
            kept = p.uploads().stage(KnowledgeBase.of("zoo"), List.of(new ReceivedFile("tapir.md", upload)))
                    .accepted().getFirst().id();
        }
        assertThat(blobs("job-")).hasSize(1);
        assertThat(blobs("upload-")).as("under the tenant's prefix").hasSize(2).allSatisfy(k -> assertThat(k)
                .matches("upload-[0-9a-f]{16}-" + kept + "(-meta)?"));
        writeStray("job-" + java.util.UUID.randomUUID() + "-0", Duration.ofHours(2));
        String young = "job-" + java.util.UUID.randomUUID() + "-0";
        writeStray(young, Duration.ofMinutes(5));
        writeStray("job-2024-report.csv", Duration.ofDays(5));   // another tool's, in a shared bucket
        age("job-", Duration.ofDays(3));
        try (Polyrag p = open(false)) {
            assertThat(blobs("job-")).as("the queued job's blob however old, the young stray, what is not polyrag's")
                    .hasSize(3).contains(young, "job-2024-report.csv");
            assertThat(blobs("upload-")).as("kept for POLYRAG_INGEST_STAGING_HOURS").hasSize(2);
        }
        age("upload-", Duration.ofDays(2));
        try (Polyrag p = open(true)) {
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> p.jobs().get(job).status()
                    .finished());
            assertThat(p.jobs().get(job).status()).isEqualTo(JobStatus.SUCCEEDED);
            assertThat(p.documents().content(p.documents().list(null, 0, 10).getFirst().id()).name())
                    .as("the original is kept from the staged blob").isEqualTo("okapi.md");
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> blobs("job-").equals(
                    List.of("job-2024-report.csv", young).stream().sorted().toList()));
            assertThat(blobs("upload-")).as("expired").isEmpty();
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> p.uploads().ingestStaged(List.of(kept), null,
                    false)).isInstanceOf(io.polyrag.core.NotFoundException.class).hasMessageContaining(kept)
                    .hasMessageContaining("expire");
        }
    }

    /** Two staged files of one name in one ingest would be one document: refused, naming the name. */
    @Test
    void staged_files_of_one_name_cannot_be_ingested_together() throws IOException {
        try (Polyrag p = Polyrag.open(PolyragTest.config(data(), Map.of("vector.enabled", "false")))) {
            List<String> ids = new java.util.ArrayList<>();
            for (String text : List.of("First guide.", "Second, longer guide.")) {
                Path f = Files.createTempFile(tmp, "g", ".md");
                Files.writeString(f, text);
                ids.add(p.uploads().stage(KnowledgeBase.of("docs"), List.of(new ReceivedFile("guide.md", f)))
                        .accepted().getFirst().id());
            }
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> p.uploads().ingestStaged(ids, null, false))
                    .isInstanceOf(io.polyrag.core.InvalidInputException.class).hasMessageContaining("'guide.md'");
            assertThat(p.uploads().ingestStaged(List.of(ids.get(1)), null, false)).as("still staged").isNotBlank();
        }
    }

    /** A double-click: ingests of one staged id at once start one job; the others are told it was taken. */
    @Test
    void ingests_of_one_staged_id_at_once_start_one_job() throws Exception {
        try (Polyrag p = Polyrag.open(PolyragTest.config(data(), Map.of("vector.enabled", "false")))) {
            var pool = java.util.concurrent.Executors.newFixedThreadPool(6);
            try {
                for (int round = 0; round < 10; round++) {
                    Path f = Files.createTempFile(tmp, "g", ".md");
                    Files.writeString(f, "Guide " + round + ".");
                    String id = p.uploads().stage(KnowledgeBase.of("docs"), List.of(new ReceivedFile("guide" + round
                            + ".md", f))).accepted().getFirst().id();
                    var start = new java.util.concurrent.CountDownLatch(1);
                    List<java.util.concurrent.Future<String>> tries = new java.util.ArrayList<>();
                    for (int t = 0; t < 6; t++) {
                        tries.add(pool.submit(() -> {
                            start.await();
                            try {
                                return p.uploads().ingestStaged(List.of(id), null, false);
                            } catch (io.polyrag.core.NotFoundException e) {
                                return null;
                            }
                        }));
                    }
                    start.countDown();
                    long jobs = 0;
                    for (var t : tries) {
                        jobs += t.get() == null ? 0 : 1;
                    }
                    assertThat(jobs).as("round %d", round).isEqualTo(1);
                }
            } finally {
                pool.shutdownNow();
            }
        }
    }

    /** Files staged for two knowledge bases, ingested together without 'kb': refused, not all put in the first's. */
    @Test
    void staged_files_of_two_knowledge_bases_need_kb_to_be_ingested_together() throws IOException {
        try (Polyrag p = Polyrag.open(PolyragTest.config(data(), Map.of("vector.enabled", "false")))) {
            List<String> ids = new java.util.ArrayList<>();
            for (String kb : List.of("alpha", "beta")) {
                Path f = Files.createTempFile(tmp, "g", ".md");
                Files.writeString(f, "A guide for " + kb + ".");
                ids.add(p.uploads().stage(KnowledgeBase.of(kb), List.of(new ReceivedFile(kb + ".md", f)))
                        .accepted().getFirst().id());
            }
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> p.uploads().ingestStaged(ids, null, false))
                    .isInstanceOf(io.polyrag.core.InvalidInputException.class)
                    .hasMessageContaining("different knowledge bases ('alpha', 'beta')");
            String job = p.uploads().ingestStaged(ids, KnowledgeBase.of("alpha"), false);
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(60)).until(() -> p.jobs().get(job).status().finished());
            assertThat(p.documents().list(null, 0, 10)).extracting(d -> d.knowledgeBase()).containsOnly("alpha");
        }
    }

    /** The blob store failing while the ids are claimed: those claimed already are given back, not lost. */
    @Test
    void a_claim_cut_short_by_the_blob_store_gives_back_what_it_took() throws IOException {
        try (Polyrag p = Polyrag.open(PolyragTest.config(data(), Map.of("vector.enabled", "false", "blob.backend",
                "flaky")))) {
            List<String> ids = new java.util.ArrayList<>();
            for (String name : List.of("one.md", "two.md")) {
                Path f = Files.createTempFile(tmp, "g", ".md");
                Files.writeString(f, "A guide called " + name);
                ids.add(p.uploads().stage(KnowledgeBase.of("docs"), List.of(new ReceivedFile(name, f))).accepted()
                        .getFirst().id());
            }
            FlakyBlobs.failDelete = k -> k.endsWith("-" + ids.get(1) + "-meta");
            try {
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> p.uploads().ingestStaged(ids, null, false))
                        .isInstanceOf(io.polyrag.core.StoreException.class);
            } finally {
                FlakyBlobs.reset();
            }
            assertThat(p.uploads().ingestStaged(ids, null, false)).as("both still staged").isNotBlank();
        }
    }

    /**
     * A process killed after an ingest claimed a kept file (its description deleted) and before the job committed:
     * the file waits again an hour later instead of being lost to the staging sweep.
     */
    @Test
    void a_kill_between_the_claim_and_the_job_loses_no_staged_file() throws IOException {
        Map<String, String> settings = Map.of("vector.enabled", "false", "blob.backend", "flaky", "worker.enabled",
                "false");
        String id;
        try (Polyrag p = Polyrag.open(PolyragTest.config(data(), settings))) {
            Path f = Files.createTempFile(tmp, "g", ".md");
            Files.writeString(f, "A guide to the tapir's forest.");
            id = p.uploads().stage(KnowledgeBase.of("docs"), List.of(new ReceivedFile("tapir.md", f))).accepted()
                    .getFirst().id();
            FlakyBlobs.killAfterDelete = k -> k.endsWith("-" + id + "-meta");
            try {
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> p.uploads().ingestStaged(List.of(id), null,
                        false)).isInstanceOf(FlakyBlobs.Killed.class);
            } finally {
                FlakyBlobs.reset();
            }
            assertThat(p.jobs().list(0, 10)).as("no job was committed").isEmpty();
        }
        try (Polyrag p = Polyrag.open(PolyragTest.config(data(), settings))) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> p.uploads().ingestStaged(List.of(id), null,
                    false)).as("within the hour the claim may still be an ingest on its way")
                    .isInstanceOf(io.polyrag.core.NotFoundException.class);
        }
        for (String key : blobs("upload-")) {
            Path content = data().resolve("blobs").resolve(key).resolve("content");
            if (key.endsWith("-claim")) {
                Files.setLastModifiedTime(content, FileTime.from(Instant.now().minus(Duration.ofHours(2))));
            }
        }
        try (Polyrag p = Polyrag.open(PolyragTest.config(data(), settings))) {
            assertThat(p.uploads().ingestStaged(List.of(id), null, false)).as("waiting again").isNotBlank();
            assertThat(blobs("upload-")).as("the upload's content only: the claim is settled").hasSize(1)
                    .noneMatch(k -> k.endsWith("-claim") || k.endsWith("-meta"));
        }
    }

    /**
     * A file found unchanged whose stored original is another file's (an earlier run published its new version and
     * stopped before keeping it) gets its original written again.
     */
    @Test
    void an_unchanged_file_whose_original_is_stale_gets_it_rewritten() throws IOException {
        try (Polyrag p = Polyrag.open(PolyragTest.config(data(), Map.of("vector.enabled", "false")))) {
            String v2 = "# Okapi\n\nThe okapi is a giraffid native to the Congo, and shy.";
            uploadAndWait(p, "# Okapi\n\nThe okapi is a giraffid.");
            // Version 2 published without its original, as a run that stopped between the two leaves it.
            p.ingest().items(List.of(new io.polyrag.core.model.SourceItem("upload:okapi.md", "okapi.md",
                    v2.getBytes(java.nio.charset.StandardCharsets.UTF_8), null)), KnowledgeBase.of("zoo"),
                    io.polyrag.core.port.ProgressListener.NONE);
            uploadAndWait(p, v2);
            String id = p.documents().list(null, 0, 10).getFirst().id();
            try (var in = p.documents().content(id).content()) {
                assertThat(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)).isEqualTo(v2);
            }
        }
    }

    /**
     * Two uploads at once, together past the storage quota: the second is refused while the first is still storing
     * its files (each saw nothing waiting, and both passed).
     */
    @Test
    void uploads_at_once_count_each_others_bytes_against_the_storage_quota() throws Exception {
        java.util.concurrent.CountDownLatch storing = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        try (Polyrag p = Polyrag.open(PolyragTest.config(data(), Map.of("vector.enabled", "false", "blob.backend",
                "flaky", "worker.enabled", "false")))) {
            p.usage().setQuotas("acme", new io.polyrag.core.port.UsageStore.Quotas(null, 1L, null, null));
            var acme = p.as(io.polyrag.core.model.Tenant.of("acme"));
            FlakyBlobs.failPut = k -> {
                storing.countDown();
                try {
                    release.await(30, java.util.concurrent.TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return false;
            };
            var pool = java.util.concurrent.Executors.newFixedThreadPool(2);
            try {
                var first = pool.submit(() -> upload(acme, "first.txt"));
                assertThat(storing.await(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
                var second = pool.submit(() -> upload(acme, "second.txt"));
                assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> second.get(10,
                        java.util.concurrent.TimeUnit.SECONDS))).as("refused at once, not storing beside the first")
                        .hasCauseInstanceOf(io.polyrag.core.QuotaExceededException.class)
                        .hasMessageContaining("stored_mb");
                release.countDown();
                assertThat(first.get(30, java.util.concurrent.TimeUnit.SECONDS)).isNotBlank();
            } finally {
                release.countDown();
                FlakyBlobs.reset();
                pool.shutdownNow();
            }
        }
    }

    /**
     * An upload that yields its worker to another tenant's job and resumes reports what all its runs did: it found
     * the files of its earlier run unchanged, and ended "added 60, unchanged 40" for 100 new files.
     */
    @Test
    void an_upload_that_yields_and_resumes_counts_every_file_it_added() throws IOException {
        try (Polyrag p = Polyrag.open(PolyragTest.config(data(), Map.of("vector.enabled", "false",
                "ingest.workers", "1", "ingest.job.slice.seconds", "1", "ingest.batch.documents", "1")))) {
            var alpha = p.as(io.polyrag.core.model.Tenant.of("alpha"));
            Path dir = alpha.uploads().newStagingDir();
            List<ReceivedFile> files = new java.util.ArrayList<>();
            int n = 150;
            for (int i = 0; i < n; i++) {
                Files.writeString(dir.resolve(Integer.toString(i)), "Tern count " + i + ": word"
                        + Integer.toString(i * 7919, 36) + " nested on the skerry.");
                files.add(new ReceivedFile("note-" + i + ".txt", dir.resolve(Integer.toString(i))));
            }
            String job = alpha.uploads().submit(KnowledgeBase.of("terns"), dir, files, true);
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> alpha.jobs().get(job)
                    .progress().added() > 5);
            var beta = p.as(io.polyrag.core.model.Tenant.of("beta"));
            Path other = beta.uploads().newStagingDir();
            Files.writeString(other.resolve("0"), "A one line note.");
            String small = beta.uploads().submit(KnowledgeBase.of("notes"), other, List.of(new ReceivedFile(
                    "note.txt", other.resolve("0"))), true);
            var done = org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(120)).until(() -> alpha.jobs()
                    .get(job), j -> j.status().finished());
            org.junit.jupiter.api.Assumptions.assumeTrue(done.attempts() > 1, "the upload finished before it "
                    + "had to yield (this machine is fast): nothing resumed to count");
            assertThat(beta.jobs().get(small).status()).isEqualTo(JobStatus.SUCCEEDED);
            assertThat(done.progress().added()).as(done.progress().toString()).isEqualTo(n);
            assertThat(done.progress().unchanged()).isZero();
        }
    }

    /** A staged file its client dropped is deleted, and stops counting against stored_mb at once. */
    @Test
    void a_dropped_staged_file_frees_its_quota_at_once() throws IOException {
        try (Polyrag p = Polyrag.open(PolyragTest.config(data(), Map.of("vector.enabled", "false",
                "worker.enabled", "false")))) {
            p.usage().setQuotas("acme", new io.polyrag.core.port.UsageStore.Quotas(null, 1L, null, null));
            var acme = p.as(io.polyrag.core.model.Tenant.of("acme"));
            String first = stage(acme, "first.txt").accepted().getFirst().id();
            assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> stage(acme, "second.txt")))
                    .as("the first holds 600 KB of the 1 MB").isInstanceOf(io.polyrag.core.QuotaExceededException.class);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> p.as(io.polyrag.core.model.Tenant.of("globex"))
                    .uploads().discardStaged(first)).isInstanceOf(io.polyrag.core.NotFoundException.class);
            acme.uploads().discardStaged(first);
            assertThat(stage(acme, "second.txt").accepted()).hasSize(1);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> acme.uploads().discardStaged(first))
                    .isInstanceOf(io.polyrag.core.NotFoundException.class);
        }
    }

    private static io.polyrag.app.api.StagingReport stage(Polyrag.TenantFacets t, String name) throws IOException {
        Path dir = t.uploads().newStagingDir();
        Files.writeString(dir.resolve("0"), "x".repeat(600 * 1024));
        return t.uploads().stage(KnowledgeBase.of("big"), List.of(new ReceivedFile(name, dir.resolve("0"))));
    }

    private static String upload(Polyrag.TenantFacets t, String name) throws IOException {
        Path dir = t.uploads().newStagingDir();
        Files.writeString(dir.resolve("0"), "x".repeat(600 * 1024));
        return t.uploads().submit(KnowledgeBase.of("big"), dir, List.of(new ReceivedFile(name, dir.resolve("0"))),
                true);
    }

    /**
     * A job stopped part way by a damaged index keeps the originals of the files it published before: the staged
     * files go with the failed job, and those documents had none.
     */
    @Test
    void a_job_that_fails_part_way_keeps_the_originals_of_what_it_published() throws IOException {
        Breaking.WRITES.set(0);
        Breaking.failFrom = 2;
        try (Polyrag p = Polyrag.open(PolyragTest.config(data(), Map.of("vector.enabled", "false",
                "fulltext.backend", "breaking", "ingest.batch.documents", "1")))) {
            Path dir = p.uploads().newStagingDir();
            List<ReceivedFile> files = new java.util.ArrayList<>();
            for (int i = 0; i < 3; i++) {
                Files.writeString(dir.resolve(Integer.toString(i)), "Tern count " + i + " on the skerry.");
                files.add(new ReceivedFile("note-" + i + ".txt", dir.resolve(Integer.toString(i))));
            }
            String job = p.uploads().submit(KnowledgeBase.of("terns"), dir, files, false);
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> p.jobs().get(job).status()
                    .finished());
            var docs = p.documents().list(null, 0, 10);
            assertThat(docs).as(p.jobs().get(job).toString()).hasSize(1);
            assertThat(p.documents().content(docs.getFirst().id()).name()).isEqualTo("note-0.txt");
        } finally {
            Breaking.failFrom = 0;
        }
    }

    private static void uploadAndWait(Polyrag p, String text) throws IOException {
        Path dir = p.uploads().newStagingDir();
        Files.writeString(dir.resolve("0"), text);
        String job = p.uploads().submit(KnowledgeBase.of("zoo"), dir, List.of(new ReceivedFile("okapi.md",
                dir.resolve("0"))), false);
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> p.jobs().get(job).status()
                .finished());
    }

    /** Every file's original is kept, however many the job holds (the report the job read named only 1,000). */
    @Test
    void an_upload_of_more_than_a_thousand_files_keeps_every_original() throws IOException {
        try (Polyrag p = Polyrag.open(PolyragTest.config(data(), Map.of("vector.enabled", "false")))) {
            Path dir = p.uploads().newStagingDir();
            List<ReceivedFile> files = new java.util.ArrayList<>();
            int n = 1_005;
            for (int i = 0; i < n; i++) {
                Files.writeString(dir.resolve(Integer.toString(i)), "Tern count " + i + ": word"
                        + Integer.toString(i * 7919, 36) + " nested on the skerry.");
                files.add(new ReceivedFile("note-" + i + ".txt", dir.resolve(Integer.toString(i))));
            }
            String job = p.uploads().submit(KnowledgeBase.of("terns"), dir, files, false);
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(120)).until(() -> p.jobs().get(job).status()
                    .finished());
            assertThat(p.jobs().get(job).progress().added()).isEqualTo(n);
            var docs = new java.util.ArrayList<>(p.documents().list(null, 0, 1_000));
            docs.addAll(p.documents().list(null, 1_000, 1_000));
            assertThat(docs).hasSize(n).allSatisfy(d -> assertThat(p.documents().content(d.id()).name())
                    .isEqualTo(d.uri().substring("upload:".length())));
        }
    }

    @Test
    void a_file_over_the_size_limit_is_neither_read_nor_stored_and_its_job_says_why() throws IOException {
        try (Polyrag p = Polyrag.open(PolyragTest.config(data(), Map.of("ingest.max.file.mb", "1")))) {
            Path dir = p.uploads().newStagingDir();
            Files.write(dir.resolve("0"), new byte[2 * 1024 * 1024]);
            Files.writeString(dir.resolve("1"), "# Tapir\n\nThe tapir browses at dusk.");
            String job = p.uploads().submit(KnowledgeBase.of("zoo"), dir, List.of(new ReceivedFile("big.bin",
                    dir.resolve("0")), new ReceivedFile("tapir.md", dir.resolve("1"))), false);
            assertThat(blobs("job-")).as("only the small file is staged").hasSize(1);
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> p.jobs().get(job).status()
                    .finished());
            var done = p.jobs().get(job);
            assertThat(done.status()).isEqualTo(JobStatus.PARTIAL);
            assertThat(done.progress().added()).isEqualTo(1);
            assertThat(done.progress().errors()).singleElement().satisfies(e -> assertThat(e.reason())
                    .contains("big.bin").contains("too large"));
        }
    }

    @Test
    void a_job_queued_by_the_previous_version_still_finds_its_locally_staged_files() throws IOException {
        // The previous version's payload: files as {name, path}, the path written the way Jackson writes a Path.
        Path file = Files.writeString(tmp.resolve("0"), "# Okapi\n\nThe okapi is a giraffid.");
        var mapper = tools.jackson.databind.json.JsonMapper.builder().build();
        String old = mapper.writeValueAsString(Map.of("knowledgeBase", "zoo", "stagingDir", tmp.toString(), "files",
                List.of(new ReceivedFile("okapi.md", file)), "skipGraph", false));
        UploadJob.Payload p = mapper.readValue(old, UploadJob.Payload.class);
        assertThat(p.files()).singleElement().satisfies(f -> {
            assertThat(f.key()).isNull();
            assertThat(UploadJob.legacyPath(f.path())).isEqualTo(file);
        });
    }

    /**
     * A tenant's uploads waiting to be ingested (kept files, queued jobs' files) count against its storage quota with
     * what it holds: one key could otherwise fill the blob store for a day past any quota.
     */
    @Test
    void uploads_waiting_to_be_ingested_count_against_the_storage_quota() throws IOException {
        try (Polyrag p = open(false)) {
            p.usage().setQuotas("", new io.polyrag.core.port.UsageStore.Quotas(null, 1L, null, null));
            Path a = Files.write(tmp.resolve("a"), filler('a', 600_000));
            assertThat(p.uploads().stage(KnowledgeBase.of("zoo"), List.of(new ReceivedFile("a.txt", a))).accepted())
                    .hasSize(1);
            Path b = Files.write(tmp.resolve("b"), filler('b', 600_000));
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> p.uploads().stage(KnowledgeBase.of("zoo"),
                    List.of(new ReceivedFile("b.txt", b)))).isInstanceOf(io.polyrag.core.QuotaExceededException.class)
                    .hasMessageContaining("stored_mb").hasMessageContaining("0.6 MB of uploads waiting to be ingested");
            assertThat(b).as("the refused upload's file is not left behind").doesNotExist();
            Path dir = p.uploads().newStagingDir();
            Files.write(dir.resolve("0"), filler('c', 300_000));
            p.uploads().submit(KnowledgeBase.of("zoo"), dir, List.of(new ReceivedFile("c.txt", dir.resolve("0"))),
                    false);
            Path dir2 = p.uploads().newStagingDir();
            Files.write(dir2.resolve("0"), filler('d', 200_000));
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> p.uploads().submit(KnowledgeBase.of("zoo"), dir2,
                    List.of(new ReceivedFile("d.txt", dir2.resolve("0"))), false)).isInstanceOf(
                    io.polyrag.core.QuotaExceededException.class).hasMessageContaining("this request's");
            assertThat(dir2).doesNotExist();
            assertThat(blobs("job-")).as("only the first job's file").hasSize(1);
        }
    }

    /** A tenant may have ingest.job.max.pending jobs queued or running; one more is a 429 and stores nothing. */
    @Test
    void a_tenant_has_at_most_its_pending_jobs_queued() throws IOException {
        try (Polyrag p = Polyrag.open(PolyragTest.config(data(), Map.of("worker.enabled", "false",
                "ingest.job.max.pending", "2")))) {
            List<String> jobs = new java.util.ArrayList<>();
            for (int i = 0; i < 3; i++) {
                Path dir = p.uploads().newStagingDir();
                Files.writeString(dir.resolve("0"), "Note " + i + " on the okapi.");
                var file = List.of(new ReceivedFile("n" + i + ".txt", dir.resolve("0")));
                if (i < 2) {
                    jobs.add(p.uploads().submit(KnowledgeBase.of("zoo"), dir, file, false));
                    continue;
                }
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> p.uploads().submit(KnowledgeBase.of("zoo"),
                        dir, file, false)).isInstanceOfSatisfying(io.polyrag.core.QuotaExceededException.class,
                        e -> assertThat(e.retryAfterSeconds()).isPositive()).hasMessageContaining("2 jobs")
                        .hasMessageContaining("POLYRAG_INGEST_JOB_MAX_PENDING");
                assertThat(dir).doesNotExist();
            }
            assertThat(blobs("job-")).hasSize(2);
            p.jobs().cancel(jobs.getFirst());
            Path dir = p.uploads().newStagingDir();
            Files.writeString(dir.resolve("0"), "A later note.");
            assertThat(p.uploads().submit(KnowledgeBase.of("zoo"), dir, List.of(new ReceivedFile("later.txt",
                    dir.resolve("0"))), false)).as("room again once one ended").isNotBlank();
        }
    }

    /**
     * One tenant's upload checks run one at a time, so its parallel uploads cannot take every parse permit from the
     * others: while acme's check slot is held its next check is refused after the parse time limit, and globex's runs.
     */
    @Test
    void one_tenants_upload_checks_run_one_at_a_time_and_others_go_on() throws IOException {
        try (Polyrag p = Polyrag.open(PolyragTest.config(data(), Map.of("vector.enabled", "false",
                "ingest.parse.timeout.seconds", "1")))) {
            io.polyrag.core.model.Tenant acme = io.polyrag.core.model.Tenant.of("acme");
            io.polyrag.core.model.Tenant globex = io.polyrag.core.model.Tenant.of("globex");
            var slot = p.metered().checkSlot(acme.id());
            assertThat(slot.tryAcquire()).isTrue();
            try {
                Path a = Files.writeString(tmp.resolve("a"), "# Tapir\n\nThe tapir browses at dusk.");
                var refused = p.as(acme).uploads().stage(KnowledgeBase.of("zoo"), List.of(new ReceivedFile("tapir.md",
                        a)));
                assertThat(refused.accepted()).isEmpty();
                assertThat(refused.skipped()).singleElement().satisfies(e -> assertThat(e.reason())
                        .contains("other uploads"));
                Path b = Files.writeString(tmp.resolve("b"), "# Okapi\n\nThe okapi is shy.");
                assertThat(p.as(globex).uploads().stage(KnowledgeBase.of("zoo"), List.of(new ReceivedFile("okapi.md",
                        b))).accepted()).as("another tenant's check runs").hasSize(1);
            } finally {
                slot.release();
            }
            Path c = Files.writeString(tmp.resolve("c"), "# Tapir\n\nThe tapir browses at dusk.");
            assertThat(p.as(acme).uploads().stage(KnowledgeBase.of("zoo"), List.of(new ReceivedFile("tapir.md", c)))
                    .accepted()).as("free again").hasSize(1);
        }
    }

    /** A file kept by the previous version (its key without the tenant's prefix) can still be ingested by its id. */
    @Test
    void a_file_kept_by_the_previous_version_is_still_found_by_its_id() throws IOException {
        String id;
        try (Polyrag p = open(false)) {
            Path f = Files.writeString(tmp.resolve("t"), "# Tapir\n\nThe tapir browses at dusk.");
            id = p.uploads().stage(KnowledgeBase.of("zoo"), List.of(new ReceivedFile("tapir.md", f))).accepted()
                    .getFirst().id();
        }
        for (String key : blobs("upload-")) {
            Files.move(data().resolve("blobs").resolve(key), data().resolve("blobs").resolve(key.replaceFirst(
                    "upload-[0-9a-f]{16}-", "upload-")));
        }
        assertThat(blobs("upload-")).containsExactlyInAnyOrder("upload-" + id, "upload-" + id + "-meta");
        try (Polyrag p = open(true)) {
            String job = p.uploads().ingestStaged(List.of(id), null, false);
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> p.jobs().get(job).status()
                    .finished());
            assertThat(p.jobs().get(job).status()).isEqualTo(JobStatus.SUCCEEDED);
        }
    }

    private static byte[] filler(char c, int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i % 80 == 79 ? '\n' : i % 6 == 5 ? ' ' : c);
        }
        return b;
    }

    private List<String> blobs(String prefix) throws IOException {
        try (Stream<Path> s = Files.list(data().resolve("blobs"))) {
            return s.map(d -> d.getFileName().toString()).filter(n -> n.startsWith(prefix)).sorted().toList();
        }
    }

    private void writeStray(String key, Duration age) throws IOException {
        Path d = Files.createDirectories(data().resolve("blobs").resolve(key));
        Files.writeString(d.resolve("content"), "stray");
        Files.writeString(d.resolve("meta.properties"), "name=stray.txt\nmediaType=text/plain\nsize=5\n");
        Files.setLastModifiedTime(d.resolve("content"), FileTime.from(Instant.now().minus(age)));
    }

    private void age(String prefix, Duration age) throws IOException {
        for (String key : blobs(prefix)) {
            Path content = data().resolve("blobs").resolve(key).resolve("content");
            if (Files.getLastModifiedTime(content).toInstant().isAfter(Instant.now().minus(Duration.ofHours(1)))
                    && !Files.readString(content).equals("stray")) {
                Files.setLastModifiedTime(content, FileTime.from(Instant.now().minus(age)));
            }
        }
    }
}
