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

            // Named by its first question for good: it was renamed at every turn once the first were dropped.
            for (int i = 0; i < 110; i++) {
                conversations.append("long", List.of(new Conversations.Message("user", "q" + i),
                        new Conversations.Message("assistant", "a" + i)));
            }
            assertThat(conversations.get("long").title()).isEqualTo("q0");
            assertThat(conversations.get("long").messages()).hasSize(Conversations.MAX_MESSAGES)
                    .last().extracting(Conversations.Message::content).isEqualTo("a109");
            // A bounded size, not only a bounded count of messages.
            List<Conversations.Message> big = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                big.add(new Conversations.Message(i % 2 == 0 ? "user" : "assistant", (i + ":").repeat(10_000)));
            }
            conversations.append("big", big);
            var kept = conversations.get("big").messages();
            assertThat(kept.stream().mapToInt(m -> m.content().length()).sum())
                    .isLessThanOrEqualTo(Conversations.MAX_CHARACTERS);
            assertThat(kept.getLast().content()).startsWith("29:");
            // Scopes count toward the bound: a question narrowed to a thousand documents, then follow-ups that each
            // keep the scope they inherited, made a record of megabytes read and rewritten at every turn.
            List<String> ids = java.util.stream.IntStream.range(0, 1000).mapToObj(i -> String.format("%020d", i))
                    .toList();
            for (int i = 0; i < 100; i++) {
                conversations.append("scoped", List.of(new Conversations.Message("user", "question " + i,
                        Conversations.Scope.of(List.of("kb"), null, ids)), new Conversations.Message("assistant",
                        "answer " + i)));
            }
            var scoped = conversations.get("scoped").messages();
            assertThat(io.polyrag.app.Json.MAPPER.writeValueAsString(scoped).length())
                    .isLessThan(Conversations.MAX_CHARACTERS + 20_000);
            assertThat(scoped.getLast().content()).isEqualTo("answer 99");
            assertThat(Conversations.scope(scoped).documentIds()).hasSize(1000);
            // A record holding a field this release does not know (written by a later one) is still read.
            p.components().catalog.conversationStore().changeConversation(Tenant.LOCAL.id(), "later", current ->
                    new io.polyrag.core.port.ConversationStore.Written("later", "[{\"role\":\"user\",\"content\":"
                            + "\"hello\",\"lang\":\"en\"}]", 1));
            assertThat(conversations.get("later").messages()).extracting(Conversations.Message::content)
                    .containsExactly("hello");
            conversations.append("later", List.of(new Conversations.Message("user", "again")));
            assertThat(conversations.get("later").messages()).hasSize(2);
            // Deleted while an answer to it was written: not made again by that answer.
            conversations.delete("long");
            assertThat(conversations.append("long", List.of(new Conversations.Message("user", "late")), true))
                    .isFalse();
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> conversations.get("long"))
                    .isInstanceOf(io.polyrag.core.NotFoundException.class);
        }
    }
}
