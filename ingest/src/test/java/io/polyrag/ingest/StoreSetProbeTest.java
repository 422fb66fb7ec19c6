package io.polyrag.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.model.Modality;
import io.polyrag.core.port.ChunkIndex;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * Readiness asks each store for one read ({@link ChunkIndex#ping()}), never a count of every record: a networked
 * store's count ran past the probe's timeout, every few seconds, from every replica.
 */
class StoreSetProbeTest {

    @Test
    void a_probe_pings_and_never_counts() {
        List<String> calls = new CopyOnWriteArrayList<>();
        ChunkIndex pinged = (ChunkIndex) Proxy.newProxyInstance(ChunkIndex.class.getClassLoader(),
                new Class<?>[] {ChunkIndex.class}, (proxy, method, args) -> {
                    calls.add(method.getName());
                    if (method.getName().equals("ping")) {
                        throw new IllegalStateException("the server went away");
                    }
                    return method.getReturnType() == long.class ? 0L : null;
                });
        Map<String, String> problems = new StoreSet(Map.of(Modality.FULLTEXT, pinged)).probe();
        assertThat(problems).containsEntry("fulltext", "the server went away");
        assertThat(calls).contains("ping").doesNotContain("size");
    }
}
