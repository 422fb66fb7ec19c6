package io.polyrag.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.polyrag.core.port.UsageStore;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** How counted usage reaches the catalog. */
class UsageMeterTest {
    /**
     * One write for every tenant and day of a flush: it was a transaction per tenant (and a scan of every count after
     * each), under a monitor every tenant's usage report and extraction grant waited on.
     */
    @Test
    @SuppressWarnings("unchecked")
    void a_flush_writes_every_tenants_counts_at_once_and_keeps_them_when_it_fails() {
        List<Map<String, Map<LocalDate, List<UsageStore.Count>>>> writes = new CopyOnWriteArrayList<>();
        AtomicBoolean failing = new AtomicBoolean();
        UsageStore store = (UsageStore) Proxy.newProxyInstance(UsageStore.class.getClassLoader(),
                new Class<?>[] {UsageStore.class}, (proxy, method, args) -> {
                    if (method.getName().equals("addUsage")) {
                        if (failing.get()) {
                            throw new IllegalStateException("the catalog is away");
                        }
                        if (args.length == 1) {
                            writes.add((Map<String, Map<LocalDate, List<UsageStore.Count>>>) args[0]);
                            return null;
                        }
                        throw new AssertionError("one write per tenant and day");
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
        try (UsageMeter meter = new UsageMeter(store, Clock.systemUTC(), null)) {
            for (int t = 0; t < 1000; t++) {
                meter.add("tenant-" + t, "searches", "", 2);
            }
            failing.set(true);
            assertThatThrownBy(meter::flush).hasMessageContaining("away");
            failing.set(false);
            meter.flush();
            assertThat(writes).singleElement().satisfies(w -> {
                assertThat(w).hasSize(1000);
                assertThat(w.get("tenant-7").values().iterator().next()).singleElement()
                        .isEqualTo(new UsageStore.Count("searches", "", 2));
            });
        }
    }

    /** A provider that reports no tokens (no stream usage) is counted by estimate, not as nothing. */
    @Test
    @SuppressWarnings("unchecked")
    void a_reply_without_a_token_count_is_estimated() {
        List<Map<String, Map<LocalDate, List<UsageStore.Count>>>> writes = new CopyOnWriteArrayList<>();
        UsageStore store = (UsageStore) Proxy.newProxyInstance(UsageStore.class.getClassLoader(),
                new Class<?>[] {UsageStore.class}, (proxy, method, args) -> {
                    writes.add((Map<String, Map<LocalDate, List<UsageStore.Count>>>) args[0]);
                    return null;
                });
        io.polyrag.core.port.LlmClient silent = new io.polyrag.core.port.LlmClient() {
            @Override
            public String id() {
                return "quiet-model";
            }

            @Override
            public Response complete(Request request) {
                return new Response("forty characters of an answer, give or ta", "quiet-model", 0, 0);
            }

            @Override
            public Response stream(Request request, java.util.function.Consumer<String> onToken) {
                onToken.accept("eight ch");
                return new Response("eight ch", "quiet-model", 0, 0);
            }

            @Override
            public void close() {
            }
        };
        try (UsageMeter meter = new UsageMeter(store, Clock.systemUTC(), null)) {
            var llm = meter.metered(silent);
            var request = new io.polyrag.core.port.LlmClient.Request("sixteen chars ok", List.of(), 100, 0.0, false);
            UsageMeter.countedFor("acme", () -> llm.stream(request, t -> { }));
            UsageMeter.countedFor("acme", () -> llm.complete(request));
            meter.flush();
            assertThat(writes).singleElement().satisfies(w -> assertThat(w.get("acme").values().iterator().next())
                    .containsExactlyInAnyOrder(new UsageStore.Count("llm_tokens_in", "quiet-model", 8),
                            new UsageStore.Count("llm_tokens_out", "quiet-model", 2 + 11)));
        }
    }
}
