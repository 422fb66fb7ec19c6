package io.polyrag.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.polyrag.app.api.SourceRegistration;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.model.DocumentInfo;
import io.polyrag.core.model.JobInfo;
import io.polyrag.core.model.JobStatus;
import io.polyrag.core.model.SearchHit;
import io.polyrag.core.model.SearchRequest;
import io.polyrag.core.model.Source;
import io.polyrag.core.model.Tenant;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A folder kept in step with the index, with real files: the first sync indexes it; unchanged files are never read
 * again; a changed file is re-indexed, a deleted one removed from every store, a new one — in a new subfolder too —
 * picked up by the watcher without asking; excluded, hidden and unsupported files stay out; tenants may register
 * only folders the server allows.
 */
class SyncTest {
    @TempDir
    Path tmp;

    @Test
    void a_watched_folder_stays_in_step_with_the_index() throws Exception {
        watchedFolder(Map.of());
    }

    @Test
    void a_watched_folder_stays_in_step_with_the_index_on_postgresql() throws Exception {
        watchedFolder(Map.of("catalog.backend", "postgres", "fulltext.backend", "postgres", "postgres.url",
                io.polyrag.testing.TestPostgres.freshSchema("sync")));
    }

    private void watchedFolder(Map<String, String> backends) throws Exception {
        Path root = Files.createDirectories(tmp.resolve("notes"));
        Files.writeString(root.resolve("tides.md"), "# Tides\n\nSpring tides at Quillon Point rise four metres.");
        Files.writeString(root.resolve("keeper.md"), "# Keeper\n\nAda Ferrow kept the Quillon light for forty years.");
        Files.writeString(root.resolve("draft.tmp.md"), "# Draft\n\nNot for the index: excluded by a glob.");
        Files.createDirectories(root.resolve(".git"));
        Files.writeString(root.resolve(".git/config"), "hidden");
        // Written an hour ago: a time within two seconds of the scan is not trusted (compared by bytes next time).
        for (String f : List.of("tides.md", "keeper.md")) {
            Files.setLastModifiedTime(root.resolve(f), FileTime.fromMillis(System.currentTimeMillis() - 3_600_000));
        }
        Map<String, String> settings = new java.util.HashMap<>(backends);
        settings.put("vector.enabled", "false");
        settings.put("sync.allowed.roots", tmp.toString());
        try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("data"), settings))) {
            var registered = p.sources().register(new SourceRegistration("notes", "filesystem", Map.of("root",
                    root.toString(), "exclude", List.of("*.tmp.md")), "coast", 30, true));
            awaitJob(p, registered.jobId());
            assertThat(uris(p)).containsExactlyInAnyOrder("keeper.md", "tides.md");
            assertThat(p.sources().get("notes").items()).isEqualTo(2);
            long keeperVersion = version(p, "keeper.md");

            // Same size and modification time, other bytes: a scan must not even read it, so nothing changes.
            FileTime mtime = Files.getLastModifiedTime(root.resolve("keeper.md"));
            Files.writeString(root.resolve("keeper.md"), "# Keeper\n\nEva Ferrow kept the Quillon light for forty years.");
            Files.setLastModifiedTime(root.resolve("keeper.md"), mtime);
            awaitJob(p, p.sources().sync("notes"));
            assertThat(version(p, "keeper.md")).as("unchanged by modification time: never read").isEqualTo(keeperVersion);

            // A real edit: re-indexed everywhere, the old text gone from search.
            Files.writeString(root.resolve("tides.md"), "# Tides\n\nNeap tides at Quillon Point rise one metre only.");
            Files.setLastModifiedTime(root.resolve("tides.md"), FileTime.fromMillis(mtime.toMillis() + 60_000));
            awaitJob(p, p.sources().sync("notes"));
            assertThat(texts(p, "neap tides")).anyMatch(t -> t.contains("Neap tides"));
            assertThat(texts(p, "spring tides four metres")).noneMatch(t -> t.contains("Spring tides"));

            // Live: a new file in a new subfolder, and a deletion, without asking for a sync.
            Files.createDirectories(root.resolve("log/1871"));
            Thread.sleep(300);
            Files.writeString(root.resolve("log/1871/storm.md"), "# Storm\n\nThe great gale of 1871 broke the lamp.");
            Files.delete(root.resolve("keeper.md"));
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(uris(p))
                    .containsExactlyInAnyOrder("tides.md", "storm.md"));
            assertThat(texts(p, "Ferrow kept the light")).noneMatch(t -> t.contains("Ferrow"));
            await().atMost(Duration.ofSeconds(30)).until(() -> p.jobs().list(0, 100).stream().allMatch(j ->
                    j.status() != JobStatus.QUEUED && j.status() != JobStatus.RUNNING));
            assertThat(p.admin().check(false).stores()).allSatisfy(s -> assertThat(s.orphanVersions())
                    .as(s.toString()).isZero());
            assertThat(p.jobs().list(0, 100)).as("every sync succeeded").allSatisfy(j -> assertThat(j.status())
                    .isEqualTo(JobStatus.SUCCEEDED));
            assertThat(p.jobs().list(0, 100)).as("the sync that saw keeper.md gone counted its deletion")
                    .anySatisfy(j -> assertThat(j.progress().deleted()).isEqualTo(1));
            assertThat(p.jobs().list(0, 100)).as("and one counted the new file").anySatisfy(j -> assertThat(
                    j.progress().added()).isEqualTo(1));

            // Deleting the source with its documents empties the knowledge base.
            assertThat(p.sources().delete("notes", true)).isEqualTo(2);
            assertThat(uris(p)).isEmpty();
        }
    }

    /**
     * With {@code sync.schedule} off (how {@code reindex} and {@code tune} open) a process neither watches folders nor
     * queues due syncs: those commands queued every tenant's due syncs and cut them short at their exit. A sync asked
     * for still runs.
     */
    @Test
    void a_process_that_does_not_schedule_syncs_leaves_a_changed_folder_alone_until_asked() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("quiet"));
        Files.writeString(root.resolve("tides.md"), "# Tides\n\nSpring tides at Quillon Point rise four metres.");
        try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("data"), Map.of("vector.enabled", "false",
                "sync.allowed.roots", tmp.toString(), "sync.schedule", "false")))) {
            var registered = p.sources().register(new SourceRegistration("quiet", "filesystem", Map.of("root",
                    root.toString()), "coast", 30, true));
            awaitJob(p, registered.jobId());
            int jobs = p.jobs().list(0, 100).size();
            Files.writeString(root.resolve("storm.md"), "# Storm\n\nThe great gale of 1871 broke the lamp.");
            Thread.sleep(3000); // a watched folder's change is queued within about a second
            assertThat(p.jobs().list(0, 100)).hasSize(jobs);
            assertThat(uris(p)).containsExactly("tides.md");
            awaitJob(p, p.sources().sync("quiet"));
            assertThat(uris(p)).containsExactlyInAnyOrder("tides.md", "storm.md");
        }
    }

    /**
     * A watched folder holding polyrag's own data directory (`polyrag serve --watch .` in a notes folder) is not
     * synced again by polyrag's own writes, nor by a hidden or excluded file; a real change is, and so is one in a
     * root folder deleted and made again (its watch was lost until a restart).
     */
    @Test
    void only_changes_a_source_indexes_set_off_a_sync_and_a_recreated_root_is_watched_again() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("notes"));
        Files.writeString(root.resolve("tides.md"), "# Tides\n\nSpring tides at Quillon Point rise four metres.");
        try (Polyrag p = Polyrag.open(PolyragTest.config(root.resolve("data"), Map.of("vector.enabled", "false",
                "sync.allowed.roots", tmp.toString())))) {
            var registered = p.sources().register(new SourceRegistration("notes", "filesystem", Map.of("root",
                    root.toString(), "exclude", List.of("*.log")), "coast", 3600, true));
            awaitJob(p, registered.jobId());
            Files.writeString(root.resolve(".tides.md.swp"), "swap");
            Files.writeString(root.resolve("run.log"), "a log line");
            Thread.sleep(4000);
            assertThat(p.jobs().list(0, 100)).as("polyrag's own writes, a swap file, an excluded log: no sync")
                    .hasSize(1);

            Files.writeString(root.resolve("storm.md"), "# Storm\n\nThe great gale of 1871 broke the lamp.");
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(uris(p)).contains("storm.md"));
        }
        Path data = tmp.resolve("data2");
        Path moved = Files.createDirectories(tmp.resolve("shore"));
        try (Polyrag p = Polyrag.open(PolyragTest.config(data, Map.of("vector.enabled", "false",
                "sync.allowed.roots", tmp.toString())))) {
            var registered = p.sources().register(new SourceRegistration("shore", "filesystem", Map.of("root",
                    moved.toString()), "coast", 3600, true));
            awaitJob(p, registered.jobId());
            Files.delete(moved);
            Thread.sleep(1500);
            Files.createDirectories(moved);
            Files.writeString(moved.resolve("gulls.md"), "# Gulls\n\nHerring gulls nest on the shore roofs.");
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(uris(p)).contains("gulls.md"));
        }
    }

    @Test
    void a_file_written_many_times_a_second_is_synced_once_it_settles() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("busy"));
        Files.writeString(root.resolve("log.md"), "# Log\n\nEntry 0.");
        try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("data"), Map.of("vector.enabled", "false",
                "sync.allowed.roots", root.toString())))) {
            String first = p.sources().register(new SourceRegistration("busy", "filesystem", Map.of("root",
                    root.toString()), null, 3600, true)).jobId();
            awaitJob(p, first);
            assertThat(p.jobs().get(first).progress().storesWritten()).as("what the sync's ingest wrote to")
                    .containsExactly("fulltext");
            int before = p.jobs().list(0, 100).size();
            Thread.sleep(300);
            for (int i = 1; i <= 40; i++) {
                Files.writeString(root.resolve("log.md"), "# Log\n\nEntry " + i + " of the busy writer.");
                Thread.sleep(25);
            }
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(texts(p, "entry busy writer"))
                    .anyMatch(t -> t.contains("Entry 40 of")));
            Thread.sleep(2500);
            List<io.polyrag.core.model.JobInfo> syncs = p.jobs().list(0, 100);
            assertThat(syncs.size() - before).as("40 writes in a second, debounced: " + syncs).isBetween(1, 2);
            assertThat(version(p, "log.md")).as("re-indexed once or twice, not 40 times").isLessThanOrEqualTo(3);
        }
    }

    @Test
    void a_source_of_a_type_this_server_has_no_connector_for_shows_none_of_its_settings() throws Exception {
        // Written by a replica that has a connector this one lacks: which settings are secret is unknown here.
        try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("data"), Map.of("vector.enabled", "false")))) {
            p.components().catalog.sourceStore().createSource(new Source(Tenant.LOCAL.id(), "vault", "ftp", "{\"host\":"
                    + "\"ftp.example.com\",\"password\":\"hunter2\",\"passive\":\"\"}", "default", 3600, false,
                    Instant.now(), null, null));

            assertThat(p.sources().get("vault").config()).containsEntry("host", "********")
                    .containsEntry("password", "********").containsEntry("passive", "");
            assertThat(p.sources().list()).singleElement().satisfies(i -> assertThat(i.config().values())
                    .doesNotContain("hunter2"));
        }
    }

    @Test
    void a_file_that_cannot_be_indexed_fails_once_not_at_every_scan() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("mixed"));
        Files.writeString(root.resolve("good.md"), "# Good\n\nThe lamp burns whale oil.");
        Files.writeString(root.resolve("empty.md"), "");
        try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("data"), Map.of("vector.enabled", "false",
                "sync.watch", "false", "sync.allowed.roots", root.toString())))) {
            String first = p.sources().register(new SourceRegistration("mixed", "filesystem", Map.of("root",
                    root.toString()), null, null, null)).jobId();
            await().atMost(Duration.ofSeconds(60)).until(() -> p.jobs().get(first).status() == JobStatus.PARTIAL);
            assertThat(p.jobs().get(first).progress().errors()).singleElement().satisfies(e -> assertThat(e.reason())
                    .contains("empty.md"));
            String second = p.sources().sync("mixed");
            awaitJob(p, second);
            assertThat(p.jobs().get(second).progress().unchanged()).as("neither file is read again").isEqualTo(2);
            Files.writeString(root.resolve("empty.md"), "# Filled\n\nNow it has text.");
            awaitJob(p, p.sources().sync("mixed"));
            assertThat(uris(p)).containsExactlyInAnyOrder("good.md", "empty.md");
        }
    }

    /**
     * A sync that fails outright (here refused by the documents quota, already reached) is recorded as the source's
     * scan, with its error: it left the last scan where it was, so the source stayed due and was synced again every
     * few seconds, forever, while it showed no error.
     */
    @Test
    void a_failed_sync_is_the_sources_scan_and_names_its_error() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("quota"));
        Files.writeString(root.resolve("new.md"), "# New\n\nA note the quota turns away.");
        try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("data"), Map.of("sync.watch", "false",
                "sync.allowed.roots", root.toString())))) {
            p.ingest().text(new io.polyrag.app.api.TextIngest("The first note fills the quota.", "First", null, null,
                    null, true));
            p.usage().setQuotas("", new io.polyrag.core.port.UsageStore.Quotas(1L, null, null, null));
            String job = p.sources().register(new SourceRegistration("quota", "filesystem", Map.of("root",
                    root.toString()), null, null, null)).jobId();
            await().atMost(Duration.ofSeconds(60)).until(() -> p.jobs().get(job).status().finished());
            assertThat(p.jobs().get(job).status()).isEqualTo(JobStatus.FAILED);
            var source = p.sources().get("quota");
            assertThat(source.lastScanAt()).as("the failed sync counts as the scan").isNotNull();
            assertThat(source.lastError()).contains("quota");
        }
    }

    /**
     * A file refused for a reason of the moment (here the documents quota, reached part way through a scan) is not
     * remembered as read: once the quota is raised the next scan indexes it (before, it stayed out for good).
     */
    @Test
    void a_file_that_failed_for_a_reason_of_the_moment_is_tried_again_at_the_next_scan() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("notes"));
        // In a subfolder: an error names a file by its name, the state by its path (they were matched by the path's
        // end, which a nested file's name never is, so nested files were remembered as refused).
        Path sub = Files.createDirectories(root.resolve("colony"));
        int n = 120;
        for (int i = 0; i < n; i++) {
            Files.writeString(sub.resolve("note-" + i + ".md"), "# Note " + i + "\n\nThe tern colony number " + i
                    + " nested on skerry word" + Integer.toString(i * 7919, 36) + " this spring. ".repeat(20));
        }
        // One document a batch, so the scan takes seconds and meets the limit part way.
        try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("data"), Map.of("sync.watch", "false",
                "sync.allowed.roots", root.toString(), "ingest.batch.documents", "1")))) {
            p.usage().setQuotas("", new io.polyrag.core.port.UsageStore.Quotas(5L, null, null, null));
            String first = p.sources().register(new SourceRegistration("notes", "filesystem", Map.of("root",
                    root.toString()), null, null, null)).jobId();
            await().atMost(Duration.ofSeconds(120)).until(() -> p.jobs().get(first).status().finished());
            int indexed = p.documents().list(null, 0, 200).size();
            assertThat(indexed).as(String.valueOf(p.jobs().get(first))).isBetween(5, n - 1);
            assertThat(p.jobs().get(first).progress().errors()).first().satisfies(e -> assertThat(e.reason())
                    .contains("quota documents"));

            p.usage().setQuotas("", new io.polyrag.core.port.UsageStore.Quotas(null, null, null, null));
            String second = p.sources().sync("notes");
            await().atMost(Duration.ofSeconds(120)).until(() -> p.jobs().get(second).status().finished());
            assertThat(p.jobs().get(second).progress().added()).as(String.valueOf(p.jobs().get(second)))
                    .isEqualTo(n - indexed);
            assertThat(p.documents().list(null, 0, 200)).hasSize(n);
        }
    }

    /** A file changed while its source's sync runs is synced right after it, not at the next interval. */
    @Test
    void a_change_made_during_a_running_sync_is_synced_right_after_it() throws Exception {
        Path root = notes(tmp.resolve("notes"), 300);
        try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("data"), Map.of("sync.allowed.roots",
                root.toString(), "ingest.batch.documents", "1")))) {
            String first = p.sources().register(new SourceRegistration("notes", "filesystem", Map.of("root",
                    root.toString()), null, null, null)).jobId();
            await().atMost(Duration.ofSeconds(60)).until(() -> p.documents().list(null, 0, 200).size() > 20);
            // A file this sync has indexed already (searchable: published, not only staged): it is not read again.
            String done = uris(p).getFirst();
            int i = Integer.parseInt(done.substring(5, 8));
            await().atMost(Duration.ofSeconds(60)).until(() -> p.search().run(SearchRequest.of("word"
                    + Integer.toString(i * 7919, 36), 3)).hits().stream().anyMatch(h -> h.uri().endsWith(done)));
            Files.writeString(root.resolve(done), "# Changed\n\nThe puffin burrow zyxquorv was found.");
            assertThat(p.jobs().get(first).status()).as("changed while the sync runs").isEqualTo(JobStatus.RUNNING);
            await().atMost(Duration.ofSeconds(120)).until(() -> p.jobs().get(first).status().finished());
            await().atMost(Duration.ofSeconds(60)).until(() -> !p.search().run(SearchRequest.of("zyxquorv", 3))
                    .hits().isEmpty());
        }
    }

    /**
     * Settings changed while a sync runs (it read the old ones) are applied by a sync right after it, not at the
     * next interval: the update's answer named the running sync, which ignored them.
     */
    @Test
    void settings_changed_during_a_running_sync_are_applied_right_after_it() throws Exception {
        Path root = notes(tmp.resolve("terns"), 200);
        try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("data"), Map.of("sync.allowed.roots",
                root.toString(), "ingest.batch.documents", "1", "sync.watch", "false")))) {
            String first = p.sources().register(new SourceRegistration("terns", "filesystem", Map.of("root",
                    root.toString()), null, 86_400, true)).jobId();
            await().atMost(Duration.ofSeconds(60)).until(() -> p.documents().list(null, 0, 200).size() > 5);
            var updated = p.sources().update(new SourceRegistration("terns", "filesystem", Map.of("root",
                    root.toString(), "exclude", List.of("note-1*.md")), null, 86_400, true));
            assertThat(updated.jobId()).as("the running sync answered").isEqualTo(first);
            await().atMost(Duration.ofSeconds(120)).until(() -> p.jobs().get(first).status().finished());
            await().atMost(Duration.ofSeconds(120)).untilAsserted(() -> assertThat(p.documents().list(null, 0, 300))
                    .hasSize(100).allSatisfy(d -> assertThat(d.uri()).doesNotContain("note-1")));
            Thread.sleep(2500);
            assertThat(p.jobs().list(0, 100)).as("the running sync scanned again itself: no second sync")
                    .extracting(j -> j.id()).containsExactly(first);
        }
    }

    /**
     * A renamed file is a copy of its old name's document until that is deleted: it stays searchable (it was
     * recorded as that document, which the same sync deleted, and never read again), and removing one of two copies
     * leaves the other.
     */
    @Test
    void a_renamed_file_stays_searchable_and_a_removed_copy_leaves_the_other() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("notes"));
        Files.writeString(root.resolve("a.md"), "# Kiln\n\nThe anagama kiln is fired for five days.");
        try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("data"), Map.of("sync.watch", "false",
                "sync.allowed.roots", root.toString())))) {
            awaitJob(p, p.sources().register(new SourceRegistration("notes", "filesystem", Map.of("root",
                    root.toString()), null, null, null)).jobId());
            Files.move(root.resolve("a.md"), root.resolve("b.md"));
            String renamed = p.sources().sync("notes");
            awaitJob(p, renamed);
            assertThat(uris(p)).containsExactly("b.md");
            // Counted once, as what it became: not also as the copy it first was.
            var progress = p.jobs().get(renamed).progress();
            assertThat(progress.unchanged()).as(progress.toString()).isZero();
            assertThat(progress.processed()).isEqualTo(1);
            assertThat(p.search().run(SearchRequest.of("anagama kiln", 3)).hits()).isNotEmpty();
            awaitJob(p, p.sources().sync("notes"));
            assertThat(uris(p)).as("and it stays").containsExactly("b.md");

            Files.copy(root.resolve("b.md"), root.resolve("c.md"));
            awaitJob(p, p.sources().sync("notes"));
            Files.delete(root.resolve("c.md"));
            awaitJob(p, p.sources().sync("notes"));
            assertThat(uris(p)).as("removing the copy leaves the original").containsExactly("b.md");
        }
    }

    @Test
    void a_folder_ingested_with_sync_is_seeded_so_its_first_scan_reads_nothing() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("docs"));
        Files.writeString(root.resolve("a.md"), "# A\n\nThe lamp of Quillon Point burns whale oil.");
        Files.writeString(root.resolve("b.md"), "# B\n\nThe keeper logs the tide at dawn and at dusk.");
        try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("data"), Map.of("vector.enabled", "false",
                "sync.watch", "false", "sync.allowed.roots", root.toString())))) {
            p.ingest().paths(io.polyrag.app.api.PathIngest.of(List.of(root), null),
                    io.polyrag.core.port.ProgressListener.NONE);
            var source = p.sources().registerIngested(new SourceRegistration("docs", "filesystem", Map.of("root",
                    root.toString()), null, null, null));
            assertThat(source.items()).isEqualTo(2);
            long version = version(p, "a.md");
            // Other bytes, same size and time: had the scan read it, it would re-index it.
            FileTime mtime = Files.getLastModifiedTime(root.resolve("a.md"));
            Files.writeString(root.resolve("a.md"), "# A\n\nThe lamp of Quillon Point burns olive oil.");
            Files.setLastModifiedTime(root.resolve("a.md"), mtime);
            String job = p.sources().sync("docs");
            awaitJob(p, job);
            assertThat(p.jobs().get(job).progress().unchanged()).isEqualTo(2);
            assertThat(version(p, "a.md")).isEqualTo(version);
        }
    }

    @Test
    void a_tenant_may_register_only_folders_the_server_allows_and_bad_settings_are_named() throws Exception {
        Path allowed = Files.createDirectories(tmp.resolve("shared/acme"));
        Path other = Files.createDirectories(tmp.resolve("private"));
        try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("data"), Map.of("vector.enabled", "false",
                "sync.tenant.roots", "acme=" + tmp.resolve("shared") + ";globex=" + other,
                "sync.allowed.roots", tmp.toString())))) {
            Sources acme = p.as(Tenant.of("acme")).sources();
            assertThatThrownBy(() -> p.as(Tenant.of("initech")).sources().register(new SourceRegistration("x",
                    "filesystem", Map.of("root", allowed.toString()), null, null, null)))
                    .as("a tenant the operator named no folders for registers none, whatever the local tenant may")
                    .hasMessageContaining("POLYRAG_SYNC_TENANT_ROOTS");
            assertThatThrownBy(() -> p.as(Tenant.of("globex")).sources().register(new SourceRegistration("x",
                    "filesystem", Map.of("root", allowed.toString()), null, null, null)))
                    .as("one tenant cannot register another's folder").hasMessageContaining("not inside");
            assertThatThrownBy(() -> acme.register(new SourceRegistration("x", "filesystem", Map.of("root",
                    other.toString()), null, null, null))).isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("not inside a folder this server lets this tenant's sources read");
            assertThatThrownBy(() -> acme.register(new SourceRegistration("x", "filesystem", Map.of("root",
                    allowed.resolve("../../private").toString()), null, null, null)))
                    .hasMessageContaining("not inside");
            assertThatThrownBy(() -> acme.register(new SourceRegistration("x", "ftp", Map.of(), null, null, null)))
                    .hasMessageContaining("'type' must be one of filesystem (a folder on the server").hasMessageContaining(
                            "web (a web site");
            assertThatThrownBy(() -> acme.register(new SourceRegistration("x", "filesystem", Map.of("root",
                    allowed.toString()), null, 5, null))).hasMessageContaining("interval_seconds");
            assertThatThrownBy(() -> acme.register(new SourceRegistration("Bad Id", "filesystem", Map.of("root",
                    allowed.toString()), null, null, null))).hasMessageContaining("'source_id'");
            assertThatThrownBy(() -> acme.register(new SourceRegistration("x", "filesystem", Map.of("root",
                    allowed.toString(), "depth", 3), null, null, null))).hasMessageContaining("config.depth");
            var ok = acme.register(new SourceRegistration("x", "filesystem", Map.of("root", allowed.toString()),
                    null, null, null));
            assertThat(ok.source().intervalSeconds()).isEqualTo(300);
            assertThat(ok.source().createdAt()).as("the registered source as stored").isNotNull();
            assertThat(p.sources().list()).as("another tenant's source is not the local tenant's").isEmpty();
            assertThat(acme.enable("x", false).source().enabled()).isFalse();
            assertThatThrownBy(() -> acme.sync("x")).hasMessageContaining("disabled");
            assertThat(acme.syncAll()).isEmpty();
            assertThat(acme.enable("x", true).jobId()).isNotNull();
            assertThatThrownBy(() -> p.sources().get("x")).isInstanceOf(io.polyrag.core.NotFoundException.class);
        }
    }

    /** A relative allowed root was resolved against the working folder (a systemd unit's is not a shell's). */
    @Test
    void a_relative_allowed_root_is_refused_at_start_naming_the_setting() {
        assertThatThrownBy(() -> Polyrag.open(PolyragTest.config(tmp.resolve("data"), Map.of("vector.enabled",
                "false", "sync.allowed.roots", tmp + ",docs/notes")))).isInstanceOf(io.polyrag.core.ConfigException.class)
                .hasMessageContaining("POLYRAG_SYNC_ALLOWED_ROOTS").hasMessageContaining("absolute paths");
    }

    /**
     * A sync that yields its worker to another tenant's job and resumes reports what all its runs did: the resumed
     * run finds the files the first indexed unchanged, and ended "added 120, unchanged 30" for 150 new files.
     */
    @Test
    void a_sync_that_yields_and_resumes_counts_every_file_it_added() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("shared/alpha/notes"));
        int n = 150;
        for (int i = 0; i < n; i++) {
            Files.writeString(root.resolve("note-" + i + ".txt"), "Tern count " + i + ": word"
                    + Integer.toString(i * 7919, 36) + " nested on the skerry.");
        }
        try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("data"), Map.of("vector.enabled", "false",
                "ingest.workers", "1", "ingest.job.slice.seconds", "1", "ingest.batch.documents", "1",
                "sync.watch", "false", "sync.schedule", "false", "sync.tenant.roots", "alpha="
                        + tmp.resolve("shared/alpha"), "sync.allowed.roots", tmp.toString())))) {
            var alpha = p.as(Tenant.of("alpha"));
            String job = alpha.sources().register(new SourceRegistration("notes", "filesystem", Map.of("root",
                    root.toString()), "terns", null, null)).jobId();
            await().atMost(Duration.ofSeconds(60)).until(() -> alpha.jobs().get(job).progress().added() > 5);
            var beta = p.as(Tenant.of("beta"));
            Path other = beta.uploads().newStagingDir();
            Files.writeString(other.resolve("0"), "A one line note.");
            String small = beta.uploads().submit(io.polyrag.core.model.KnowledgeBase.of("notes"), other, List.of(
                    new io.polyrag.app.api.ReceivedFile("note.txt", other.resolve("0"))), true);
            JobInfo done = await().atMost(Duration.ofSeconds(120)).until(() -> alpha.jobs().get(job),
                    j -> j.status().finished());
            org.junit.jupiter.api.Assumptions.assumeTrue(done.attempts() > 1, "the sync finished before it had to "
                    + "yield (this machine is fast): nothing resumed to count");
            assertThat(beta.jobs().get(small).status()).isEqualTo(JobStatus.SUCCEEDED);
            assertThat(done.progress().added()).as(done.progress().toString()).isEqualTo(n);
            assertThat(done.progress().unchanged()).isZero();
            assertThat(alpha.documents().list(io.polyrag.core.model.KnowledgeBase.of("terns"), 0, 200)).hasSize(n);
        }
    }

    @Test
    void an_s3_sources_secret_is_stored_never_shown_and_kept_by_an_update_that_leaves_it_out() throws Exception {
        // Port 1 on loopback: nothing listens, so the sync fails to list and changes nothing; the settings are the point.
        Map<String, Object> config = new java.util.HashMap<>(Map.of("bucket", "team-docs", "prefix", "guides/",
                "endpoint", "http://127.0.0.1:1", "access_key_id", "AKIA1", "secret_access_key", "first-secret"));
        try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("data"), Map.of("vector.enabled", "false",
                "sync.s3.timeout.seconds", "1")))) {
            assertThatThrownBy(() -> p.sources().register(new SourceRegistration("bucket", "s3", config, null, 3600,
                    null))).as("a loopback endpoint without the operator's allowance")
                    .hasMessageContaining("POLYRAG_SYNC_S3_ALLOW_PRIVATE");
        }
        try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("data"), Map.of("vector.enabled", "false",
                "sync.s3.allow.private", "true", "sync.s3.timeout.seconds", "1")))) {
            var registered = p.sources().register(new SourceRegistration("bucket", "s3", config, null, 3600, null));
            assertThat(registered.source().config()).containsEntry("secret_access_key", "********")
                    .containsEntry("access_key_id", "AKIA1").containsEntry("path_style", true);
            assertThat(p.sources().list().getFirst().config().toString()).doesNotContain("first-secret");
            java.util.function.Supplier<Object> stored = () -> Sources.config(p.components().catalog.sourceStore().source("",
                    "bucket").orElseThrow().config()).get("secret_access_key");
            assertThat(stored.get()).isEqualTo("first-secret");

            await().atMost(Duration.ofSeconds(60)).until(() -> p.jobs().get(registered.jobId()).status()
                    != JobStatus.QUEUED && p.jobs().get(registered.jobId()).status() != JobStatus.RUNNING);
            assertThat(p.jobs().get(registered.jobId()).progress().errors()).singleElement().satisfies(e -> assertThat(e.reason())
                    .contains("the bucket 'team-docs' at http://127.0.0.1:1 cannot be listed")
                    .contains("nothing was changed in the index"));

            config.put("secret_access_key", "********");
            config.put("prefix", "manuals/");
            p.sources().update(new SourceRegistration("bucket", "s3", config, null, 3600, false));
            assertThat(stored.get()).as("sent back hidden: kept").isEqualTo("first-secret");
            config.remove("secret_access_key");
            p.sources().update(new SourceRegistration("bucket", "s3", config, null, 3600, false));
            assertThat(stored.get()).as("left out: kept").isEqualTo("first-secret");
            assertThat(p.sources().get("bucket").config()).containsEntry("prefix", "manuals/");
            config.put("secret_access_key", "second-secret");
            p.sources().update(new SourceRegistration("bucket", "s3", config, null, 3600, false));
            assertThat(stored.get()).isEqualTo("second-secret");
            assertThat(p.as(Tenant.of("acme")).sources().list()).as("another tenant sees none of it").isEmpty();
        }
    }

    @Test
    void a_scan_reads_only_files_that_resolve_inside_the_tenants_folders_and_outside_the_data_directory()
            throws Exception {
        Path shared = Files.createDirectories(tmp.resolve("srv/acme"));
        Path data = tmp.resolve("data");
        Files.writeString(shared.resolve("handbook.md"), "# Handbook\n\nThe Quillon lamp is trimmed at dusk.");
        Path outside = Files.createDirectories(tmp.resolve("srv/globex"));
        Files.writeString(outside.resolve("secret.md"), "# Secret\n\nGlobex payroll password is zebra-umbrella.");
        Files.createDirectories(shared.resolve("inner"));
        Files.writeString(shared.resolve("inner/tides.md"), "# Tides\n\nNeap tides at Quillon Point are gentle.");
        Files.createSymbolicLink(shared.resolve("secret.md"), outside.resolve("secret.md"));
        Files.createSymbolicLink(shared.resolve("globex"), outside);
        Files.createSymbolicLink(shared.resolve("data"), data);
        Files.createDirectories(shared.resolve(".archive"));
        Files.writeString(shared.resolve(".archive/old.md"), "# Old\n\nThe old lamp burned colza oil.");
        Files.createSymbolicLink(shared.resolve("old-link.md"), shared.resolve(".archive/old.md"));
        Files.createSymbolicLink(shared.resolve("inner/loop"), shared);
        try (Polyrag p = Polyrag.open(PolyragTest.config(data, Map.of("vector.enabled", "false", "sync.watch",
                "false", "sync.tenant.roots", "acme=" + shared + "," + data)))) {
            // (Even an operator who names the data directory among a tenant's folders opens it to no source.)
            // Another tenant's original in the blob store, which a link into the data directory would reach.
            Path upload = Files.createDirectories(tmp.resolve("upload"));
            Files.writeString(upload.resolve("plans.md"), "# Plans\n\nInitech launch codename is marmalade-kite.");
            Uploads initech = p.as(Tenant.of("initech")).uploads();
            Path staging = initech.newStagingDir();
            Files.copy(upload.resolve("plans.md"), staging.resolve("plans.md"));
            String uploadJob = initech.submit(null, staging, List.of(new io.polyrag.app.api.ReceivedFile("plans.md",
                    staging.resolve("plans.md"))), true);
            await().atMost(Duration.ofSeconds(60)).until(() -> p.as(Tenant.of("initech")).jobs().get(uploadJob)
                    .status().finished());

            Sources acme = p.as(Tenant.of("acme")).sources();
            String job = acme.register(new SourceRegistration("docs", "filesystem", Map.of("root", shared.toString(),
                    "follow_symlinks", true), null, null, null)).jobId();
            await().atMost(Duration.ofSeconds(60)).until(() -> p.as(Tenant.of("acme")).jobs().get(job).status()
                    .finished());
            var info = p.as(Tenant.of("acme")).jobs().get(job);
            List<String> reasons = info.progress().errors().stream().map(e -> e.reason()).toList();
            assertThat(reasons).as(reasons.toString())
                    .anyMatch(r -> r.startsWith("secret.md") && r.contains("outside"))
                    .anyMatch(r -> r.startsWith("globex") && r.contains("outside"))
                    .anyMatch(r -> r.startsWith("data") && r.contains("data directory"))
                    .anyMatch(r -> r.contains("cycle"));
            List<String> indexed = p.as(Tenant.of("acme")).documents().list(null, 0, 100).stream()
                    .map(DocumentInfo::uri).map(u -> u.substring(u.indexOf(shared.getFileName().toString())))
                    .toList();
            assertThat(indexed).containsExactlyInAnyOrder("acme/handbook.md", "acme/inner/tides.md",
                    "acme/old-link.md");
            var search = p.as(Tenant.of("acme")).search();
            assertThat(search.run(SearchRequest.of("payroll password zebra umbrella", 10)).hits()).isEmpty();
            assertThat(search.run(SearchRequest.of("launch codename marmalade kite", 10)).hits()).isEmpty();
        }
    }

    @Test
    void a_running_sync_reports_what_it_is_doing_and_stops_soon_after_a_cancel() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("many"));
        for (int i = 0; i < 400; i++) {
            Files.writeString(root.resolve("note-" + i + ".md"), "# Note " + i + "\n\nThe Quillon keeper wrote entry "
                    + i + " about the tide, the lamp and the ships that passed the point that night.");
        }
        try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("data"), Map.of("vector.enabled", "false",
                "sync.watch", "false", "sync.allowed.roots", root.toString())))) {
            String job = p.sources().register(new SourceRegistration("many", "filesystem", Map.of("root",
                    root.toString()), null, null, null)).jobId();
            var running = await().atMost(Duration.ofSeconds(60)).until(() -> p.jobs().get(job), j -> j.status()
                    == JobStatus.RUNNING && j.progress().processed() > 0);
            assertThat(running.progress().stage()).as("a sync at work says so").isNotIn("queued", "");
            assertThat(running.progress().total()).isPositive();
            long asked = System.nanoTime();
            p.jobs().cancel(job);
            var stopped = await().atMost(Duration.ofSeconds(30)).until(() -> p.jobs().get(job), j -> j.status()
                    .finished());
            assertThat(stopped.status()).isIn(JobStatus.CANCELED, JobStatus.SUCCEEDED);
            assertThat((System.nanoTime() - asked) / 1_000_000).as("stopped at its next file, not its next thousand")
                    .isLessThan(10_000);
        }
    }

    @Test
    void a_file_swapped_for_a_link_after_the_listing_is_refused_when_it_is_opened() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("root"));
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("secret.md"), "# Secret\n\nThe vault code is 4417.");
        Files.writeString(root.resolve("note.md"), "# Note\n\nHarmless.");
        io.polyrag.core.fs.Confinement confined = io.polyrag.core.fs.Confinement.of(List.of(root),
                List.of(tmp.resolve("data")));
        var listing = io.polyrag.ingest.FileSources.list(List.of(root), List.of(), List.of(), n -> true, confined);
        assertThat(listing.inputs()).hasSize(1);
        Files.delete(root.resolve("note.md"));
        Files.createSymbolicLink(root.resolve("note.md"), outside.resolve("secret.md"));
        assertThatThrownBy(() -> listing.inputs().getFirst().content().read())
                .isInstanceOf(io.polyrag.core.fs.Confinement.Refused.class).hasMessageContaining("outside");
    }

    /**
     * A folder found empty where earlier scans found files (a volume no longer mounted leaves its empty mount point)
     * deletes nothing and says why; once it lists anything, what it does not list is deleted as before.
     */
    @Test
    void a_folder_found_empty_deletes_nothing() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("mounted"));
        Files.writeString(root.resolve("a.md"), "# A\n\nThe fog bell at Quillon rings twice a minute.");
        Files.writeString(root.resolve("b.md"), "# B\n\nThe lamp burns colza oil.");
        try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("data"), Map.of("vector.enabled", "false",
                "sync.allowed.roots", tmp.toString())))) {
            awaitJob(p, p.sources().register(new SourceRegistration("vol", "filesystem", Map.of("root",
                    root.toString()), null, 3600, true)).jobId());
            assertThat(uris(p)).containsExactlyInAnyOrder("a.md", "b.md");
            Files.delete(root.resolve("a.md"));
            Files.delete(root.resolve("b.md"));
            String empty = p.sources().sync("vol");
            await().atMost(Duration.ofSeconds(60)).until(() -> p.jobs().get(empty).status().finished());
            JobInfo j = p.jobs().get(empty);
            assertThat(j.progress().deleted()).as(j.toString()).isZero();
            assertThat(j.progress().errors()).anySatisfy(e -> assertThat(e.reason()).contains("listed nothing"));
            assertThat(uris(p)).containsExactlyInAnyOrder("a.md", "b.md");
            assertThat(p.sources().get("vol").lastError()).contains("listed nothing");

            Files.writeString(root.resolve("c.md"), "# C\n\nThe keeper's log of 1871.");
            awaitJob(p, p.sources().sync("vol"));
            assertThat(uris(p)).containsExactly("c.md");
        }
    }

    /** A root that is a link to a folder is watched at its target: a change is synced without asking. */
    @Test
    void a_root_reached_through_a_link_is_watched() throws Exception {
        Path target = Files.createDirectories(tmp.resolve("linked-target"));
        Files.writeString(target.resolve("a.md"), "# A\n\nThe fog bell at Quillon rings twice a minute.");
        Path link = Files.createSymbolicLink(tmp.resolve("linked-notes"), target);
        try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("data-linked"), Map.of("vector.enabled",
                "false", "sync.allowed.roots", tmp.toString())))) {
            awaitJob(p, p.sources().register(new SourceRegistration("linked", "filesystem", Map.of("root",
                    link.toString()), null, 3600, true)).jobId());
            assertThat(uris(p)).containsExactly("a.md");
            Files.writeString(target.resolve("b.md"), "# B\n\nThe lamp burns colza oil.");
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(uris(p))
                    .containsExactlyInAnyOrder("a.md", "b.md"));
        }
    }

    /** A source registered disabled is indexed once, as documented, and not synced again until it is enabled. */
    @Test
    void a_source_registered_disabled_is_indexed_once_and_then_left_alone() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("paused"));
        Files.writeString(root.resolve("a.md"), "# A\n\nThe fog bell at Quillon rings twice a minute.");
        try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("data-paused"), Map.of("vector.enabled", "false",
                "sync.allowed.roots", tmp.toString())))) {
            String first = p.sources().register(new SourceRegistration("paused", "filesystem", Map.of("root",
                    root.toString()), null, 3600, false)).jobId();
            awaitJob(p, first);
            assertThat(p.jobs().get(first).progress().warnings()).noneSatisfy(w -> assertThat(w).contains("disabled"));
            assertThat(uris(p)).containsExactly("a.md");
            assertThatThrownBy(() -> p.sources().sync("paused")).hasMessageContaining("is disabled");
        }
    }

    /**
     * A tenant's sources are capped (each syncs at its interval, which the cap on queued jobs never refuses); a
     * settings change that leaves fields out keeps what the source had: a paused source given new globs was enabled
     * again, its interval reset and a sync started.
     */
    @Test
    void sources_are_capped_and_an_update_keeps_what_it_leaves_out() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("capped"));
        Files.writeString(root.resolve("a.md"), "# A\n\nThe fog bell at Quillon rings twice a minute.");
        try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("data"), Map.of("vector.enabled", "false",
                "sync.allowed.roots", tmp.toString(), "sync.max.sources", "2")))) {
            awaitJob(p, p.sources().register(new SourceRegistration("one", "filesystem", Map.of("root",
                    root.toString()), "notes", 86_400, true)).jobId());
            awaitJob(p, p.sources().register(new SourceRegistration("two", "filesystem", Map.of("root",
                    root.toString()), "other", 3600, true)).jobId());
            assertThatThrownBy(() -> p.sources().register(new SourceRegistration("three", "filesystem", Map.of(
                    "root", root.toString()), null, 3600, true))).isInstanceOf(io.polyrag.core.ConflictException.class)
                    .hasMessageContaining("POLYRAG_SYNC_MAX_SOURCES");
            assertThatThrownBy(() -> p.sources().beforeIngest(new SourceRegistration("three", "filesystem", Map.of(
                    "root", root.toString()), null, 3600, true))).as("ingest --sync: refused before the folder is read")
                    .isInstanceOf(io.polyrag.core.ConflictException.class);
            p.sources().enable("one", false);
            var updated = p.sources().update(new SourceRegistration("one", "filesystem", Map.of("root",
                    root.toString(), "include", List.of("*.md")), null, null, null));
            assertThat(updated.jobId()).as("paused: no sync started").isNull();
            assertThat(updated.source().enabled()).isFalse();
            assertThat(updated.source().intervalSeconds()).isEqualTo(86_400);
            assertThat(updated.source().knowledgeBase()).isEqualTo("notes");
        }
    }

    /**
     * A synced document deleted by hand is indexed again at the next sync: its item was found unchanged, and it stayed
     * gone until its bytes changed, then came back unasked.
     */
    @Test
    void a_synced_document_deleted_by_hand_comes_back_at_the_next_sync() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("kept"));
        Files.writeString(root.resolve("a.md"), "# A\n\nThe fog bell at Quillon rings twice a minute.");
        Files.writeString(root.resolve("b.md"), "# B\n\nThe lamp burns colza oil.");
        try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("data"), Map.of("vector.enabled", "false",
                "sync.allowed.roots", tmp.toString())))) {
            awaitJob(p, p.sources().register(new SourceRegistration("kept", "filesystem", Map.of("root",
                    root.toString()), null, 3600, true)).jobId());
            String a = p.documents().list(null, 0, 10).stream().filter(d -> d.uri().endsWith("a.md")).findFirst()
                    .orElseThrow().id();
            assertThat(p.documents().delete(List.of(a))).isEqualTo(1);
            assertThat(uris(p)).containsExactly("b.md");
            awaitJob(p, p.sources().sync("kept"));
            assertThat(uris(p)).containsExactlyInAnyOrder("a.md", "b.md");
        }
    }

    /**
     * A same-size edit within the second of the scan that read the file (a coarse file system keeps its time) is found
     * at the next scan: a time that close to the read is not trusted, so the bytes are compared.
     */
    @Test
    void a_same_size_edit_in_the_second_of_the_read_is_found_next_scan() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("racy"));
        Path todo = root.resolve("todo.md");
        try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("data"), Map.of("vector.enabled", "false",
                "sync.allowed.roots", tmp.toString())))) {
            Files.writeString(todo, "# Todo\n\n[ ] paint the lantern room");
            // A time as a coarse clock keeps it, a little ahead of the scan's: within two seconds of the read as long
            // as the registration's sync (which starts at once) reads it within about 3.9 s of this line.
            FileTime second = FileTime.fromMillis(System.currentTimeMillis() + 1_900);
            Files.setLastModifiedTime(todo, second);
            awaitJob(p, p.sources().register(new SourceRegistration("racy", "filesystem", Map.of("root",
                    root.toString()), null, 3600, true)).jobId());
            Files.writeString(todo, "# Todo\n\n[x] paint the lantern room");
            Files.setLastModifiedTime(todo, second);
            awaitJob(p, p.sources().sync("racy"));
            assertThat(texts(p, "paint the lantern room")).anyMatch(t -> t.contains("[x]"));
        }
    }

    /**
     * A listing that no longer finds most of a source (a share remounted nearly empty, a site now behind a sign-in)
     * deletes nothing and says so; a sync with its own cap of 100 (the user confirming) deletes them, as does
     * POLYRAG_SYNC_MAX_DELETE_PERCENT=100.
     */
    @Test
    void a_sync_that_would_delete_most_of_a_source_deletes_nothing() throws Exception {
        Path root = notes(tmp.resolve("share"), 12);
        Map<String, String> settings = Map.of("vector.enabled", "false", "sync.allowed.roots", tmp.toString());
        try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("data"), settings))) {
            awaitJob(p, p.sources().register(new SourceRegistration("share", "filesystem", Map.of("root",
                    root.toString()), null, 3600, true)).jobId());
            assertThat(uris(p)).hasSize(12);
            for (int i = 1; i < 12; i++) {
                Files.delete(root.resolve(String.format("note-%03d.md", i)));
            }
            Files.writeString(root.resolve("blank.md"), " "); // fails first: the source still says why none went
            String sync = p.sources().sync("share");
            await().atMost(Duration.ofSeconds(60)).until(() -> p.jobs().get(sync).status().finished());
            JobInfo j = p.jobs().get(sync);
            assertThat(j.progress().deleted()).as(j.toString()).isZero();
            assertThat(p.sources().get("share").lastError()).startsWith("the source no longer lists 11 of its 13")
                    .contains("max_delete_percent=100").endsWith("(and items failed or skipped: 1)");
            assertThat(uris(p)).hasSize(12);
            assertThatThrownBy(() -> p.sources().sync("share", 0)).isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("'max_delete_percent' must be from 1 to 100");
            // Its own cap holds for that sync only: the next plain one keeps the configured 50%.
            awaitJob(p, p.sources().sync("share", 100));
            assertThat(uris(p)).containsExactly("note-000.md");
            notes(root, 12);
            awaitJob(p, p.sources().sync("share"));
            assertThat(uris(p)).hasSize(12);
            for (int i = 1; i < 12; i++) {
                Files.delete(root.resolve(String.format("note-%03d.md", i)));
            }
            String again = p.sources().sync("share");
            await().atMost(Duration.ofSeconds(60)).until(() -> p.jobs().get(again).status().finished());
            assertThat(p.sources().get("share").lastError()).contains("no longer lists 11 of its 13");
            assertThat(uris(p)).hasSize(12);
        }
        Map<String, String> allow = new java.util.HashMap<>(settings);
        allow.put("sync.max.delete.percent", "100");
        try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("data"), allow))) {
            awaitJob(p, p.sources().sync("share"));
            assertThat(uris(p)).containsExactly("note-000.md");
            Files.delete(root.resolve("blank.md"));
        }
    }

    /**
     * A source synced under other indexing settings (here the chunk size) has its unchanged files indexed again under
     * the new ones; before, every later sync found them unchanged and the old chunks stayed for good.
     */
    @Test
    void changed_indexing_settings_reach_a_sources_unchanged_files() throws Exception {
        Path root = notes(tmp.resolve("long"), 1);
        Files.writeString(root.resolve("long.md"), "# Long\n\n" + java.util.stream.IntStream.range(0, 120)
                .mapToObj(i -> "Sentence " + i + " of the keeper's long log.")
                .collect(java.util.stream.Collectors.joining(" ")));
        Map<String, String> settings = new java.util.HashMap<>(Map.of("vector.enabled", "false", "sync.watch",
                "false", "sync.allowed.roots", tmp.toString(), "chunk.max.tokens", "64", "chunk.overlap.tokens", "0"));
        int small;
        try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("data"), settings))) {
            awaitJob(p, p.sources().register(new SourceRegistration("long", "filesystem", Map.of("root",
                    root.toString()), null, 3600, true)).jobId());
            small = chunksOf(p, "long.md");
        }
        settings.put("chunk.max.tokens", "256");
        try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("data"), settings))) {
            String sync = p.sources().sync("long");
            awaitJob(p, sync);
            assertThat(p.jobs().get(sync).progress().updated()).as(p.jobs().get(sync).toString()).isEqualTo(2);
            assertThat(chunksOf(p, "long.md")).isLessThan(small);
            // Recorded: the next sync trusts the items again.
            String again = p.sources().sync("long");
            awaitJob(p, again);
            assertThat(p.jobs().get(again).progress().updated()).isZero();
            assertThat(p.jobs().get(again).progress().unchanged()).isEqualTo(2);
        }
    }

    private static int chunksOf(Polyrag p, String uri) {
        return p.documents().list(null, 0, 100).stream().filter(d -> d.uri().endsWith("/" + uri)).findFirst()
                .orElseThrow().chunkCount();
    }

    /** A folder moved as a whole is half found, not all gone: its files are indexed under their new names. */
    @Test
    void a_folder_moved_as_a_whole_is_indexed_under_its_new_names() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("moved"));
        notes(root.resolve("a"), 12);
        try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("data"), Map.of("vector.enabled", "false",
                "sync.allowed.roots", tmp.toString())))) {
            awaitJob(p, p.sources().register(new SourceRegistration("moved", "filesystem", Map.of("root",
                    root.toString()), null, 3600, true)).jobId());
            assertThat(uris(p)).hasSize(12);
            Files.move(root.resolve("a"), root.resolve("b"));
            awaitJob(p, p.sources().sync("moved"));
            assertThat(p.documents().list(null, 0, 100)).hasSize(12).allSatisfy(d -> assertThat(d.uri())
                    .contains("/b/"));
            assertThat(p.sources().get("moved").lastError()).isNull();
        }
    }

    /** A folder of {@code n} small notes, each with a word of its own ("word" and its number in base 36). */
    private static Path notes(Path root, int n) throws IOException {
        Files.createDirectories(root);
        for (int i = 0; i < n; i++) {
            Files.writeString(root.resolve(String.format("note-%03d.md", i)), "# Note " + i + "\n\nTern colony "
                    + "word" + Integer.toString(i * 7919, 36) + " nested on the skerry.");
        }
        return root;
    }

    private static void awaitJob(Polyrag p, String id) {
        await().atMost(Duration.ofSeconds(60)).until(() -> p.jobs().get(id).status() != JobStatus.QUEUED
                && p.jobs().get(id).status() != JobStatus.RUNNING);
        assertThat(p.jobs().get(id).status()).as(String.valueOf(p.jobs().get(id))).isEqualTo(JobStatus.SUCCEEDED);
    }

    private static List<String> uris(Polyrag p) {
        return p.documents().list(null, 0, 100).stream().map(DocumentInfo::uri)
                .map(u -> u.substring(u.lastIndexOf('/') + 1)).toList();
    }

    private static long version(Polyrag p, String name) {
        return p.documents().list(null, 0, 100).stream().filter(d -> d.uri().endsWith("/" + name)).findFirst()
                .orElseThrow().visibleVersion();
    }

    private static List<String> texts(Polyrag p, String query) {
        return p.search().run(SearchRequest.of(query, 5)).hits().stream().map(SearchHit::text).toList();
    }

    /**
     * Two sources over nested folders share the file system's watch of the inner one: a change there syncs both, and
     * deleting the inner source leaves the outer one watching (it took the outer one's watch, then cancelled it).
     */
    @Test
    void nested_folder_sources_both_see_a_change_and_one_deleted_leaves_the_other_watching() throws Exception {
        Path outer = Files.createDirectories(tmp.resolve("docs"));
        Path inner = Files.createDirectories(outer.resolve("hr"));
        Files.writeString(outer.resolve("intro.md"), "# Intro\n\nThe handbook of the Quillon light.");
        Files.writeString(inner.resolve("pay.md"), "# Pay\n\nKeepers are paid on the first of the month.");
        try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("data"), Map.of("vector.enabled", "false",
                "sync.allowed.roots", outer.toString())))) {
            awaitJob(p, p.sources().register(new SourceRegistration("all", "filesystem", Map.of("root",
                    outer.toString()), "everything", 3600, true)).jobId());
            awaitJob(p, p.sources().register(new SourceRegistration("hr", "filesystem", Map.of("root",
                    inner.toString()), "people", 3600, true)).jobId());
            Thread.sleep(300);
            Files.writeString(inner.resolve("leave.md"), "# Leave\n\nKeepers take leave in the winter months.");
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                assertThat(names(p, "everything")).contains("leave.md");
                assertThat(names(p, "people")).contains("leave.md");
            });
            await().atMost(Duration.ofSeconds(30)).until(() -> p.jobs().list(0, 100).stream().allMatch(j ->
                    j.status() != JobStatus.QUEUED && j.status() != JobStatus.RUNNING));
            p.sources().delete("hr", false);
            Files.writeString(inner.resolve("rota.md"), "# Rota\n\nTwo keepers share each night's watch.");
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(names(p, "everything"))
                    .contains("rota.md"));
        }
    }

    /** Nested sources feeding one knowledge base share the inner files' documents: deleting one keeps them. */
    @Test
    void a_source_deleted_with_its_documents_keeps_those_another_source_also_holds() throws Exception {
        Path outer = Files.createDirectories(tmp.resolve("shared"));
        Path inner = Files.createDirectories(outer.resolve("sub"));
        Files.writeString(outer.resolve("top.md"), "# Top\n\nThe lantern room is at the top of the tower.");
        Files.writeString(inner.resolve("x.md"), "# X\n\nThe fog bell rings every thirty seconds.");
        try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("data"), Map.of("vector.enabled", "false",
                "sync.allowed.roots", outer.toString(), "sync.watch", "false")))) {
            awaitJob(p, p.sources().register(new SourceRegistration("outer", "filesystem", Map.of("root",
                    outer.toString()), "coast", 3600, true)).jobId());
            awaitJob(p, p.sources().register(new SourceRegistration("inner", "filesystem", Map.of("root",
                    inner.toString()), "coast", 3600, true)).jobId());
            assertThat(p.sources().delete("inner", true)).as("x.md is the outer source's too").isZero();
            awaitJob(p, p.sources().sync("outer"));
            assertThat(names(p, "coast")).containsExactlyInAnyOrder("top.md", "x.md");
            assertThat(texts(p, "fog bell thirty seconds")).anyMatch(t -> t.contains("fog bell"));
        }
    }

    private static List<String> names(Polyrag p, String kb) {
        return p.documents().list(io.polyrag.core.model.KnowledgeBase.of(kb), 0, 100).stream().map(DocumentInfo::uri)
                .map(u -> u.substring(u.lastIndexOf('/') + 1)).toList();
    }

    /** A last scan in the future means the clock went back: due now, not once the clock has caught up. */
    @Test
    void a_source_scanned_in_the_clocks_future_is_due() {
        Instant now = Instant.parse("2026-06-01T12:00:00Z");
        Source base = new Source("", "s", "web", "{}", "default", 3600, true, now.minusSeconds(86_400), null, null);
        assertThat(SourceWatcher.due(base, now)).as("created a day ago, never scanned").isTrue();
        assertThat(SourceWatcher.due(withLastScan(base, now.minusSeconds(60)), now)).isFalse();
        assertThat(SourceWatcher.due(withLastScan(base, now.minusSeconds(3_700)), now)).isTrue();
        assertThat(SourceWatcher.due(withLastScan(base, now.plusSeconds(86_400)), now))
                .as("scanned a day ahead of the clock: the clock was set back").isTrue();
        assertThat(SourceWatcher.due(withLastScan(base, now.plusSeconds(5)), now))
                .as("a replica's clock a few seconds behind is no reason").isFalse();
        assertThat(SourceWatcher.due(new Source("", "s", "web", "{}", "default", 3600, false, now.minusSeconds(
                86_400), null, null), now)).as("disabled").isFalse();
    }

    /** A tenant whose keys were all revoked (offboarded) has its sources left alone; local mode's are the operator's. */
    @Test
    void an_offboarded_tenants_sources_are_not_scheduled() {
        Instant now = Instant.parse("2026-06-01T12:00:00Z");
        List<Source> all = new java.util.ArrayList<>();
        for (String tenant : List.of("", "acme", "globex")) {
            all.add(new Source(tenant, "s", "web", "{}", "default", 3600, true, now.minusSeconds(86_400), null, null));
        }
        java.util.concurrent.atomic.AtomicInteger asked = new java.util.concurrent.atomic.AtomicInteger();
        List<Source> due = SourceWatcher.dueNow(all, now, () -> {
            asked.incrementAndGet();
            return java.util.Set.of("acme");
        });
        assertThat(due).extracting(Source::tenant).containsExactly("", "acme");
        assertThat(asked).as("the keys asked once a tick").hasValue(1);
        assertThat(SourceWatcher.dueNow(all.subList(0, 1), now, () -> {
            throw new AssertionError("not asked when only local mode's sources are due");
        })).hasSize(1);
    }

    private static Source withLastScan(Source s, Instant at) {
        return new Source(s.tenant(), s.id(), s.type(), s.config(), s.knowledgeBase(), s.intervalSeconds(),
                s.enabled(), s.createdAt(), at, null);
    }

    /** A malformed tenant-folders setting stops the start, naming it, not every tenant's sync later. */
    @Test
    void malformed_tenant_folders_refuse_to_start() {
        for (String bad : List.of("acme=/srv/acme;globex=srv/globex", "Acme!=/srv/acme", "acme")) {
            assertThatThrownBy(() -> Polyrag.open(PolyragTest.config(tmp.resolve("bad"), Map.of("sync.tenant.roots",
                    bad)))).as(bad).isInstanceOf(io.polyrag.core.ConfigException.class)
                    .hasMessageContaining("POLYRAG_SYNC_TENANT_ROOTS");
        }
    }
}
