package io.polyrag.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.port.BlobStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
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

    @Test
    void unknown_keys_are_empty_and_deletes_are_idempotent() {
        assertThat(store.get("nope")).isEmpty();
        store.put("k", new byte[] {1, 2, 3}, "application/octet-stream", "x.bin");
        assertThat(store.delete("k")).isTrue();
        assertThat(store.delete("k")).isFalse();
        assertThat(store.get("k")).isEmpty();
    }

    @Test
    void keys_cannot_escape_the_store() {
        for (String hostile : new String[] {"../etc/passwd", "a/b", "..", "", "x\u0000y"}) {
            assertThat(store.get(hostile)).as(hostile).isEmpty();
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> store.put(hostile, new byte[] {1}, "x", "x"))
                    .as(hostile).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
