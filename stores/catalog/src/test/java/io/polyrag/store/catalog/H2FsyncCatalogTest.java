package io.polyrag.store.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.spi.CatalogProvider.CatalogAndJobs;
import io.polyrag.testing.CatalogContract;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The catalog contract with {@code POLYRAG_DURABILITY=fsync}: every behaviour the same with each writing transaction
 * forced to the disk; the syncs counted, so a read is seen to cost none and concurrent writers to share them; and a
 * read that could see a commit whose sync has not finished waits for it. (That the file really is forced before an
 * answer is traced in the app module's {@code FsyncModeTest}.)
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

    /**
     * A sync failing after its commit returned, as a database that closed itself reports it, is not run again on the
     * reopened database: run again, a publish found its versions published, refused them, and the writer purged the
     * records of documents the catalog showed.
     */
    @Test
    void a_write_whose_sync_fails_after_its_commit_is_not_run_again() throws Exception {
        java.util.concurrent.atomic.AtomicBoolean failOnce = new java.util.concurrent.atomic.AtomicBoolean(true);
        DiskSync closing = new DiskSync(conn -> {
            if (failOnce.getAndSet(false)) {
                throw new java.sql.SQLException("Database is already closed (simulated)", "90098", 90098);
            }
            try (var s = conn.createStatement()) {
                s.execute("CHECKPOINT SYNC");
            }
        });
        try (JdbcCatalog c = H2CatalogProvider.open(own.resolve("c"), Clock.systemUTC())) {
            c.stage(draft("doc", "kb", 1, "text"), 1);
            c.syncCommits(closing);
            var v = new io.polyrag.core.model.DocumentVersion("doc", 1);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> c.publishAll(List.of(v)))
                    .as("its outcome unknown, not refused as 'not pending'").isInstanceOf(RuntimeException.class);
            assertThat(c.document("doc")).hasValueSatisfying(d -> assertThat(d.visibleVersion()).isEqualTo(1));
            assertThat(c.knowledgeBases(null)).as("the reopened catalog serves").contains("kb");
        }
    }

    @Test
    void a_read_waits_until_the_commit_it_could_see_is_on_the_disk() throws Exception {
        CountDownLatch forcing = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        DiskSync held = new DiskSync(conn -> {
            forcing.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            try (var s = conn.createStatement()) {
                s.execute("CHECKPOINT SYNC");
            }
        });
        try (JdbcCatalog c = H2CatalogProvider.open(own.resolve("c"), Clock.systemUTC()).syncCommits(held)) {
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                Future<Boolean> write = pool.submit(() -> c.createKnowledgeBase("late", null));
                assertThat(forcing.await(30, TimeUnit.SECONDS)).isTrue();
                // The writer's commit is visible to other sessions now; its sync has not finished.
                Future<List<String>> read = pool.submit(() -> c.knowledgeBases(null));
                Thread.sleep(300);
                assertThat(read.isDone()).as("a read answered with a commit not yet on the disk").isFalse();
                assertThat(write.isDone()).isFalse();
                release.countDown();
                assertThat(read.get(30, TimeUnit.SECONDS)).contains("late");
                assertThat(write.get(30, TimeUnit.SECONDS)).isTrue();
                // Nothing pending any more: reads are free again.
                long synced = c.diskSyncs();
                assertThat(c.knowledgeBases(null)).contains("late");
                assertThat(c.diskSyncs()).isEqualTo(synced);
            } finally {
                release.countDown();
                pool.shutdownNow();
            }
        }
    }
}
