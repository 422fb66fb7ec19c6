package io.polyrag.app;

import io.polyrag.core.model.KnowledgeBase;
import io.polyrag.app.api.TextIngest;
import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.config.Config;
import io.polyrag.core.model.CheckReport;
import io.polyrag.core.model.DocumentInfo;
import io.polyrag.core.model.Ids;
import io.polyrag.core.model.JobInfo;
import io.polyrag.core.model.JobStatus;
import io.polyrag.core.model.SearchRequest;
import io.polyrag.core.model.SearchHit;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a child JVM with SIGKILL at chosen points of real ingests, updates, deletes and upload jobs, then reopens the
 * data directory and checks what polyrag promises across a crash: every acknowledged write is present and searchable,
 * nothing unacknowledged is half visible, every store holds exactly what the catalog's visible versions call for,
 * and nothing is duplicated. A point is either "right after the acknowledgement" or a call inside the write path at
 * which the child blocks until it is killed ({@link Pausing}).
 */
class CrashRecoveryTest {
    private static final String OLD = "The lighthouse keeper logged a westerly gale and trimmed the lamp wick.";
    private static final String NEW = "The orchard manager grafted quince scions onto hawthorn rootstock.";
    private static final String URI = "note:lighthouse";

    @TempDir
    Path tmp;

    private Path data() {
        return tmp.resolve("data");
    }

    @Test
    void an_acknowledged_first_ingest_survives_a_kill_right_after_it() throws Exception {
        try (Child c = new Child(null, Map.of())) {
            c.send("text", URI, OLD);
            assertThat(c.await("ACK text")).contains("added=1");
        }
        try (Polyrag p = reopen(Map.of())) {
            assertFound(p, "lighthouse keeper gale", URI);
            assertConsistent(p, 1);
        }
    }

    @Test
    void an_acknowledged_update_survives_a_kill_right_after_it_and_the_old_text_is_gone() throws Exception {
        try (Child c = new Child(null, Map.of())) {
            c.send("text", URI, OLD);
            c.await("ACK text");
            c.send("text", URI, NEW);
            assertThat(c.await("ACK text")).contains("updated=1");
        }
        try (Polyrag p = reopen(Map.of())) {
            assertFound(p, "orchard quince hawthorn", URI);
            assertThat(hits(p, "lighthouse keeper gale")).isEmpty();
            assertConsistent(p, 1);
            // The damage once made permanent: the first text again is a real update, not "unchanged".
            assertThat(p.ingest().text(new TextIngest(OLD, null, URI, "text", KnowledgeBase.of("kb"))).updated()).isEqualTo(1);
            assertFound(p, "lighthouse keeper gale", URI);
        }
    }

    @Test
    void a_kill_after_the_stores_took_a_first_ingest_but_before_it_was_published_leaves_nothing() throws Exception {
        try (Child c = new Child("fulltext.upsert:1:after", Map.of())) {
            c.send("text", URI, OLD);
            c.await("PAUSED");
        }
        try (Polyrag p = reopen(Map.of())) {
            assertThat(hits(p, "lighthouse keeper gale")).isEmpty();
            assertThat(p.documents().list(null, 0, 10)).isEmpty();
            assertConsistent(p, 0);
        }
    }

    @Test
    void a_kill_while_an_update_is_written_keeps_the_old_version_everywhere() throws Exception {
        try (Child c = new Child("fulltext.upsert:2:before", Map.of("vector.enabled", "true"))) {
            c.send("text", URI, OLD);
            c.await("ACK text");
            c.send("text", URI, NEW);
            c.await("PAUSED");
        }
        try (Polyrag p = reopen(Map.of("vector.enabled", "true"))) {
            assertFound(p, "lighthouse keeper gale", URI);
            assertThat(hits(p, "orchard quince hawthorn")).extracting(h -> h.text()).noneMatch(t -> t.contains(
                    "quince"));
            assertConsistent(p, 1);
        }
    }

    @Test
    void a_kill_after_an_update_was_published_but_before_the_old_version_was_removed_purges_it() throws Exception {
        try (Child c = new Child("catalog.publishAll:2:after", Map.of())) {
            c.send("text", URI, OLD);
            c.await("ACK text");
            c.send("text", URI, NEW);
            c.await("PAUSED");
        }
        try (Polyrag p = reopen(Map.of())) {
            assertFound(p, "orchard quince hawthorn", URI);
            assertThat(hits(p, "lighthouse keeper gale")).isEmpty();
            assertConsistent(p, 1);
        }
    }

    @Test
    void an_acknowledged_delete_survives_a_kill_right_after_it() throws Exception {
        try (Child c = new Child(null, Map.of())) {
            c.send("text", URI, OLD);
            c.await("ACK text");
            c.send("delete", Ids.documentId("kb", URI));
            assertThat(c.await("ACK delete")).isEqualTo("ACK delete 1");
        }
        try (Polyrag p = reopen(Map.of())) {
            assertThat(hits(p, "lighthouse keeper gale")).isEmpty();
            assertConsistent(p, 0);
        }
    }

