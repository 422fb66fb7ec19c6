package io.polyrag.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.polyrag.core.StoreException;
import io.polyrag.core.model.IngestReport;
import io.polyrag.core.model.KnowledgeBase;
import io.polyrag.core.model.SourceItem;
import io.polyrag.core.port.ProgressListener;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fetched items (a web or S3 sync's pages and objects) stop between inputs once their sync is canceled: a cancel
 * was seen only after the whole batch was indexed.
 */
class IngestItemsStopTest {
    @TempDir
    Path tmp;

    @Test
    void items_stop_between_inputs_once_asked() {
        List<SourceItem> items = IntStream.range(0, 12).mapToObj(i -> new SourceItem("https://example.org/p" + i,
                "p" + i + ".md", ("# Page " + i + "\n\nThe harbour log, entry " + i + ", notes the tide.")
                        .getBytes(StandardCharsets.UTF_8), "text/markdown")).toList();
        try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("data"), Map.of("vector.enabled", "false")))) {
            AtomicBoolean stop = new AtomicBoolean(true);
            IngestReport stopped = p.ingest().items(items, KnowledgeBase.DEFAULT, false, ProgressListener.NONE,
                    stop::get);
            assertThat(stopped.added()).as("nothing indexed once stopped").isZero();
            assertThat(stopped.warnings()).anyMatch(w -> w.contains("canceled by request after 0 of 12 inputs"));
            stop.set(false);
            assertThat(p.ingest().items(items, KnowledgeBase.DEFAULT, false, ProgressListener.NONE, stop::get)
                    .added()).isEqualTo(12);
        }
    }

    /**
     * A store failing while the next input (the same document again) waits for its batch stops the ingest with the
     * store's error: it was counted as that input's failure, and the ingest went on as if the store could write.
     */
    @Test
    void a_store_failing_while_the_next_input_waits_for_its_batch_stops_the_ingest() {
        List<SourceItem> items = IntStream.range(0, 2).mapToObj(i -> new SourceItem("https://example.org/log",
                "log.md", ("# Log\n\nThe harbour log, revision " + i + ", notes the tide.")
                        .getBytes(StandardCharsets.UTF_8), "text/markdown")).toList();
        Breaking.WRITES.set(0);
        Breaking.failFrom = 1;
        Breaking.slowFail = 1_000;
        try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("data"), Map.of("vector.enabled", "false",
                "fulltext.backend", "breaking", "ingest.batch.documents", "1")))) {
            assertThatThrownBy(() -> p.ingest().items(items, KnowledgeBase.DEFAULT, false, ProgressListener.NONE,
                    () -> false)).isInstanceOf(StoreException.class).hasMessageContaining("checksum failed");
        } finally {
            Breaking.failFrom = 0;
            Breaking.slowFail = 0;
        }
    }
}
