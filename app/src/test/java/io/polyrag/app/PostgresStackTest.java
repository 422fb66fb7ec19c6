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

    private static List<List<String>> ranked(Polyrag p, List<String> queries) {
        return queries.stream().map(q -> p.search().run(SearchRequest.of(q, 3)).hits().stream()
                .map(h -> h.uri().substring(h.uri().lastIndexOf('/') + 1) + "#" + h.ordinal()).toList()).toList();
    }
}
