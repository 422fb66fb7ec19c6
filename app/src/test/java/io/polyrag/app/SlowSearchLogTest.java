package io.polyrag.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.app.api.TextIngest;
import io.polyrag.core.config.Config;
import io.polyrag.core.model.KnowledgeBase;
import io.polyrag.core.model.SearchRequest;
import io.polyrag.core.model.SearchResponse;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code POLYRAG_SLOW_SEARCH_MS}: a search at least that slow is logged once, with where its time went. */
class SlowSearchLogTest {
    @TempDir
    Path tmp;

    private final Logger logger = Logger.getLogger("io.polyrag.search.slow");
    private final List<LogRecord> logged = new CopyOnWriteArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord r) {
            logged.add(r);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void listen() {
        logger.addHandler(handler);
    }

    @AfterEach
    void stop() {
        logger.removeHandler(handler);
    }

    @Test
    void a_search_past_the_threshold_is_logged_once_with_each_leg_and_phase() {
        try (Polyrag p = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("data").toString(),
                "slow.search.ms", "1")))) {
            p.ingest().text(new TextIngest("Puffins nest in burrows on the cliffs of Skomer.", "puffins",
                    "note:puffins", "text", KnowledgeBase.of("birds")));
            SearchResponse r = p.search().run(SearchRequest.of("where do puffins nest\non Skomer", 5));
            org.junit.jupiter.api.Assumptions.assumeTrue(r.tookMs() >= 1, "the search took under a millisecond");
            assertThat(logged).singleElement().satisfies(rec -> {
                assertThat(rec.getLevel()).isEqualTo(java.util.logging.Level.WARNING);
                assertThat(rec.getMessage()).startsWith("slow search: " + r.tookMs() + " ms (")
                        .containsPattern("vector \\d+\\.\\d ms").containsPattern("fulltext \\d+\\.\\d ms")
                        .containsPattern("fuse \\d+\\.\\d ms").containsPattern("join and dedup \\d+\\.\\d ms")
                        .contains("top_k 5, 1 hits").contains("query \"where do puffins nest on Skomer\"")
                        .doesNotContain("\n");
            });
        }
    }

    @Test
    void a_fast_search_or_a_threshold_of_zero_logs_nothing() {
        SearchResponse fast = new SearchResponse("q", 12, List.of(), List.of(), List.of(), List.of());
        new SearchLog(1000, Tracing.off()).searched(SearchRequest.of("q", 3), fast, Instant.now(), List.of());
        new SearchLog(0, Tracing.off()).searched(SearchRequest.of("q", 3), new SearchResponse("q", 50_000, List.of(),
                List.of(), List.of(), List.of()), Instant.now(), List.of());
        assertThat(logged).isEmpty();
        String line = SearchLog.line(SearchRequest.of("x".repeat(500), 3), fast, List.of(
                new io.polyrag.retrieval.HybridSearcher.Phase("vector", 0, 2_500_000)));
        assertThat(line).contains("vector 2.5 ms").contains("x".repeat(200) + "…\"").doesNotContain("x".repeat(201));
    }
}
