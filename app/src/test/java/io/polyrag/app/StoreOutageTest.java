package io.polyrag.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.app.api.PathIngest;
import io.polyrag.app.api.ReceivedFile;
import io.polyrag.core.model.DegradedLeg;
import io.polyrag.core.model.JobInfo;
import io.polyrag.core.model.JobStatus;
import io.polyrag.core.model.KnowledgeBase;
import io.polyrag.core.model.Modality;
import io.polyrag.core.model.SearchRequest;
import io.polyrag.core.port.ProgressListener;
import io.polyrag.testing.PostgresServer;
import io.polyrag.testing.TestServices;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A networked store really stopped — PostgreSQL of the test's own, killed as a crash ({@code pg_ctl stop -m
 * immediate}) — in the middle of searches and of an upload job, then started again, with polyrag running throughout:
 * every search answers (from full text, its vector leg listed under {@code degraded}), a write during the outage is
 * not acknowledged and never half visible, the job waits and resumes and finishes with every file, and {@code check}
 * is consistent after, without a restart of polyrag.
 */
class StoreOutageTest {
    @TempDir
    Path tmp;

    @Test
    void postgres_crashed_mid_search_and_mid_job_then_back_loses_nothing_and_needs_no_restart() throws Exception {
        TestServices.require(PostgresServer.missing());
        try (PostgresServer pg = PostgresServer.start()) {
            Map<String, String> config = Map.of("vector.backend", "pgvector", "postgres.url", pg.jdbcUrl(),
                    "postgres.connect.timeout.seconds", "2", "search.timeout.ms", "4000", "ingest.workers", "1");
            try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("data"), config))) {
                p.ingest().paths(new PathIngest(List.of(PolyragTest.corpus(tmp.resolve("corpus"))), null, List.of(),
                        List.of()), ProgressListener.NONE);
                String query = "Pharos of Alexandria wonders";
                assertThat(p.search().run(SearchRequest.of(query, 3)).degraded()).isEmpty();

                // Searches run all along; none may fail.
                AtomicBoolean searching = new AtomicBoolean(true);
                ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
                Set<Modality> degradedSeen = ConcurrentHashMap.newKeySet();
                AtomicInteger searches = new AtomicInteger();
                Thread searcher = Thread.ofVirtual().start(() -> {
                    while (searching.get()) {
                        try {
                            var r = p.search().run(SearchRequest.of(query, 3));
                            assertThat(r.hits()).isNotEmpty();
                            assertThat(r.hits().getFirst().uri()).endsWith("lighthouses.md");
                            r.degraded().stream().map(DegradedLeg::modality).forEach(degradedSeen::add);
                            searches.incrementAndGet();
                        } catch (Throwable t) {
                            failures.add(t);
                        }
                    }
                });

                // A job of 120 files; the server dies once it is under way.
                Path staging = p.uploads().newStagingDir();
                List<ReceivedFile> files = new ArrayList<>();
                for (int i = 0; i < 120; i++) {
                    Path f = staging.resolve("f" + i);
                    Files.writeString(f, "Field note " + i + ": the tern colony number " + i + " nested on skerry "
                            + "word" + Integer.toString(i * 7919, 36) + " this spring.");
                    files.add(new ReceivedFile("note-" + i + ".txt", f));
                }
                String job = p.uploads().submit(KnowledgeBase.of("notes"), staging, files, true);
                Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20)).until(() ->
                        p.jobs().get(job).progress().processed() >= 10 || p.jobs().get(job).status().finished());
                pg.crash();

                org.assertj.core.api.Assertions.assertThatThrownBy(() -> p.ingest().text(new io.polyrag.app.api.TextIngest(
                        "The quokka hops across Rottnest Island at dawn.", null, "note:quokka", "text", null)))
                        .as("a write that cannot reach every store is not acknowledged: a 503 over HTTP")
                        .isInstanceOf(io.polyrag.core.StoreException.class)
                        .matches(io.polyrag.core.StorageProblems::unreachable);
                var down = p.search().run(SearchRequest.of("quokka Rottnest", 3));
                assertThat(down.hits()).as("nor half visible").isEmpty();
                assertThat(down.degraded()).extracting(DegradedLeg::modality).containsExactly(Modality.VECTOR);
                Thread.sleep(3_000);
                assertThat(p.jobs().get(job).status()).as("the job waits for the store instead of failing")
                        .isIn(JobStatus.QUEUED, JobStatus.RUNNING, JobStatus.SUCCEEDED);
                // And says so to whoever looks at it, with the store's error, until it runs again.
                Awaitility.await("the job shows what it waits for").atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(100)).until(() -> {
                            JobInfo j = p.jobs().get(job);
                            return j.status().finished() || j.status() == JobStatus.QUEUED
                                    && io.polyrag.core.model.JobProgress.WAITING.equals(j.progress().stage());
                        });
                JobInfo waiting = p.jobs().get(job);
                if (!waiting.status().finished()) {
                    assertThat(waiting.progress().warnings())
                            .filteredOn(w -> w.startsWith(io.polyrag.core.model.JobProgress.WAITING)).singleElement()
                            .asString().startsWith(io.polyrag.core.model.JobProgress.WAITING + ": ")
                            .contains("resumes once the store answers");
                }

                pg.startAgain();
                Awaitility.await("the job resumes and finishes").atMost(Duration.ofSeconds(120))
                        .pollInterval(Duration.ofMillis(250)).until(() -> p.jobs().get(job).status().finished());
                JobInfo done = p.jobs().get(job);
                assertThat(done.status()).as(String.valueOf(done.error())).isEqualTo(JobStatus.SUCCEEDED);
                assertThat(done.progress().failed()).isZero();
                Awaitility.await("the vector leg answers again, with no restart").atMost(Duration.ofSeconds(30))
                        .until(() -> p.search().run(SearchRequest.of(query, 3)).degraded().isEmpty());
                searching.set(false);
                searcher.join();

                assertThat(failures).as("searches that failed during the outage").isEmpty();
                assertThat(searches.get()).isPositive();
                assertThat(degradedSeen).as("the outage was seen by the searches").containsExactly(Modality.VECTOR);
                assertThat(p.documents().list(null, 0, 200)).as("every file of the job, and the corpus")
                        .hasSize(123);
                for (int i : new int[] {0, 59, 119}) {
                    String word = "word" + Integer.toString(i * 7919, 36);
                    assertThat(p.search().run(SearchRequest.of(word, 3)).hits()).as(word).isNotEmpty();
                }
                var check = p.admin().check(false);
                assertThat(check.consistent()).as(check.toString()).isTrue();
            }
        }
    }

    @Test
    void a_sparql_endpoint_stopped_mid_search_and_mid_ingest_then_back_needs_no_restart() throws Exception {
        org.apache.jena.sparql.core.DatasetGraph dataset = org.apache.jena.sparql.core.DatasetGraphFactory
                .createTxnMem();
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        org.apache.jena.fuseki.main.FusekiServer[] fuseki = {fuseki(dataset, port)};
        try {
            String base = "http://127.0.0.1:" + port + "/ds/";
            Map<String, String> config = Map.of("vector.enabled", "false", "graph.enabled", "true", "rdf.enabled",
                    "true", "rdf.backend", "sparql", "rdf.sparql.query.url", base + "query", "rdf.sparql.update.url",
                    base + "update", "rdf.sparql.timeout.seconds", "2", "ingest.workers", "1", "search.graph.lag.ms",
                    "5000");
            try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("data"), config))) {
                p.ingest().paths(new PathIngest(List.of(PolyragTest.corpus(tmp.resolve("corpus"))), null, List.of(),
                        List.of()), ProgressListener.NONE);
                String query = "Pharos of Alexandria";
                assertThat(p.search().run(SearchRequest.of(query, 3)).degraded()).isEmpty();

                Path staging = p.uploads().newStagingDir();
                List<ReceivedFile> files = new ArrayList<>();
                for (int i = 0; i < 300; i++) {
                    Path f = staging.resolve("f" + i);
                    // A founding stated in each file: a relation, so every file writes statements to the endpoint.
                    String firm = "Norvik " + (char) ('A' + i % 26) + (char) ('a' + i / 26 % 26) + "rsen Shipping";
                    Files.writeString(f, "Ingrid Halvorsen founded " + firm + " in Tromso. " + firm
                            + " operates ferries to Svalbard, log entry word" + Integer.toString(i * 7919, 36) + ".");
                    files.add(new ReceivedFile("log-" + i + ".txt", f));
                }
                String job = p.uploads().submit(KnowledgeBase.of("logs"), staging, files, false);
                Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20)).until(() ->
                        p.jobs().get(job).progress().processed() >= 5 || p.jobs().get(job).status().finished());
                fuseki[0].stop();

                var down = p.search().run(SearchRequest.of(query, 3));
                assertThat(down.hits()).as("full text answers").isNotEmpty();
                assertThat(down.degraded()).extracting(DegradedLeg::modality).contains(Modality.RDF);
                // The status /health serves is not a failure while a store is away: -1 and a line naming it.
                var status = p.admin().status();
                assertThat(status.storeRecords()).containsEntry("rdf", -1L);
                assertThat(status.problems()).anySatisfy(l -> assertThat(l).startsWith("the rdf store cannot be "
                        + "counted now"));
                assertThat(p.admin().status(false).storeRecords()).as("nothing counted where nothing is shown")
                        .isEmpty();
                // (This job's files give the offline extractor no relation to state, so it may finish without the
                // endpoint; the PostgreSQL test above shows a job waiting for its store.)

                fuseki[0] = fuseki(dataset, port);
                Awaitility.await("the job resumes and finishes").atMost(Duration.ofSeconds(120))
                        .pollInterval(Duration.ofMillis(250)).until(() -> p.jobs().get(job).status().finished());
                JobInfo done = p.jobs().get(job);
                assertThat(done.status()).as(String.valueOf(done.error())).isEqualTo(JobStatus.SUCCEEDED);
                Awaitility.await("the RDF leg answers again, with no restart").atMost(Duration.ofSeconds(30))
                        .until(() -> p.search().run(SearchRequest.of(query, 3)).degraded().isEmpty());
                assertThat(p.admin().status().documents()).as("every file of the job, and the corpus").isEqualTo(303);
                var check = p.admin().check(false);
                assertThat(check.consistent()).as(check.toString()).isTrue();
            }
        } finally {
            fuseki[0].stop();
        }
    }

    private static org.apache.jena.fuseki.main.FusekiServer fuseki(org.apache.jena.sparql.core.DatasetGraph dataset,
            int port) {
        return org.apache.jena.fuseki.main.FusekiServer.create().loopback(true).port(port).add("/ds", dataset).build()
                .start();
    }
}
