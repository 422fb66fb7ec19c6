package io.polyrag.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.app.api.PathIngest;
import io.polyrag.core.model.CheckReport;
import io.polyrag.core.model.SearchHit;
import io.polyrag.core.model.SearchRequest;
import io.polyrag.core.port.ProgressListener;
import io.polyrag.testing.TestPostgres;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole facade on PostgreSQL — catalog and jobs, pgvector, full text — against the embedded default stack on
 * the same documents, in one run: the same hits in the same order, deletes reach every store, and the stores agree
 * with the catalog.
 */
class PostgresStackTest {
    @TempDir
    Path tmp;

    @Test
    void the_postgres_stack_answers_as_the_embedded_one_does() throws Exception {
        String url = TestPostgres.freshSchema("stack");
        Path corpus = PolyragTest.corpus(tmp.resolve("corpus"));
        List<String> queries = List.of("Pharos of Alexandria wonders", "how long does the levain ferment",
                "rye flour grams", "comet returns every seventy-six years", "keepers logged ships");
        List<List<String>> embedded;
        try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("embedded"), Map.of()))) {
            p.ingest().paths(new PathIngest(List.of(corpus), null, List.of(), List.of()), ProgressListener.NONE);
            embedded = ranked(p, queries);
        }
        Map<String, String> postgres = Map.of("catalog.backend", "postgres", "vector.backend", "pgvector",
                "fulltext.backend", "postgres", "postgres.url", url);
        try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("pg"), postgres))) {
            var report = p.ingest().paths(new PathIngest(List.of(corpus), null, List.of(), List.of()),
                    ProgressListener.NONE);
            assertThat(report.report().added()).isEqualTo(3);
            assertThat(p.admin().configuration("test").backends()).containsEntry("vector", "pgvector")
                    .containsEntry("fulltext", "postgres").containsEntry("catalog", "postgres");
            assertThat(ranked(p, queries)).as("the same documents in the same order for every query")
                    .isEqualTo(embedded);
            SearchHit top = p.search().run(SearchRequest.of("Pharos of Alexandria wonders", 3)).hits().getFirst();
            assertThat(top.sources()).containsKeys("vector", "fulltext");
            String comets = p.documents().list(null, 0, 10).stream().filter(d -> d.uri().endsWith("comets.txt"))
                    .findFirst().orElseThrow().id();
            assertThat(p.documents().delete(List.of(comets))).isEqualTo(1);
            assertThat(p.search().run(SearchRequest.of("comet returns every seventy-six years", 5)).hits())
                    .extracting(SearchHit::documentId).doesNotContain(comets);
            CheckReport check = p.admin().check(false);
            assertThat(check.stores()).allSatisfy(s -> {
                assertThat(s.orphanVersions()).as(s.store()).isZero();
                assertThat(s.lackingVersions()).as(s.store()).isZero();
            });
        }
        try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("pg-again"), postgres))) {
            assertThat(p.documents().list(null, 0, 10)).as("a second process on the same database sees them")
                    .hasSize(2);
        }
    }

    @Test
    void a_networked_store_that_goes_away_degrades_its_leg_and_comes_back_without_a_restart() throws Exception {
        String url = TestPostgres.freshSchema("outage");
        java.net.URI pg = java.net.URI.create(url.substring("jdbc:".length()));
        try (io.polyrag.testing.TcpProxy proxy = new io.polyrag.testing.TcpProxy(pg.getHost(), pg.getPort())) {
            String through = url.replace(pg.getHost() + ":" + pg.getPort(), "127.0.0.1:" + proxy.port());
            Map<String, String> config = Map.of("vector.backend", "pgvector", "postgres.url", through,
                    "postgres.connect.timeout.seconds", "2", "search.timeout.ms", "4000");
            try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("data"), config))) {
                p.ingest().paths(new PathIngest(List.of(PolyragTest.corpus(tmp.resolve("corpus"))), null, List.of(),
                        List.of()), ProgressListener.NONE);
                String query = "Pharos of Alexandria wonders";
                assertThat(p.search().run(SearchRequest.of(query, 3)).degraded()).isEmpty();
                assertThat(p.admin().readiness()).isEmpty();

                proxy.cut();
                var down = p.search().run(SearchRequest.of(query, 3));
                assertThat(down.hits()).as("the full-text leg still answers").isNotEmpty();
                assertThat(down.hits().getFirst().uri()).endsWith("lighthouses.md");
                assertThat(down.degraded()).extracting(io.polyrag.core.model.DegradedLeg::modality)
                        .containsExactly(io.polyrag.core.model.Modality.VECTOR);
                assertThat(p.admin().readiness()).as("/ready names the store").anySatisfy(line ->
                        assertThat(line).contains("vector"));
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> p.ingest().text(new io.polyrag.app.api.TextIngest(
                        "The quokka hops across Rottnest Island at dawn.", null, "note:quokka", "text", null)))
                        .as("a write that cannot reach every store is not acknowledged: a 503 over HTTP")
                        .isInstanceOf(io.polyrag.core.StoreException.class)
                        .matches(io.polyrag.core.StorageProblems::unreachable);
                assertThat(p.search().run(SearchRequest.of("quokka Rottnest", 3)).hits()).as("nor half visible")
                        .isEmpty();

                proxy.restore();
                org.awaitility.Awaitility.await("the leg answers again, with no restart").atMost(
                        java.time.Duration.ofSeconds(30)).until(() -> p.search().run(SearchRequest.of(query, 3))
                        .degraded().isEmpty());
                assertThat(p.search().run(SearchRequest.of(query, 3)).hits().getFirst().sources())
                        .containsKeys("vector", "fulltext");
                assertThat(p.admin().readiness()).isEmpty();
                assertThat(p.ingest().text(new io.polyrag.app.api.TextIngest("The quokka hops across Rottnest "
                        + "Island at dawn.", null, "note:quokka", "text", null)).added()).isEqualTo(1);
                assertThat(p.search().run(SearchRequest.of("quokka Rottnest", 3)).hits()).isNotEmpty();
            }
        }
    }

    @Test
    void a_networked_store_that_answers_slowly_is_left_out_at_its_deadline_not_waited_for() throws Exception {
        String url = TestPostgres.freshSchema("slow");
        java.net.URI pg = java.net.URI.create(url.substring("jdbc:".length()));
        try (io.polyrag.testing.TcpProxy proxy = new io.polyrag.testing.TcpProxy(pg.getHost(), pg.getPort())) {
            String through = url.replace(pg.getHost() + ":" + pg.getPort(), "127.0.0.1:" + proxy.port());
            Map<String, String> config = Map.of("vector.backend", "pgvector", "postgres.url", through,
                    "search.timeout.ms", "1500");
            try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("slow"), config))) {
                p.ingest().paths(new PathIngest(List.of(PolyragTest.corpus(tmp.resolve("corpus"))), null, List.of(),
                        List.of()), ProgressListener.NONE);
                String query = "Pharos of Alexandria wonders";
                assertThat(p.search().run(SearchRequest.of(query, 3)).degraded()).isEmpty();

                proxy.slow(java.time.Duration.ofSeconds(5));
                long t0 = System.nanoTime();
                var slow = p.search().run(SearchRequest.of(query + " keepers", 3));
                long tookMs = (System.nanoTime() - t0) / 1_000_000;
                assertThat(tookMs).as("the search waits for the slow leg only up to its deadline").isLessThan(4_000);
                assertThat(slow.hits()).as("the full-text leg answers").isNotEmpty();
                assertThat(slow.hits().getFirst().uri()).endsWith("lighthouses.md");
                assertThat(slow.degraded()).extracting(io.polyrag.core.model.DegradedLeg::modality)
                        .containsExactly(io.polyrag.core.model.Modality.VECTOR);

                proxy.restore();
                org.awaitility.Awaitility.await("the leg is back at full speed").atMost(java.time.Duration
                        .ofSeconds(30)).until(() -> p.search().run(SearchRequest.of(query, 3)).degraded().isEmpty());
            }
        }
    }

    private static List<List<String>> ranked(Polyrag p, List<String> queries) {
        return queries.stream().map(q -> p.search().run(SearchRequest.of(q, 3)).hits().stream()
                .map(h -> h.uri().substring(h.uri().lastIndexOf('/') + 1) + "#" + h.ordinal()).toList()).toList();
    }
}
