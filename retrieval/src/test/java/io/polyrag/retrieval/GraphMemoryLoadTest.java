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
}
