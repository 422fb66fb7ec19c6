package io.polyrag.store.catalog;

import io.polyrag.core.config.Config;
import io.polyrag.core.spi.CatalogProvider.CatalogAndJobs;
import io.polyrag.testing.CatalogContract;
import io.polyrag.testing.TestPostgres;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.as;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** The catalog contract on a real PostgreSQL: each test in an empty schema of its own, reopened by name. */
class PostgresCatalogTest extends CatalogContract {
    private final Map<Path, String> schemas = new HashMap<>();

    @Override
    protected CatalogAndJobs openCatalog(Path dir, java.time.Clock clock) {
        String url = schemas.computeIfAbsent(dir, d -> TestPostgres.freshSchema("catalog_" + Integer.toHexString(
                d.toString().hashCode())));
        return PostgresCatalogProvider.open(Config.load(Map.of(), Map.of("postgres.url", url, "postgres.pool.search",
                "2", "postgres.pool.ingest", "2", "postgres.pool.jobs", "1")), clock);
    }

    /**
     * A server that answers and refuses (a role it does not know, a database it does not have) is a configuration to
     * fix, said as such; only a server that does not answer is unavailable (try again later).
     */
    @Test
    void a_refused_role_or_a_missing_database_is_a_configuration_error_and_a_dead_port_unavailable() {
        String url = TestPostgres.url();
        String base = url.substring(0, url.indexOf('?') < 0 ? url.length() : url.indexOf('?'));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> PostgresCatalogProvider.open(Config.load(Map.of(),
                Map.of("postgres.url", base + "?user=no_such_role_here",
                "postgres.connect.timeout.seconds", "1")), java.time.Clock.systemUTC()))
                .isInstanceOf(io.polyrag.core.ConfigException.class).hasMessageContaining("refused the catalog")
                .hasMessageContaining("no_such_role_here").hasMessageContaining("check the user and password");
        String noDb = base.substring(0, base.lastIndexOf('/') + 1) + "no_such_database_here"
                + (url.contains("?") ? url.substring(url.indexOf('?')) : "");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> PostgresCatalogProvider.open(Config.load(Map.of(),
                Map.of("postgres.url", noDb, "postgres.connect.timeout.seconds", "1")), java.time.Clock.systemUTC()))
                .isInstanceOf(io.polyrag.core.ConfigException.class)
                .hasMessageContaining("no_such_database_here").hasMessageContaining("create that database");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> PostgresCatalogProvider.open(Config.load(Map.of(),
                Map.of("postgres.url", "jdbc:postgresql://127.0.0.1:9/polyrag", "postgres.connect.timeout.seconds",
                        "1")), java.time.Clock.systemUTC()))
                .isInstanceOf(io.polyrag.core.UnavailableException.class).hasMessageContaining("cannot connect");
    }

    /** A row lock held by a session that never ends (a dead replica's) makes a stage fail after the lock timeout. */
    @Test
    void a_lock_held_by_a_stuck_session_fails_a_write_after_the_lock_timeout() throws Exception {
        String url = TestPostgres.freshSchema("catalog_locks");
        try (JdbcCatalog c = PostgresCatalogProvider.open(Config.load(Map.of(), Map.of("postgres.url", url)),
                java.time.Clock.systemUTC())) {
            c.stage(draft("held", "kb", 1, "text"), 1);
            c.publish(new io.polyrag.core.model.DocumentVersion("held", 1));
            try (var conn = java.sql.DriverManager.getConnection(url)) {
                conn.setAutoCommit(false);
                try (var st = conn.createStatement()) {
                    st.executeQuery("SELECT id FROM documents WHERE id = 'held' FOR UPDATE").close();
                }
                long start = System.nanoTime();
                // A lock timeout, which a job waits out and resumes after (not a failure of its files), and a
                // request answers 503 with Retry-After.
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> c.stage(draft("held", "kb", 2, "new"), 2))
                        .isInstanceOf(RuntimeException.class).satisfies(e -> org.assertj.core.api.Assertions
                                .assertThat(io.polyrag.core.StorageProblems.unreachable(e)).as(e.toString()).isTrue());
                long ms = (System.nanoTime() - start) / 1_000_000;
                org.assertj.core.api.Assertions.assertThat(ms).isBetween((long) Postgres.LOCK_TIMEOUT_MS - 1_000,
                        6L * Postgres.LOCK_TIMEOUT_MS);
                conn.rollback();
            }
        }
    }

    /**
     * Every request's key check and every search's knowledge bases are read on the search pool: with the write pool's
     * connections held by writes waiting on a lock, they answer at once (they waited for one, then failed). The
     * write pool of one connection the setting allows is two, which the schema's migration needs.
     */
    @Test
    void key_checks_and_knowledge_bases_never_wait_behind_writes() throws Exception {
        String url = TestPostgres.freshSchema("catalog_pools");
        try (JdbcCatalog c = PostgresCatalogProvider.open(Config.load(Map.of(), Map.of("postgres.url", url,
                "postgres.pool.ingest", "1")), java.time.Clock.systemUTC())) {
            c.stage(draft("held", "kb", 1, "text"), 1);
            c.publish(new io.polyrag.core.model.DocumentVersion("held", 1));
            ExecutorService writer = Executors.newFixedThreadPool(2);
            try (var conn = java.sql.DriverManager.getConnection(url)) {
                conn.setAutoCommit(false);
                try (var st = conn.createStatement()) {
                    st.executeQuery("SELECT id FROM documents WHERE id = 'held' FOR UPDATE").close();
                }
                Future<?> waiting = writer.submit(() -> c.stage(draft("held", "kb", 2, "new"), 2));
                writer.submit(() -> c.stage(draft("held", "kb", 3, "newer"), 3));
                Thread.sleep(500); // the writes hold both write connections, waiting on the lock
                long start = System.nanoTime();
                assertThat(c.keyStore().anyActiveKey()).isFalse();
                assertThat(c.keyStore().activeKey("0123456789abcdef")).isEmpty();
                assertThat(c.knowledgeBases("")).isNotNull();
                assertThat((System.nanoTime() - start) / 1_000_000).as("ms, the write still waiting: %s",
                        waiting.isDone()).isLessThan(2_000);
                conn.rollback();
            } finally {
                writer.shutdownNow();
            }
        }
    }

    /** A long uri of multi-byte characters is stored clipped to whole characters: PostgreSQL's index refused it. */
    @Test
    void a_long_uri_of_multibyte_characters_is_stored() {
        String url = TestPostgres.freshSchema("catalog_uris");
        try (JdbcCatalog c = PostgresCatalogProvider.open(Config.load(Map.of(), Map.of("postgres.url", url)),
                java.time.Clock.systemUTC())) {
            StringBuilder uri = new StringBuilder("file:///");
            for (int cp = 0x4E00; uri.length() < 1_500; cp++) {
                uri.appendCodePoint(cp);
            }
            var d = draft("wide", "kb", 1, "text");
            c.stage(new io.polyrag.core.model.DocumentDraft(d.id(), d.knowledgeBase(), uri.toString(), d.title(),
                    d.mediaType(), d.contentHash(), d.sizeBytes(), d.chunks()), 1);
            c.publish(new io.polyrag.core.model.DocumentVersion("wide", 1));
            assertThat(c.document("wide")).hasValueSatisfying(doc -> assertThat(uri.toString()).startsWith(doc.uri()));
        }
    }

    @Test
    void fsync_mode_warns_when_the_server_does_not_make_commits_durable() throws Exception {
        String url = TestPostgres.freshSchema("catalog_durability");
        try (JdbcCatalog c = PostgresCatalogProvider.open(Config.load(Map.of(), Map.of("postgres.url", url)),
                java.time.Clock.systemUTC())) {
            List<String> off = new ArrayList<>();
            try (var conn = java.sql.DriverManager.getConnection(url); var s = conn.createStatement()) {
                for (String name : List.of("fsync", "synchronous_commit")) {
                    try (var rs = s.executeQuery("SHOW " + name)) {
                        rs.next();
                        if ("off".equals(rs.getString(1))) {
                            off.add(name + "=off");
                        }
                    }
                }
            }
            var warning = PostgresCatalogProvider.unsafeCommits(c.jdbc);
            if (off.isEmpty()) {
                assertThat(warning).isEmpty();
            } else {
                assertThat(warning).get(as(org.assertj.core.api.InstanceOfAssertFactories.STRING))
                        .contains(off).contains("POLYRAG_DURABILITY=fsync");
            }
        }
    }

    @Test
    void replicas_opening_one_empty_schema_at_once_all_start() throws Exception {
        // Several processes' first start on one empty schema: all bring it up to date, none fails half way.
        for (int round = 0; round < 3; round++) {
            String url = TestPostgres.freshSchema("catalog_together_" + round);
            int replicas = 4;
            CyclicBarrier start = new CyclicBarrier(replicas);
            ExecutorService pool = Executors.newFixedThreadPool(replicas);
            List<Future<CatalogAndJobs>> opened = new ArrayList<>();
            try {
                for (int i = 0; i < replicas; i++) {
                    Callable<CatalogAndJobs> open = () -> {
                        start.await();
                        return PostgresCatalogProvider.open(Config.load(Map.of(), Map.of("postgres.url", url,
                                "postgres.pool.search", "1", "postgres.pool.ingest", "2", "postgres.pool.jobs", "1")),
                                java.time.Clock.systemUTC());
                    };
                    opened.add(pool.submit(open));
                }
                for (Future<CatalogAndJobs> f : opened) {
                    try (CatalogAndJobs c = f.get()) {
                        assertThat(c.countDocuments(io.polyrag.core.model.SearchScope.ALL)).isZero();
                    }
                }
            } finally {
                pool.shutdownNow();
            }
        }
    }
}
