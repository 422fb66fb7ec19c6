package io.polyrag.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.port.EntityGraph;
import java.lang.reflect.Proxy;
import org.junit.jupiter.api.Test;

class GraphMemoryLoadTest {

    /**
     * A copy whose load fails stops following writes, whatever the failure: an out-of-memory error ended the loader
     * without that, and every later write was queued for the copy, texts and vectors included, for good.
     */
    @Test
    void a_load_ended_by_an_error_stops_following_writes() {
        for (Throwable failure : new Throwable[] {new OutOfMemoryError("simulated"), new IllegalStateException("x")}) {
            EntityGraph store = (EntityGraph) Proxy.newProxyInstance(EntityGraph.class.getClassLoader(),
                    new Class<?>[] {EntityGraph.class}, (proxy, method, args) -> {
                        if (method.getName().equals("export")) {
                            throw failure;
                        }
                        throw new UnsupportedOperationException(method.getName());
                    });
            GraphMemory m = GraphMemory.of("graph", store, 10_000);
            assertThat(m.ready()).isFalse();
            assertThat(m.following()).as(failure.toString()).isFalse();
        }
    }

    /** A readiness probe through the copy asks the store's own probe, not a count of every record. */
    @Test
    void the_tracking_index_pings_the_store_itself() {
        java.util.List<String> called = new java.util.ArrayList<>();
        io.polyrag.core.port.ChunkIndex store = (io.polyrag.core.port.ChunkIndex) Proxy.newProxyInstance(
                io.polyrag.core.port.ChunkIndex.class.getClassLoader(), new Class<?>[] {
                    io.polyrag.core.port.ChunkIndex.class}, (proxy, method, args) -> {
                    called.add(method.getName());
                    if (method.getName().equals("size")) {
                        throw new IllegalStateException("a full count");
                    }
                    return null;
                });
        EntityGraph failing = (EntityGraph) Proxy.newProxyInstance(EntityGraph.class.getClassLoader(),
                new Class<?>[] {EntityGraph.class}, (proxy, method, args) -> {
                    throw new IllegalStateException("not loaded");
                });
        GraphMemory.of("graph", failing, 10_000).tracking(store).ping();
        assertThat(called).containsExactly("ping");
    }
}
