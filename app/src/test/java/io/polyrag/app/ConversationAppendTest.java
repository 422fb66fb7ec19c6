package io.polyrag.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.model.Tenant;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Follow-ups to one conversation at once all land: each append reads and writes the conversation in one transaction
 * holding its row (read and written apart, concurrent appends overwrote each other and turns were lost).
 */
class ConversationAppendTest {
    @TempDir
    Path tmp;

    @Test
    void concurrent_appends_to_one_conversation_all_land() throws Exception {
        appends(Map.of("vector.enabled", "false"));
    }

    @Test
    void concurrent_appends_to_one_conversation_all_land_on_postgresql() throws Exception {
        appends(Map.of("vector.enabled", "false", "catalog.backend", "postgres", "postgres.url",
                io.polyrag.testing.TestPostgres.freshSchema("conversations")));
    }

    private void appends(Map<String, String> settings) throws Exception {
        try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("data"), settings))) {
            Conversations conversations = p.as(Tenant.LOCAL).conversations();
            int threads = 6;
            int each = 8;
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            CountDownLatch go = new CountDownLatch(1);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    go.await();
                    for (int i = 0; i < each; i++) {
                        conversations.append("talk", List.of(new Conversations.Message("user", "question " + thread
                                + "." + i), new Conversations.Message("assistant", "answer " + thread + "." + i)));
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> f : done) {
                f.get();
            }
            pool.shutdown();
            var talk = conversations.get("talk");
            assertThat(talk.turns()).isEqualTo(threads * each);
            assertThat(talk.messages()).hasSize(2 * threads * each);
            // A first question holding a NUL: its title is a column (PostgreSQL refuses NUL there), its text JSON.
            conversations.append("nul", List.of(new Conversations.Message("user", "a\u0000b"),
                    new Conversations.Message("assistant", "c")));
            assertThat(conversations.get("nul").title()).isEqualTo("a b");
            assertThat(conversations.get("nul").messages().getFirst().content()).isEqualTo("a\u0000b");
        }
    }
}
