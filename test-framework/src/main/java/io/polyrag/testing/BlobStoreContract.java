package io.polyrag.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.port.BlobStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The contract of a blob store; an implementation's test is a short subclass. */
public abstract class BlobStoreContract {
    private BlobStore store;

    protected abstract BlobStore openStore();

    @BeforeEach
    void open() {
        store = openStore();
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Test
    void a_blob_comes_back_as_it_was_put_and_a_put_replaces_it() throws IOException {
        store.put("doc1", "first".getBytes(StandardCharsets.UTF_8), "text/plain", "a.txt");
        store.put("doc1", "second version".getBytes(StandardCharsets.UTF_8), "text/markdown", "a.md");
        BlobStore.Blob b = store.get("doc1").orElseThrow();
        try (var in = b.content()) {
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("second version");
        }
        assertThat(b.size()).isEqualTo(14);
        assertThat(b.mediaType()).isEqualTo("text/markdown");
        assertThat(b.name()).isEqualTo("a.md");
    }

    /** Read from a byte on (a resumed download, a viewer's range): that byte first, the whole blob's size. */
    @Test
    void a_blob_read_from_a_byte_starts_there_and_keeps_its_whole_size() throws IOException {
        byte[] bytes = new byte[10_000];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (i % 251);
        }
        store.put("ranged", bytes, "application/pdf", "r.pdf");
        BlobStore.Blob b = store.get("ranged", 9_000).orElseThrow();
        try (var in = b.content()) {
            assertThat(in.readAllBytes()).isEqualTo(Arrays.copyOfRange(bytes, 9_000, 10_000));
        }
        assertThat(b.size()).isEqualTo(10_000);
        assertThat(b.name()).isEqualTo("r.pdf");
        assertThat(store.get("nope", 5)).isEmpty();
    }

    @Test
    void unknown_keys_are_empty_and_deletes_are_idempotent() {
        assertThat(store.get("nope")).isEmpty();
        store.put("k", new byte[] {1, 2, 3}, "application/octet-stream", "x.bin");
        assertThat(store.delete("k")).isTrue();
        assertThat(store.delete("k")).isFalse();
        assertThat(store.get("k")).isEmpty();
    }

    @Test
    void blobs_are_listed_by_key_prefix_with_when_they_were_put_and_their_size() {
        Instant before = Instant.now().minusSeconds(60);
        store.put("job-1-0", new byte[] {1}, null, "a.txt");
        store.put("job-1-1", new byte[] {2}, null, "b.txt");
        store.put("upload-7", new byte[] {3, 4, 5}, null, "c.txt");
        store.put("doc9", new byte[] {4}, null, "d.txt");
        assertThat(store.list("job-")).extracting(BlobStore.Listed::key).containsExactlyInAnyOrder("job-1-0",
                "job-1-1");
        assertThat(store.list("job-")).allSatisfy(l -> assertThat(l.modified()).isAfter(before));
        assertThat(store.list("upload-")).extracting(BlobStore.Listed::key).containsExactly("upload-7");
        assertThat(store.list("upload-")).extracting(BlobStore.Listed::size).as("its bytes").containsExactly(3L);
        assertThat(store.list("nothing-")).isEmpty();
        store.delete("job-1-0");
        assertThat(store.list("job-")).extracting(BlobStore.Listed::key).containsExactly("job-1-1");
    }

    @Test
    void keys_cannot_escape_the_store() {
        for (String hostile : new String[] {"../etc/passwd", "a/b", "..", "", "x\u0000y"}) {
            assertThat(store.get(hostile)).as(hostile).isEmpty();
            Assertions.assertThatThrownBy(() -> store.put(hostile, new byte[] {1}, "x", "x"))
                    .as(hostile).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
