package io.polyrag.app;

import io.polyrag.core.StoreException;
import io.polyrag.core.config.Settings;
import io.polyrag.core.port.FullTextStore;
import io.polyrag.core.spi.FullTextStoreProvider;
import io.polyrag.core.spi.ProviderContext;
import io.polyrag.core.spi.Providers;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A test full-text backend named {@code breaking}: the real Lucene store, whose writes from the {@link #failFrom}th
 * on fail as a damaged index does ("checksum failed"), so a test can break an ingest part way through.
 */
public final class Breaking implements FullTextStoreProvider {
    /** The first write that fails (1-based); 0: none does. */
    static volatile int failFrom;
    static final AtomicInteger WRITES = new AtomicInteger();
    /** How long a failing write takes before it fails, in milliseconds. */
    static volatile long slowFail;

    @Override
    public String name() {
        return "breaking";
    }

    @Override
    public String description() {
        return "Lucene, failing as damaged from a chosen write on (tests)";
    }

    @Override
    public FullTextStore open(ProviderContext context) {
        FullTextStore real = Providers.find(FullTextStoreProvider.class, "lucene", Settings.FULLTEXT_BACKEND)
                .open(context);
        return (FullTextStore) Proxy.newProxyInstance(FullTextStore.class.getClassLoader(),
                new Class<?>[] {FullTextStore.class}, (proxy, method, args) -> {
                    if (method.getName().equals("upsert") && failFrom > 0 && WRITES.incrementAndGet() >= failFrom) {
                        Thread.sleep(slowFail);
                        throw new StoreException("the full-text index could not be written: checksum failed "
                                + "(simulated)");
                    }
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
