package io.polyrag.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.port.BlobStore;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * A blob store whose delete answers true to every caller (S3's, past its HEAD): claims of one staged id at once in
 * one process still start one ingest. The filesystem store's own delete is exactly-once (FileBlobStoreTest).
 */
class StagedClaimsTest {
    @Test
    void of_claims_of_one_id_at_once_one_wins_though_every_delete_says_it_deleted() throws Exception {
        BlobStore s3Like = (BlobStore) Proxy.newProxyInstance(BlobStore.class.getClassLoader(),
                new Class<?>[] {BlobStore.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "put" -> {
                        Thread.sleep(200); // the claim blob's write: the others arrive meanwhile
                        yield null;
                    }
                    case "delete" -> true;
                    default -> null;
                });
        byte[] meta = "{}".getBytes(StandardCharsets.UTF_8);
        var pool = Executors.newFixedThreadPool(6);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<List<Integer>>> claims = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                claims.add(pool.submit(() -> {
                    start.await();
                    return StagedClaims.claim(s3Like, List.of("upload-one"), List.of(meta));
                }));
            }
            start.countDown();
            int won = 0;
            for (var c : claims) {
                won += c.get().isEmpty() ? 1 : 0;
            }
            assertThat(won).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
    }
}
