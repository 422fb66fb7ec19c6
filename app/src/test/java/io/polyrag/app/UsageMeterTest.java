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
}
