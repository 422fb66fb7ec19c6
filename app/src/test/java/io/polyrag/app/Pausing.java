package io.polyrag.app;

import io.polyrag.core.port.FullTextStore;
import io.polyrag.core.port.VectorStore;
import io.polyrag.core.spi.CatalogProvider;
import io.polyrag.core.spi.FullTextStoreProvider;
import io.polyrag.core.spi.ProviderContext;
import io.polyrag.core.spi.VectorStoreProvider;
import io.polyrag.core.config.Settings;
import io.polyrag.core.spi.Providers;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Test providers named {@code pausing} that wrap the real H2 catalog and Lucene stores and, at one call chosen by the
 * system property {@code polyrag.pause} ({@code TARGET.METHOD:N:before|after}, e.g. {@code catalog.publishAll:2:after}),
 * print {@code PAUSED <point>} and block, so that a crash test can kill the process at exactly that point of a real
 * ingest. Everything else passes through to the real store.
 */
final class Pausing {
    private static final String POINT = System.getProperty("polyrag.pause", "");
    private static final AtomicInteger CALLS = new AtomicInteger();

    private Pausing() {
    }

    @SuppressWarnings("unchecked")
    static <T> T wrap(Class<T> type, String target, T delegate) {
        return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, method, args) -> {
            String at = target + "." + method.getName();
            boolean pause = POINT.startsWith(at + ":") && CALLS.incrementAndGet() == count();
            if (pause && POINT.endsWith(":before")) {
                block();
            }
            Object result;
            try {
                result = method.invoke(delegate, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
            if (pause && POINT.endsWith(":after")) {
                block();
            }
            return result;
        });
    }

    private static int count() {
        return Integer.parseInt(POINT.split(":")[1]);
    }

    private static void block() throws InterruptedException {
        System.out.println("PAUSED " + POINT);
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }

    public static final class Catalog implements CatalogProvider {
        @Override
        public String name() {
            return "pausing";
        }

        @Override
        public String description() {
            return "H2, pausing at polyrag.pause (tests)";
        }

        @Override
        public CatalogAndJobs open(ProviderContext context) {
            return wrap(CatalogAndJobs.class, "catalog", Providers.find(CatalogProvider.class, "h2",
                    Settings.CATALOG_BACKEND).open(context));
        }
    }

    public static final class FullText implements FullTextStoreProvider {
        @Override
        public String name() {
            return "pausing";
        }

        @Override
        public String description() {
            return "Lucene, pausing at polyrag.pause (tests)";
        }

        @Override
        public FullTextStore open(ProviderContext context) {
            return wrap(FullTextStore.class, "fulltext", Providers.find(FullTextStoreProvider.class,
                    "lucene", Settings.FULLTEXT_BACKEND).open(context));
        }
    }

    public static final class Vector implements VectorStoreProvider {
        @Override
        public String name() {
            return "pausing";
        }

        @Override
        public String description() {
            return "Lucene, pausing at polyrag.pause (tests)";
        }

        @Override
        public VectorStore open(ProviderContext context, int dimension, String modelId) {
            return wrap(VectorStore.class, "vector", Providers.find(VectorStoreProvider.class, "lucene",
                    Settings.VECTOR_BACKEND).open(context, dimension, modelId));
        }
    }
}
