package io.polyrag.store.blobs;

import io.polyrag.core.port.BlobStore;
import io.polyrag.testing.BlobStoreContract;
import java.nio.file.Path;
import java.util.List;
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

    /** A put a kill cut short (a description, a part of the content) is listed, so a sweep can delete it. */
    @org.junit.jupiter.api.Test
    void a_folder_a_put_never_finished_is_listed_to_be_swept() throws Exception {
        BlobStore store = openStore();
        store.put("job-x-1", "whole".getBytes(java.nio.charset.StandardCharsets.UTF_8), "text/plain", "a.txt");
        Path cut = java.nio.file.Files.createDirectories(dir.resolve("blobs").resolve("job-x-0"));
        java.nio.file.Files.writeString(cut.resolve("meta.properties"), "size=64000000\n");
        java.nio.file.Files.writeString(cut.resolve("content.abc.tmp"), "part of it");
        org.assertj.core.api.Assertions.assertThat(store.list("job-x-")).extracting(BlobStore.Listed::key)
                .containsExactlyInAnyOrder("job-x-0", "job-x-1");
        org.assertj.core.api.Assertions.assertThat(store.get("job-x-0")).isEmpty();
        org.assertj.core.api.Assertions.assertThat(store.delete("job-x-0")).isTrue();
        org.assertj.core.api.Assertions.assertThat(cut).doesNotExist();
    }

    /** Of deletes of one key at once (two ingests claiming one staged id), exactly one is told it deleted it. */
    @org.junit.jupiter.api.Test
    void of_concurrent_deletes_of_one_key_exactly_one_deletes_it() throws Exception {
        BlobStore store = openStore();
        var pool = java.util.concurrent.Executors.newFixedThreadPool(8);
        try {
            for (int round = 0; round < 50; round++) {
                store.put("upload-r" + round + "-meta", "{}".getBytes(java.nio.charset.StandardCharsets.UTF_8),
                        "application/json", "meta.json");
                String key = "upload-r" + round + "-meta";
                var start = new java.util.concurrent.CountDownLatch(1);
                List<java.util.concurrent.Future<Boolean>> deletes = new java.util.ArrayList<>();
                for (int t = 0; t < 8; t++) {
                    deletes.add(pool.submit(() -> {
                        start.await();
                        return store.delete(key);
                    }));
                }
                start.countDown();
                int won = 0;
                for (var d : deletes) {
                    won += d.get() ? 1 : 0; // and none threw
                }
                org.assertj.core.api.Assertions.assertThat(won).as("round %d", round).isEqualTo(1);
            }
        } finally {
            pool.shutdownNow();
        }
        // Nothing of them is left, nor listed; a folder a killed delete renamed away is cleared at the next open.
        org.assertj.core.api.Assertions.assertThat(store.list("upload-")).isEmpty();
        // When each was renamed away is in its name (the folder's own time is the blob's write, kept by a rename).
        Path killed = java.nio.file.Files.createDirectories(dir.resolve("blobs").resolve(".upload-x."
                + (System.currentTimeMillis() - 3_600_000) + "-" + java.util.UUID.randomUUID() + ".deleted"));
        Path now = java.nio.file.Files.createDirectories(dir.resolve("blobs").resolve(".upload-y."
                + System.currentTimeMillis() + "-" + java.util.UUID.randomUUID() + ".deleted"));
        java.nio.file.Files.setLastModifiedTime(now, java.nio.file.attribute.FileTime.fromMillis(0));
        openStore();
        org.assertj.core.api.Assertions.assertThat(now).as("one being removed by another replica now").exists();
        java.nio.file.Files.delete(now);
        try (var left = java.nio.file.Files.list(dir.resolve("blobs"))) {
            org.assertj.core.api.Assertions.assertThat(left.toList()).isEmpty();
        }
    }
}
