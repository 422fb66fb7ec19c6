package io.polyrag.store.postgres;

import io.polyrag.core.config.Config;
import io.polyrag.core.port.FullTextStore;
import io.polyrag.core.spi.ProviderContext;
import io.polyrag.testing.FullTextStoreContract;
import io.polyrag.testing.TestPostgres;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** The full-text store contract on a real PostgreSQL, in an empty schema per test, reopened by name. */
class PgFullTextStoreTest extends FullTextStoreContract {
    private final Map<Path, String> schemas = new HashMap<>();

    @Override
    protected FullTextStore openStore(Path dir) {
        String url = schemas.computeIfAbsent(dir, d -> TestPostgres.freshSchema("fts_" + Integer.toHexString(
                d.toString().hashCode())));
        return new PostgresProviders.FullText().open(new ProviderContext(Config.load(Map.of(), Map.of("postgres.url",
                url, "postgres.pool.search", "2", "postgres.pool.ingest", "1")), dir));
    }

    @Override
    protected boolean keepsWholeTexts() {
        return true;
    }

    /** Lexemes no row holds any more leave the vocabulary; the others keep their counts. */
    @org.junit.jupiter.api.Test
    void removed_rows_take_their_last_lexemes_with_them() throws Exception {
        FullTextStore store = open();
        store.upsert(java.util.List.of(rec("a#1", "a", 1, "kb", "Puffins nest on the skerry."),
                rec("b#1", "b", 1, "kb", "Terns nest on the skerry too.")));
        store.delete(java.util.List.of(new io.polyrag.core.model.DocumentVersion("a", 1)));
        String url = schemas.get(dir);
        try (var c = java.sql.DriverManager.getConnection(url); var st = c.createStatement();
                var rs = st.executeQuery("SELECT lexeme, df FROM polyrag_fulltext_terms ORDER BY lexeme")) {
            java.util.Map<String, Long> df = new java.util.TreeMap<>();
            while (rs.next()) {
                df.put(rs.getString(1), rs.getLong(2));
            }
            org.assertj.core.api.Assertions.assertThat(df).doesNotContainKey("puffin").containsEntry("tern", 1L)
                    .containsEntry("skerri", 1L).allSatisfy((k, v) -> org.assertj.core.api.Assertions.assertThat(v)
                    .isPositive());
        }
    }

    /**
     * A search's statements end at the search's time limit on the server too: a leg cut at its deadline left its
     * query running there (waiting on a lock, scoring every row) after its connection had gone.
     */
    @org.junit.jupiter.api.Test
    void a_search_statement_ends_at_the_search_time_limit_on_the_server() throws Exception {
        String url = TestPostgres.freshSchema("fts_deadline");
        try (FullTextStore store = new PostgresProviders.FullText().open(new ProviderContext(Config.load(Map.of(),
                Map.of("postgres.url", url, "search.timeout.ms", "300")), dir))) {
            store.upsert(java.util.List.of(rec("a#1", "a", 1, "kb", "Puffins nest on the skerry.")));
            try (var c = java.sql.DriverManager.getConnection(url)) {
                c.setAutoCommit(false);
                try (var st = c.createStatement()) {
                    st.execute("LOCK TABLE polyrag_fulltext IN ACCESS EXCLUSIVE MODE");
                }
                long t0 = System.nanoTime();
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> store.search("puffins",
                        io.polyrag.core.model.SearchScope.ALL, 10)).isInstanceOf(io.polyrag.core.StoreException.class)
                        .hasMessageContaining("statement timeout");
                org.assertj.core.api.Assertions.assertThat((System.nanoTime() - t0) / 1_000_000).isLessThan(5_000);
                c.rollback();
            }
            org.assertj.core.api.Assertions.assertThat(store.search("puffins", io.polyrag.core.model.SearchScope.ALL,
                    10)).hasSize(1);
        }
    }

    /**
     * Writers waiting on the writer lock (another replica deleting a knowledge base holds it) take every write
     * connection, not the searches': with one pool a search waited for a connection until its leg was lost.
     */
    @org.junit.jupiter.api.Test
    void searches_do_not_wait_behind_writers_queued_on_the_writer_lock() throws Exception {
        String url = TestPostgres.freshSchema("fts_pools");
        try (FullTextStore store = new PostgresProviders.FullText().open(new ProviderContext(Config.load(Map.of(),
                Map.of("postgres.url", url, "postgres.pool.search", "1", "postgres.pool.ingest", "1",
                        "postgres.connect.timeout.seconds", "2")), dir))) {
            store.upsert(java.util.List.of(rec("a#1", "a", 1, "kb", "Puffins nest on the skerry.")));
            var pool = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor();
            try (var c = java.sql.DriverManager.getConnection(url)) {
                c.setAutoCommit(false);
                try (var st = c.createStatement()) {
                    st.execute("SELECT pg_advisory_xact_lock(" + 0x706f6c7972616701L + ")");
                }
                // Three writers queue: two hold the write connections (two at least) waiting on the lock, one waits
                // for a connection.
                var first = pool.submit(() -> store.upsert(java.util.List.of(rec("b#1", "b", 1, "kb", "Terns."))));
                var third = pool.submit(() -> store.upsert(java.util.List.of(rec("d#1", "d", 1, "kb", "Auks."))));
                var second = pool.submit(() -> store.upsert(java.util.List.of(rec("c#1", "c", 1, "kb", "Gulls."))));
                Thread.sleep(500);
                long t0 = System.nanoTime();
                org.assertj.core.api.Assertions.assertThat(store.search("puffins",
                        io.polyrag.core.model.SearchScope.ALL, 10)).hasSize(1);
                org.assertj.core.api.Assertions.assertThat((System.nanoTime() - t0) / 1_000_000).isLessThan(1_500);
                c.rollback();
                first.get(30, java.util.concurrent.TimeUnit.SECONDS);
                third.get(30, java.util.concurrent.TimeUnit.SECONDS);
                try {
                    second.get(30, java.util.concurrent.TimeUnit.SECONDS);
                } catch (java.util.concurrent.ExecutionException e) {
                    // It may have given up waiting for the connection (2 s): what matters is the search above.
                }
            } finally {
                pool.shutdownNow();
            }
        }
    }
}
