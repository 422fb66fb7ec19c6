package io.polyrag.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.port.ContextCache;
import io.polyrag.core.port.LlmClient;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Contexts come back in their chunks' order whatever order the calls finish in, one call per distinct text, none for
 * a blank one or a cached one, and what the model writes is kept short and on one line.
 */
class ContextualizerTest {
    /** A model that names the chunk it was shown, answering the first chunks last. */
    private static final class Echo implements LlmClient {
        final List<String> shown = new java.util.concurrent.CopyOnWriteArrayList<>();
        final List<Integer> sizes = new java.util.concurrent.CopyOnWriteArrayList<>();
        final List<Long> tokens = new java.util.concurrent.CopyOnWriteArrayList<>();

        @Override
        public String id() {
            return "echo";
        }

        @Override
        public Response complete(Request request) {
            String user = request.messages().getFirst().content();
            String chunk = user.substring(user.indexOf("<chunk>\n") + 8, user.indexOf("\n</chunk>"));
            shown.add(chunk);
            sizes.add(user.length());
            tokens.add(io.polyrag.core.model.TokenEstimate.tokens(user));
            try {
                Thread.sleep(chunk.startsWith("a") ? 200 : 10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new Response("Context:  about\n " + chunk + "  ", "echo", 10, 5);
        }

        @Override
        public Response stream(Request request, Consumer<String> onToken) {
            return complete(request);
        }

        @Override
        public void close() {
        }
    }

    private static final class MapCache implements ContextCache {
        final Map<String, String> map = new ConcurrentHashMap<>();

        @Override
        public Map<String, String> contexts(Collection<String> keys) {
            Map<String, String> out = new java.util.HashMap<>();
            keys.forEach(k -> {
                if (map.containsKey(k)) {
                    out.put(k, map.get(k));
                }
            });
            return out;
        }

        @Override
        public void rememberContexts(Map<String, String> byKey) {
            byKey.forEach(map::putIfAbsent);
        }
    }

    @Test
    void contexts_keep_their_chunks_order_and_each_distinct_text_is_asked_once() {
        Echo model = new Echo();
        MapCache cache = new MapCache();
        Contextualizer c = new Contextualizer(model, cache, 2000, 4);
        Contextualizer.Result r = c.contexts("doc-1", "Manual", List.of("alpha", "beta", "", "gamma", "beta"),
                Long.MAX_VALUE);
        assertThat(r.contexts()).containsExactly("about alpha", "about beta", "", "about gamma", "about beta");
        assertThat(model.shown).containsExactlyInAnyOrder("alpha", "beta", "gamma");
        assertThat(r.calls()).isEqualTo(3);
        assertThat(r.tokens()).isEqualTo(45);

        Contextualizer.Result again = c.contexts("doc-1", "Manual", List.of("alpha", "beta", "", "gamma", "beta"),
                Long.MAX_VALUE);
        assertThat(again.contexts()).containsExactly("about alpha", "about beta", "", "about gamma", "about beta");
        assertThat(again.cached()).isEqualTo(4);
        assertThat(model.shown).hasSize(3);
        // Written from the title and the document's opening: another file under the same name (a new title, or
        // another opening) gets contexts of its own, even for a paragraph it shares with the old one.
        assertThat(c.contexts("doc-1", "Manual 2024", List.of("alpha", "beta", "", "gamma", "beta"), Long.MAX_VALUE)
                .cached()).isZero();
        assertThat(c.contexts("doc-1", "Manual", List.of("gamma", "delta"), Long.MAX_VALUE).cached()).isZero();
        assertThat(model.shown).hasSize(3 + 3 + 2);

        // The same paragraph in another document (another tenant's, say) is situated in that document: its context
        // was written from this one's text and must not travel.
        Contextualizer.Result other = c.contexts("acme/kb:doc-9", "Manual", List.of("gamma"), Long.MAX_VALUE);
        assertThat(other.cached()).isZero();
        assertThat(model.shown).hasSize(9);
    }

    /** Text without spaces is one "word" a chunk: the whole document went with every chunk's call. */
    @Test
    void the_opening_of_a_text_without_spaces_is_bounded_too() {
        Echo model = new Echo();
        List<String> chunks = java.util.stream.IntStream.range(0, 200).mapToObj(i -> "b" + i + "文".repeat(300))
                .toList();
        Contextualizer c = new Contextualizer(model, new MapCache(), 2000, 2);
        c.contexts("doc-cjk", "报告", chunks, Long.MAX_VALUE);
        assertThat(model.sizes).hasSize(200);
        assertThat(model.sizes).isNotEmpty().allMatch(n -> n < 2000 * 10 + 2000);
        long[] estimate = new Contextualizer(model, new MapCache(), 2000, 2).estimate("doc-cjk", "报告", chunks);
        assertThat(estimate[1] / estimate[0]).as("input tokens a call, as sent").isLessThan(8000)
                .isGreaterThan((long) (0.8 * model.tokens.stream().mapToLong(Long::longValue).average().orElseThrow()));
    }

    /**
     * An English document's opening is its first words, as many as the setting says, not cut to a token count (that
     * cap is for scripts without spaces): cut, every long English document's cached contexts had new keys.
     */
    @Test
    void an_english_opening_keeps_its_words() {
        Echo model = new Echo();
        String words = java.util.stream.IntStream.range(0, 3000).mapToObj(i -> "harbour" + (i % 10)).collect(
                java.util.stream.Collectors.joining(" "));
        new Contextualizer(model, new MapCache(), 2000, 1).contexts("doc-en", "Manual", List.of(words, "b1 tail"),
                Long.MAX_VALUE);
        // 2,000 words of eight letters and a space: 18,000 characters of opening in each prompt (cut, about 10,700).
        assertThat(model.sizes).isNotEmpty().allMatch(n -> n > 17_000);
    }

    @Test
    void a_long_reply_is_cut_and_a_spent_budget_starts_no_call() {
        assertThat(Contextualizer.clean("x".repeat(5000))).hasSize(Contextualizer.MAX_CONTEXT);
        Echo model = new Echo();
        Contextualizer one = new Contextualizer(model, new MapCache(), 2000, 1);
        Contextualizer.Result r = one.contexts("doc-1", "Manual", List.of("b1", "b2", "b3"), 15);
        assertThat(r.calls()).as("the first call spends the budget").isEqualTo(1);
        assertThat(r.budgetStopped()).isTrue();
        assertThat(r.contexts()).containsExactly("about b1", "", "");
    }

    /**
     * A model that writes nothing (a reasoning model whose allowance went on thinking) fails the call: the empty
     * context was cached and counted as written, so every later ingest paid nothing and got no context, silently.
     */
    @Test
    void an_empty_reply_is_a_failure_and_is_not_cached() {
        LlmClient silent = model("thinker", request -> {
            return new LlmClient.Response("", "thinker", 2700, 120, true);
        });
        MapCache cache = new MapCache();
        Contextualizer.Result r = new Contextualizer(silent, cache, 2000, 2).contexts("doc-1", "Manual",
                List.of("alpha", "beta"), Long.MAX_VALUE);
        assertThat(r.failed()).isEqualTo(2);
        assertThat(r.failure()).contains("no context").contains("allowance");
        assertThat(cache.map).isEmpty();
    }

    /**
     * A provider that reports no usage (some gateways, local servers) is estimated, so the budget stops the calls;
     * a cache that fails to read or write costs the cache, not the contexts paid for.
     */
    @Test
    void calls_without_usage_are_estimated_and_a_failing_cache_loses_nothing() {
        LlmClient uncounted = model("local", request -> {
            return new LlmClient.Response("A line of the manual about its subject.", "local", 0, 0);
        });
        List<String> chunks = java.util.stream.IntStream.range(0, 50).mapToObj(i -> "chunk " + i + " of the manual")
                .toList();
        Contextualizer.Result r = new Contextualizer(uncounted, new MapCache(), 2000, 1).contexts("doc-1", "Manual",
                chunks, 1_000);
        assertThat(r.tokens()).isPositive();
        assertThat(r.budgetStopped()).isTrue();
        assertThat(r.calls()).isLessThan(50);
        ContextCache broken = new ContextCache() {
            @Override
            public Map<String, String> contexts(Collection<String> keys) {
                throw new IllegalStateException("the catalog is away");
            }

            @Override
            public void rememberContexts(Map<String, String> byKey) {
                throw new IllegalStateException("the catalog is away");
            }
        };
        Contextualizer.Result kept = new Contextualizer(new Echo(), broken, 2000, 2).contexts("doc-2", "Manual",
                List.of("alpha", "beta"), Long.MAX_VALUE);
        assertThat(kept.contexts()).allSatisfy(c -> assertThat(c).isNotBlank());
        assertThat(kept.failed()).isZero();
    }

    /**
     * A stop (a cancel, a shutdown) starts no more calls, and what was asked before it is kept as it came back; a
     * provider failing call after call stops the document's calls too.
     */
    @Test
    void a_stop_ends_the_calls_and_keeps_what_they_paid_for() {
        Echo model = new Echo();
        MapCache cache = new MapCache();
        List<String> chunks = java.util.stream.IntStream.range(0, 100).mapToObj(i -> "b" + i).toList();
        Contextualizer.Result r = new Contextualizer(model, cache, 2000, 1).contexts("doc-1", "Manual", chunks,
                Long.MAX_VALUE, () -> model.shown.size() >= 3);
        assertThat(model.shown).hasSize(3);
        assertThat(cache.map).as("kept").hasSize(3);
        assertThat(r.contexts()).hasSize(100);
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        LlmClient refusing = model("refusing", request -> {
            calls.incrementAndGet();
            throw new io.polyrag.core.UnavailableException("the model is down");
        });
        Contextualizer failing = new Contextualizer(refusing, new MapCache(), 2000, 1);
        Contextualizer.Result down = failing.contexts("doc-2", "Manual", chunks, Long.MAX_VALUE, () -> false);
        assertThat(calls.get()).isEqualTo(Contextualizer.FAILING_IN_A_ROW);
        assertThat(down.failure()).isNotBlank();
        assertThat(down.missing(chunks)).as("every chunk is without one, not only those asked").isEqualTo(100);
        // The next documents (this ingest's or the next one's): one call each, while the provider still fails.
        for (int d = 3; d < 13; d++) {
            failing.contexts("doc-" + d, "Manual", chunks, Long.MAX_VALUE, () -> false);
        }
        assertThat(calls.get()).isEqualTo(Contextualizer.FAILING_IN_A_ROW + 10);
    }
    /** The text embedded is the context cut to what the model's window leaves, never the chunk's own end. */
    @Test
    void a_context_never_pushes_the_chunks_end_out_of_the_models_window() {
        io.polyrag.core.port.Embedder words = new io.polyrag.core.port.Embedder() {
            @Override
            public String modelId() {
                return "words";
            }

            @Override
            public int dimension() {
                return 1;
            }

            @Override
            public int maxTokens() {
                return 64;
            }

            @Override
            public io.polyrag.core.port.TokenCounter tokenCounter() {
                return t -> t.isBlank() ? 0 : t.strip().split("\\s+").length;
            }

            @Override
            public float[] embedQuery(String query) {
                return new float[] {1};
            }

            @Override
            public List<float[]> embedPassages(List<String> passages) {
                return passages.stream().map(p -> new float[] {1}).toList();
            }

            @Override
            public void close() {
            }
        };
        String context = "situating ".repeat(30).strip();
        String chunk = "chunk ".repeat(40) + "END";
        String fitted = Contextualizer.withContextFitted(context, chunk, words);
        assertThat(words.tokenCounter().count(fitted)).isLessThanOrEqualTo(64 - 2);
        assertThat(fitted).endsWith("END").startsWith("situating");
        String full = "chunk ".repeat(61) + "END";
        assertThat(Contextualizer.withContextFitted(context, full, words)).as("no room: the chunk alone").isEqualTo(full);
        assertThat(Contextualizer.withContextFitted(context, "short END", words)).isEqualTo(Contextualizer.withContext(
                context, "short END"));
    }

    /** A model answering each request with {@code answer}, streamed or not. */
    private static LlmClient model(String id,
            java.util.function.Function<LlmClient.Request, LlmClient.Response> answer) {
        return new LlmClient() {
            @Override
            public String id() {
                return id;
            }

            @Override
            public Response complete(Request request) {
                return answer.apply(request);
            }

            @Override
            public Response stream(Request request, Consumer<String> onToken) {
                return complete(request);
            }

            @Override
            public void close() {
            }
        };
    }
}
