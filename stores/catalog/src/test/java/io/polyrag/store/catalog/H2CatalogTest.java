package io.polyrag.store.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.model.Chunk;
import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.spi.CatalogProvider.CatalogAndJobs;
import io.polyrag.testing.CatalogContract;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class H2CatalogTest extends CatalogContract {
    @TempDir
    Path own;

    @Override
    protected CatalogAndJobs openCatalog(Path dir, java.time.Clock clock) {
        return H2CatalogProvider.open(dir.resolve("catalog"), clock);
    }

    @Test
    void flyway_is_skipped_only_when_every_bundled_migration_is_recorded() throws Exception {
        // The constant the fast path compares with is the newest migration file.
        int newest;
        try (var files = Files.list(Path.of("src/main/resources/io/polyrag/store/catalog/migration"))) {
            newest = files.map(f -> f.getFileName().toString()).filter(n -> n.matches("V\\d+__.*\\.sql"))
                    .mapToInt(n -> Integer.parseInt(n.substring(1, n.indexOf("__")))).max().orElseThrow();
        }
        assertThat(JdbcCatalog.LATEST_MIGRATION).isEqualTo(newest);
        Path dir = own.resolve("migrated");
        try (JdbcCatalog c = H2CatalogProvider.open(dir, Clock.systemUTC())) {
            assertThat(c.knowledgeBases("")).isNotNull();
        }
        // A history missing the newest version (a catalog of an older release) is migrated, not skipped.
        String url = "jdbc:h2:file:" + dir.toAbsolutePath().resolve("polyrag") + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE";
        try (var conn = java.sql.DriverManager.getConnection(url, "polyrag", "");
                var st = conn.createStatement()) {
            // Undo the newest migrations (V17 prunes purged versions' rows; those after it, which add a column or an
            // index if missing, run again harmlessly) as an older release never ran them, and leave what V17 prunes: three
            // purged versions of one document, one of another.
            st.execute("DELETE FROM \"polyrag_schema_history\" WHERE \"version\" IN (" + java.util.stream.IntStream
                    .rangeClosed(17, newest).mapToObj(v -> "'" + v + "'").collect(java.util.stream.Collectors.joining(
                            ", ")) + ")");
            for (String row : List.of("'d', 1", "'d', 2", "'d', 3", "'e', 4")) {
                st.execute("INSERT INTO document_versions (document_id, version, state, title, media_type, "
                        + "content_hash, size_bytes, created_at) VALUES (" + row + ", 'purged', 't', 'text/plain', "
                        + "'h', 1, CURRENT_TIMESTAMP)");
            }
        }
        try (JdbcCatalog c = H2CatalogProvider.open(dir, Clock.systemUTC())) {
            assertThat(c.versionRows()).as("each document's newest purged version kept, the others pruned")
                    .isEqualTo(2);
        }
    }

    @Test
    void purged_versions_leave_one_row_per_document() {
        try (JdbcCatalog c = H2CatalogProvider.open(own.resolve("pruned"), Clock.systemUTC())) {
            for (int round = 1; round <= 10; round++) {
                long v = c.nextVersion("d");
                c.stage(draft("d", "kb", v, "version " + round), v);
                c.publish(new DocumentVersion("d", v));
            }
            assertThat(c.versionRows()).isEqualTo(10);
            c.markPurged(c.unpurgedVersions());
            assertThat(c.versionRows()).as("the published version's row; the nine replaced ones pruned").isEqualTo(1);
            c.delete(List.of("d"));
            c.markPurged(c.unpurgedVersions());
            assertThat(c.versionRows()).as("a deleted document keeps its newest row").isEqualTo(1);
            // A file whose first write fails at every sync: each attempt is discarded, and leaves no row behind.
            for (int attempt = 1; attempt <= 5; attempt++) {
                long v = c.nextVersion("never");
                c.stage(draft("never", "kb", v, "attempt " + attempt), v);
                c.discard(new DocumentVersion("never", v));
                c.markPurged(List.of(new DocumentVersion("never", v)));
            }
            assertThat(c.versionRows()).as("no row for the attempts never visible").isEqualTo(1);
        }
    }

    @Test
    void a_file_mostly_dead_from_commits_is_compacted_at_close_and_loses_nothing() throws Exception {
        Path dir = own.resolve("catalog");
        Path file = dir.resolve("polyrag.mv.db");
        String text = "Every commit leaves the pages it replaced behind in the file. ".repeat(30);
        long before;
        // A threshold of 1 MB instead of 64, so a test-sized catalog qualifies; and none of H2's own 200 ms of
        // compaction at close, which shrinks a file this small (not the gigabytes of a large ingest) by itself.
        try (JdbcCatalog c = H2CatalogProvider.open(dir, Clock.systemUTC(), 1 << 20, ";MAX_COMPACT_TIME=0")) {
            // 40 new versions of 20 documents, one commit each to stage and to publish: the chunks of each replaced
            // version, and the index pages every commit rewrote, are dead.
            for (int round = 1; round <= 40; round++) {
                for (int d = 0; d < 20; d++) {
                    String id = "doc-" + d;
                    long v = c.nextVersion(id);
                    c.stage(draft(id, "kb", v, text + round, text + d), v);
                    c.publish(new DocumentVersion(id, v));
                }
            }
            before = Files.size(file);
        }
        long after = Files.size(file);
        assertThat(before).isGreaterThan(1 << 20);
        assertThat(after).as("compacted from %,d bytes", before).isLessThan(before / 2);
        try (JdbcCatalog c = H2CatalogProvider.open(dir, Clock.systemUTC(), 1 << 20, ";MAX_COMPACT_TIME=0")) {
            assertThat(c.countDocuments(SearchScope.ALL)).isEqualTo(20);
            assertThat(c.document("doc-7").orElseThrow().visibleVersion()).isEqualTo(40);
            assertThat(c.resolve(List.of(Chunk.idOf("doc-7", 40, 0)), SearchScope.ALL).values())
                    .singleElement().satisfies(v -> assertThat(v.chunk().text()).isEqualTo(text + 40));
        }
        // Compact already: closing again leaves it as it is.
        assertThat(Files.size(file)).isLessThanOrEqualTo(after + (1 << 20));
    }

    @Test
    void an_open_catalog_under_sustained_writes_stays_near_its_live_size() throws Exception {
        // The same writes into two catalogs, one compacted every 50 ms while open, the other only at close (and that
        // switched off too: MAX_COMPACT_TIME=0 and a threshold no test file reaches). No retention time, so that a
        // chunk left empty may take new commits at once (the default keeps them 45 s).
        String settings = ";MAX_COMPACT_TIME=0;RETENTION_TIME=0";
        String text = "Every commit leaves the pages it replaced behind in the file. ".repeat(30);
        long[] sizes = new long[2];
        for (int run = 0; run < 2; run++) {
            Path dir = own.resolve("sustained-" + run);
            boolean online = run == 0;
            try (JdbcCatalog c = H2CatalogProvider.open(dir, Clock.systemUTC(), online ? 1 << 20 : Long.MAX_VALUE,
                    settings, 16 << 10, online ? 50 : 0)) {
                for (int round = 1; round <= 150; round++) {
                    // Two documents written once, beside the twenty replaced every round: their pages stay live in
                    // chunks otherwise dead, which H2 then never reuses.
                    for (int n = 0; n < 2; n++) {
                        String id = "kept-" + round + "-" + n;
                        long v = c.nextVersion(id);
                        c.stage(draft(id, "kb", v, text + id), v);
                        c.publish(new DocumentVersion(id, v));
                    }
                    for (int d = 0; d < 20; d++) {
                        String id = "doc-" + d;
                        long v = c.nextVersion(id);
                        c.stage(draft(id, "kb", v, text + round, text + d), v);
                        c.publish(new DocumentVersion(id, v));
                    }
                }
                sizes[run] = Files.size(dir.resolve("polyrag.mv.db"));
                assertThat(c.countDocuments(SearchScope.ALL)).isEqualTo(320);
                assertThat(c.resolve(List.of(Chunk.idOf("doc-7", 150, 0)), SearchScope.ALL).values())
                        .singleElement().satisfies(v -> assertThat(v.chunk().text()).isEqualTo(text + 150));
            }
            // What the passes rewrote reads back after a reopen.
            try (JdbcCatalog c = H2CatalogProvider.open(dir, Clock.systemUTC(), Long.MAX_VALUE, settings)) {
                assertThat(c.document("doc-3").orElseThrow().visibleVersion()).isEqualTo(150);
                assertThat(c.resolve(List.of(Chunk.idOf("doc-3", 150, 0)), SearchScope.ALL).values())
                        .singleElement().satisfies(v -> assertThat(v.chunk().text()).isEqualTo(text + 150));
            }
        }
        assertThat(sizes[1]).as("uncompacted").isGreaterThan(16L << 20);
        assertThat(sizes[0]).as("compacted while open, against %,d bytes without", sizes[1])
                .isLessThan(sizes[1] / 4);
    }

    @Test
    void the_page_cache_is_the_setting_or_an_eighth_of_the_heap_within_bounds() throws Exception {
        assertThat(H2CatalogProvider.cacheKb(200, 4L << 30)).isEqualTo(200L << 10);
        assertThat(H2CatalogProvider.cacheKb(0, 4L << 30)).isEqualTo(512L << 10);
        assertThat(H2CatalogProvider.cacheKb(0, 256L << 20)).isEqualTo(64L << 10);
        assertThat(H2CatalogProvider.cacheKb(0, 64L << 30)).isEqualTo(1024L << 10);
        // The setting reaches the database the provider opens.
        var config = io.polyrag.core.config.Config.load(java.util.Map.of(), java.util.Map.of(
                io.polyrag.core.config.Settings.CATALOG_CACHE_MB.key(), "200"));
        try (CatalogAndJobs c = new H2CatalogProvider().open(new io.polyrag.core.spi.ProviderContext(config, own));
                var db = java.sql.DriverManager.getConnection("jdbc:h2:file:" + own.resolve("catalog")
                        .toAbsolutePath().resolve("polyrag") + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE", "polyrag",
                        "");
                var rs = db.createStatement().executeQuery("SELECT setting_value FROM information_schema.settings "
                        + "WHERE setting_name = 'info.CACHE_MAX_SIZE'")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).as("MB").isEqualTo("200");
        }
    }
}