    @Test
    void a_kill_between_the_catalog_delete_and_the_stores_removes_the_records_at_the_next_start() throws Exception {
        try (Child c = new Child("catalog.delete:1:after", Map.of())) {
            c.send("text", URI, OLD);
            c.await("ACK text");
            c.send("delete", Ids.documentId("kb", URI));
            c.await("PAUSED");
        }
        try (Polyrag p = reopen(Map.of())) {
            assertThat(p.admin().status().storeRecords()).containsEntry("fulltext", 0L);
            assertConsistent(p, 0);
        }
    }

    @Test
    void an_acknowledged_upload_job_survives_a_kill_right_after_it_and_then_runs() throws Exception {
        String job;
        try (Child c = new Child(null, Map.of("ingest.workers", "0"))) {
            c.send("upload", "a.txt", OLD, "b.txt", NEW);
            job = c.await("ACK upload").substring("ACK upload ".length());
        }
        try (Polyrag p = reopen(Map.of())) {
            JobInfo done = awaitJob(p, job);
            assertThat(done.status()).isEqualTo(JobStatus.SUCCEEDED);
            assertThat(done.progress().added()).isEqualTo(2);
            assertFound(p, "orchard quince hawthorn", "upload:b.txt");
            assertConsistent(p, 2);
            awaitNoStaging();
        }
    }

    @Test
    void a_kill_in_the_middle_of_an_upload_job_requeues_it_and_it_finishes_without_duplicates() throws Exception {
        String job;
        try (Child c = new Child("catalog.publishAll:1:after", Map.of("ingest.batch.documents", "1"))) {
            c.send("upload", "a.txt", OLD, "b.txt", NEW, "c.txt", "A third note about tidal mills and sluice gates.");
            job = c.await("ACK upload").substring("ACK upload ".length());
            c.await("PAUSED");
            assertThat(stagedBlobs()).as("staged files stay while the job has not ended").hasSize(3);
        }
        try (Polyrag p = reopen(Map.of("ingest.batch.documents", "1"))) {
            JobInfo done = awaitJob(p, job);
            assertThat(done.status()).isEqualTo(JobStatus.SUCCEEDED);
            assertThat(done.progress().added() + done.progress().unchanged()).isEqualTo(3);
            assertFound(p, "tidal mills sluice", "upload:c.txt");
            assertConsistent(p, 3);
            awaitNoStaging();
        }
    }

    @Test
    void a_kill_with_the_graph_on_before_the_graph_was_written_leaves_no_relations_behind() throws Exception {
        Map<String, String> graph = Map.of("graph.enabled", "true", "graph.extractor", "offline");
        String text = "Marie Curie worked with Pierre Curie in Paris. Marie Curie discovered polonium in Paris.";
        try (Child c = new Child("fulltext.upsert:2:after", graph)) {
            c.send("text", "note:curie", text);
            c.await("ACK text");
            c.send("text", "note:curie", text + " Marie Curie later founded the Radium Institute in Warsaw.");
            c.await("PAUSED");
        }
        try (Polyrag p = reopen(graph)) {
            assertConsistent(p, 1);
            Map<String, Long> graphCounts = p.graph().counts().get("graph");
            assertThat(graphCounts.get("relations")).isPositive();
            assertThat(p.graph().find("Warsaw", 5)).as("nothing of the unpublished version").isEmpty();
        }
    }

    @Test
    void an_acknowledged_update_with_the_graph_on_survives_a_kill_without_doubling_relations() throws Exception {
        Map<String, String> graph = Map.of("graph.enabled", "true", "graph.extractor", "offline");
        String text = "Marie Curie worked with Pierre Curie in Paris. Marie Curie discovered polonium in Paris.";
        long relationsOfOneVersion;
        try (Polyrag p = Polyrag.open(config(Map.of("graph.enabled", "true", "graph.extractor", "offline",
                "data.dir", tmp.resolve("reference").toString())))) {
            p.ingest().text(new TextIngest(text, null, "note:curie", "text", KnowledgeBase.of("kb")));
            relationsOfOneVersion = p.graph().counts().get("graph").get("relations");
        }
        try (Child c = new Child(null, graph)) {
            c.send("text", "note:curie", "An unrelated first version about nothing in particular.");
            c.await("ACK text");
            c.send("text", "note:curie", text);
            assertThat(c.await("ACK text")).contains("updated=1");
        }
        try (Polyrag p = reopen(graph)) {
            assertConsistent(p, 1);
            assertThat(p.graph().counts().get("graph").get("relations")).isEqualTo(relationsOfOneVersion);
            assertThat(p.graph().find("Curie", 5)).isNotEmpty();
        }
    }

