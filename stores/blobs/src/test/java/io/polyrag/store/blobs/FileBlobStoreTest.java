package io.polyrag.store.blobs;

import io.polyrag.core.port.BlobStore;
import io.polyrag.testing.BlobStoreContract;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class FileBlobStoreTest extends BlobStoreContract {
    @TempDir
    Path dir;

    @Override
    protected BlobStore openStore() {
        return new FileBlobStore(dir.resolve("blobs"));
    }

    /** Content whose description was never written (a stop between the two writes) still reads, generically. */
    @org.junit.jupiter.api.Test
    void content_without_its_description_still_reads() throws Exception {
        BlobStore store = openStore();
        store.put("doc1", "the bytes".getBytes(java.nio.charset.StandardCharsets.UTF_8), "text/plain", "a.txt");
        try (var files = java.nio.file.Files.walk(dir.resolve("blobs"))) {
            for (Path meta : files.filter(f -> f.getFileName().toString().equals("meta.properties")).toList()) {
                java.nio.file.Files.delete(meta);
            }
        }
        var blob = store.get("doc1").orElseThrow();
        try (var in = blob.content()) {
            org.assertj.core.api.Assertions.assertThat(new String(in.readAllBytes(),
                    java.nio.charset.StandardCharsets.UTF_8)).isEqualTo("the bytes");
        }
        org.assertj.core.api.Assertions.assertThat(blob.mediaType()).isEqualTo("application/octet-stream");
        org.assertj.core.api.Assertions.assertThat(blob.size()).isEqualTo(9);
    }
}
