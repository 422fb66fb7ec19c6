package io.polyrag.store.catalog;

import io.polyrag.core.model.Chunk;
import io.polyrag.core.model.ChunkKind;
import io.polyrag.core.model.DocumentDraft;
import io.polyrag.core.model.DocumentVersion;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * The process {@link H2KillTest} kills: opens the H2 catalog in a directory, then either churns (stages, publishes
 * and deletes documents, so whole chunks of the file fall free for reuse) or submits one job and prints its id — the
 * acknowledgement — and then stops as a kill -9 would ({@link Runtime#halt}: no shutdown hook, no close).
 */
public final class H2KillChild {
    private H2KillChild() {
    }

    public static void main(String[] args) {
        // Reuse of freed file space without waiting (H2 waits 45 s by default): what a long-running server reaches.
        JdbcCatalog c = H2CatalogProvider.open(Path.of(args[0]), Clock.systemUTC(), Long.MAX_VALUE,
                ";RETENTION_TIME=0");
        if (args[1].equals("churn")) {
            for (int round = 0; round < 10; round++) {
                List<String> ids = new ArrayList<>();
                for (int d = 0; d < 20; d++) {
                    String id = "doc-" + round + "-" + d;
                    long v = c.nextVersion(id);
                    List<Chunk> chunks = new ArrayList<>();
                    for (int i = 0; i < 10; i++) {
                        String text = "churn ".repeat(60) + i;
                        chunks.add(Chunk.builder(id, v, i).text(text).offsets(0, text.length()).tokenCount(60)
                                .embeddingModel("model-x").build());
                    }
                    c.stage(new DocumentDraft(id, "kb", "file:///" + id, id, "text/plain", "hash-" + id, 1, chunks),
                            v);
                    c.publish(new DocumentVersion(id, v));
                    ids.add(id);
                }
                c.delete(ids);
            }
            System.out.println("CHURNED");
        } else {
            System.out.println("ACK " + c.jobStore().submit("ingest", "{}"));
        }
        System.out.flush();
        Runtime.getRuntime().halt(9);
    }
}