    @Test
    void kills_at_increasing_moments_of_a_stream_of_ingests_lose_no_acknowledged_document() throws Exception {
        List<String> acked = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            try (Child c = new Child(null, Map.of())) {
                for (int i = 0; i < 40; i++) {
                    c.send("text", "note:" + round + "-" + i, "Round " + round + " note " + i
                            + " about the migration of " + (i % 2 == 0 ? "terns" : "eels") + " zq" + round + "x" + i);
                }
                // Kill while later ingests are still being written: after 5, 15 and 25 acknowledgements.
                for (int seen = 0; seen < 5 + 10 * round; seen++) {
                    acked.add(c.await("ACK text").split(" ")[2]);
                }
            }
        }
        try (Polyrag p = reopen(Map.of())) {
            for (String uri : acked) {
                String[] parts = uri.substring("note:".length()).split("-");
                assertFound(p, "zq" + parts[0] + "x" + parts[1], uri);
            }
            assertConsistent(p, (int) p.admin().status().documents());
        }
    }

    // ---- helpers

    private static Config config(Map<String, String> settings) {
        return Config.load(Map.of(), settings);
    }

    private Polyrag reopen(Map<String, String> more) {
        Map<String, String> s = new HashMap<>(Map.of("data.dir", data().toString(), "vector.enabled", "false"));
        s.putAll(more);
        return Polyrag.open(config(s));
    }

    private static List<SearchHit> hits(Polyrag p, String query) {
        return p.search().run(SearchRequest.of(query, 5)).hits();
    }

    private static void assertFound(Polyrag p, String query, String uri) {
        assertThat(hits(p, query)).as("searching '%s'", query).extracting(SearchHit::uri).first()
                .isEqualTo(uri);
    }

    /** Every store holds what the catalog says, nothing is duplicated, and the server is ready. */
    private static void assertConsistent(Polyrag p, int documents) {
        assertThat(p.admin().readiness()).isEmpty();
        CheckReport r = p.admin().check(false);
        assertThat(r.documents()).isEqualTo(documents);
        assertThat(r.stores()).allSatisfy(s -> {
            assertThat(s.orphanVersions()).as("%s orphans: %s", s.store(), s.examples()).isZero();
            assertThat(s.lackingVersions()).as("%s lacking: %s", s.store(), s.examples()).isZero();
            assertThat(s.records()).isEqualTo(s.expectedRecords());
        });
        List<DocumentInfo> docs = p.documents().list(null, 0, 1000);
        assertThat(docs).hasSize(documents);
        assertThat(docs.stream().map(DocumentInfo::uri).distinct().count()).isEqualTo(documents);
        assertThat(docs).allSatisfy(d -> assertThat(p.documents().stores(d.id()).values())
                .as("what each store holds of %s, read live", d.uri()).isNotEmpty()
                .allSatisfy(st -> assertThat(st.state()).isIn("complete", "unchecked")));
        assertThat(p.admin().status().storeRecords().get("fulltext"))
                .isEqualTo(docs.stream().mapToLong(DocumentInfo::chunkCount).sum());
    }

    private static JobInfo awaitJob(Polyrag p, String id) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        JobInfo j = p.jobs().get(id);
        while (!j.status().finished() && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(20);
            j = p.jobs().get(id);
        }
        return j;
    }

    /** Staged files are deleted right after a job's end is recorded, so just after the end is seen. */
    private void awaitNoStaging() {
        org.awaitility.Awaitility.await("staged files are deleted once the job has ended")
                .atMost(java.time.Duration.ofSeconds(10)).until(() -> stagedBlobs().isEmpty());
    }

    /** The staged uploads in the blob store, and any local scratch folder left in the data directory. */
    private List<Path> stagedBlobs() throws IOException {
        List<Path> out = new ArrayList<>();
        Path blobs = data().resolve("blobs");
        if (Files.isDirectory(blobs)) {
            try (Stream<Path> s = Files.list(blobs)) {
                s.filter(d -> d.getFileName().toString().startsWith("job-")).forEach(out::add);
            }
        }
        Path staging = data().resolve("staging");
        if (Files.isDirectory(staging)) {
            try (Stream<Path> s = Files.list(staging)) {
                s.filter(d -> !d.getFileName().toString().equals("uploads")).forEach(out::add);
            }
        }
        return out;
    }

    /** A child JVM running {@link CrashChild} over {@link #data()}; closing it kills it with SIGKILL. */
    private final class Child implements AutoCloseable {
        private final CrashChildProcess process;

        Child(String pause, Map<String, String> settings) throws IOException, InterruptedException {
            Map<String, String> s = new HashMap<>(Map.of("data.dir", data().toString(), "vector.enabled", "false",
                    "catalog.backend", "pausing", "fulltext.backend", "pausing", "vector.backend", "pausing"));
            s.putAll(settings);
            process = new CrashChildProcess(List.of(), List.of("--add-modules", "jdk.incubator.vector",
                    "--enable-native-access=ALL-UNNAMED", "-Xmx512m", "-Dpolyrag.pause=" + (pause == null ? ""
                            : pause)), s);
        }

        void send(String... fields) {
            process.send(fields);
        }

        /** The next output line starting with {@code prefix}; fails with the child's output if none comes. */
        String await(String prefix) throws InterruptedException {
            return process.await(prefix);
        }

        @Override
        public void close() throws InterruptedException {
            assertThat(process.kill()).as("killed with SIGKILL").isEqualTo(137);
        }
    }
}
