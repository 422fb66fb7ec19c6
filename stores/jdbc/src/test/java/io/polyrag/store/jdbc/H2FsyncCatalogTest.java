package io.polyrag.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.spi.CatalogProvider.CatalogAndJobs;
import io.polyrag.testing.CatalogContract;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The catalog contract with {@code POLYRAG_DURABILITY=fsync}: every behaviour the same with each writing transaction
 * forced to the disk; the syncs counted, so a read is seen to cost none and concurrent writers to share them. (That
 * the file really is forced before an answer is traced in the app module's {@code FsyncModeTest}.)
 */
class H2FsyncCatalogTest extends CatalogContract {
    @TempDir
    Path own;

    @Override
    protected CatalogAndJobs openCatalog(Path dir, Clock clock) {
        return H2CatalogProvider.open(dir.resolve("catalog"), clock).syncCommits();
    }

    @Test
    void a_write_is_forced_and_a_read_is_not() {
        try (JdbcCatalog c = H2CatalogProvider.open(own.resolve("c"), Clock.systemUTC()).syncCommits()) {
            long before = c.diskSyncs();
            assertThat(c.createKnowledgeBase("docs", "d")).isTrue();
            long afterWrite = c.diskSyncs();
            assertThat(afterWrite).isEqualTo(before + 1);
            for (int i = 0; i < 20; i++) {
                assertThat(c.knowledgeBases(null)).contains("docs");
                assertThat(c.document("nothing")).isEmpty();
            }
            assertThat(c.diskSyncs()).as("reads force nothing").isEqualTo(afterWrite);
        }
    }

    @Test
    void concurrent_writers_each_return_durable_and_share_syncs() throws Exception {
        try (JdbcCatalog c = H2CatalogProvider.open(own.resolve("c"), Clock.systemUTC()).syncCommits()) {
            long before = c.diskSyncs();
            ExecutorService pool = Executors.newFixedThreadPool(8);
            List<Future<Boolean>> done = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                String name = "kb" + i;
                done.add(pool.submit(() -> c.createKnowledgeBase(name, null)));
            }
            for (Future<Boolean> f : done) {
                assertThat(f.get()).isTrue();
            }
            pool.shutdown();
            long syncs = c.diskSyncs() - before;
            assertThat(syncs).isBetween(1L, 200L);
            assertThat(c.knowledgeBases(null)).hasSizeGreaterThanOrEqualTo(200);
        }
    }
}
