package io.polyrag.core.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class WholeTextCoverageTest {
    @Test
    void counts_again_only_for_a_new_key_and_never_once_complete() {
        WholeTextCoverage coverage = new WholeTextCoverage("the test index");
        AtomicInteger counts = new AtomicInteger();
        AtomicBoolean whole = new AtomicBoolean(false);
        java.util.function.BooleanSupplier count = () -> {
            counts.incrementAndGet();
            return whole.get();
        };
        assertThat(coverage.complete(1, count)).isFalse();
        assertThat(coverage.complete(1, count)).as("the same key: the last count holds").isFalse();
        assertThat(counts).hasValue(1);
        whole.set(true);
        assertThat(coverage.complete(1, count)).isFalse();
        assertThat(coverage.complete(2, count)).as("a new key counts again").isTrue();
        assertThat(coverage.complete(3, count)).isTrue();
        assertThat(counts).as("complete stays complete without counting").hasValue(2);
    }

    /** A count that fails is not asked again for the same key: every search counted again, each to its deadline. */
    @Test
    void a_failed_count_is_remembered_for_its_key() {
        WholeTextCoverage coverage = new WholeTextCoverage("the test index");
        AtomicInteger counts = new AtomicInteger();
        java.util.function.BooleanSupplier failing = () -> {
            counts.incrementAndGet();
            throw new IllegalStateException("canceling statement due to statement timeout");
        };
        assertThat(coverage.complete(1, failing)).isFalse();
        assertThat(coverage.complete(1, failing)).isFalse();
        assertThat(counts).hasValue(1);
        assertThat(coverage.complete(2, () -> true)).as("asked again under a new key").isTrue();
    }

    /** Searches that start while a count runs take the last answer: each ran a scan of its own. */
    @Test
    void one_thread_counts_at_a_time() throws Exception {
        WholeTextCoverage coverage = new WholeTextCoverage("the test index");
        AtomicInteger counts = new AtomicInteger();
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        java.util.function.BooleanSupplier slow = () -> {
            counts.incrementAndGet();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return true;
        };
        Thread first = Thread.ofVirtual().start(() -> coverage.complete(1, slow));
        while (counts.get() == 0) {
            Thread.onSpinWait();
        }
        java.util.List<Thread> others = new java.util.ArrayList<>();
        for (int i = 0; i < 7; i++) {
            others.add(Thread.ofVirtual().start(() -> assertThat(coverage.complete(1, slow)).isFalse()));
        }
        for (Thread t : others) {
            t.join(5000);
        }
        release.countDown();
        first.join(5000);
        assertThat(counts).hasValue(1);
        assertThat(coverage.complete(1, slow)).isTrue();
    }

    @Test
    void joins_chunks_once_with_their_repeated_title_and_headings_once() {
        var records = java.util.List.of(
                new StoreRecord("d-v1-0", "d", 1, "kb", "Title\nSetup\nInstall it.", null),
                new StoreRecord("d-v1-1", "d", 1, "kb", "Title\nSetup\nThen run it.", null),
                new StoreRecord("d-v1-2", "d", 1, "kb", "Title\nUsage\nCall it.", null),
                new StoreRecord("e-v2-0", "e", 2, "kb2", "Other", null));
        var wholes = WholeText.of(records);
        assertThat(wholes).extracting(WholeText::key).containsExactly("d@1#whole", "e@2#whole");
        assertThat(wholes.getFirst().text()).isEqualTo("Title\nSetup\nInstall it.\nThen run it.\nUsage\nCall it.\n");
        assertThat(wholes.get(1).knowledgeBase()).isEqualTo("kb2");
    }
}
