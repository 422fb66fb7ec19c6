package io.polyrag.store.rdf;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.model.ChunkGraph;
import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.Entity;
import io.polyrag.core.model.Relation;
import io.polyrag.core.model.StoreRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** TDB2 keeps every replaced version's space until compacted: the transport compacts as the files outgrow it. */
class Tdb2CompactionTest {
    private static final String GRAPH = "urn:polyrag:graph";

    private static List<StoreRecord> version(long v) {
        List<StoreRecord> records = new ArrayList<>();
        for (int c = 0; c < 20; c++) {
            String chunk = "d1#" + v + "#" + c; // like the pipeline's ids: a version's chunks are its own
            records.add(new StoreRecord(chunk, "d1", v, "kb", "t", null, new ChunkGraph(
                    List.of(new Entity("ada lovelace", "Ada Lovelace", "Person", List.of("lovelace"))),
                    List.of(new Relation("Ada Lovelace", "Person", "wrote note " + c, "Analytical Engine", "Machine",
                            chunk, "d1", v, Map.of("evidence", "text " + c))))));
        }
        return records;
    }

    /** Writes six versions of a document, each replacing the one before; returns what the last one reads back. */
    private static List<Object> replaceSixTimes(Tdb2Transport transport) {
        try (SparqlRdfStore store = new SparqlRdfStore(transport, GRAPH)) {
            for (long v = 1; v <= 6; v++) {
                store.upsert(version(v));
                if (v > 1) {
                    store.delete(List.of(new DocumentVersion("d1", v - 1)));
                }
            }
            return List.of(store.relations("d1"), store.counts());
        }
    }

    private static List<String> generations(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("Data-")).sorted().toList();
        }
    }

    @Test
    void replaced_data_is_compacted_away_and_the_live_data_survives(@TempDir Path tmp) throws IOException {
        Path plain = tmp.resolve("plain");
        Path compacting = tmp.resolve("compacting");
        List<Object> expected = replaceSixTimes(new Tdb2Transport(plain, Long.MAX_VALUE, 2));
        // growth factor 1 and no minimum: compacts after every update, so each write and delete meets a new generation
        List<Object> actual = replaceSixTimes(new Tdb2Transport(compacting, 1, 1));

        assertThat(actual).isEqualTo(expected);
        assertThat(((List<?>) actual.getFirst())).hasSize(20);
        assertThat(generations(plain)).containsExactly("Data-0001");
        List<String> compacted = generations(compacting);
        assertThat(compacted).as("one generation left, not the first").hasSize(1).doesNotContain("Data-0001");
        assertThat(Integer.parseInt(compacted.getFirst().substring(5))).as("compacted after each update").isGreaterThan(6);
        try (SparqlRdfStore reopened = new SparqlRdfStore(new Tdb2Transport(compacting), GRAPH)) {
            assertThat(reopened.relations("d1")).isEqualTo(expected.getFirst());
        }
    }

    @Test
    void a_grown_dataset_without_a_recorded_compaction_is_compacted_once_when_opened(@TempDir Path dir)
            throws IOException {
        List<Object> expected = replaceSixTimes(new Tdb2Transport(dir, Long.MAX_VALUE, 8));
        assertThat(generations(dir)).containsExactly("Data-0001");
        // as a dataset written before compaction existed: no size recorded
        Files.delete(dir.resolve(Tdb2Transport.COMPACTED_FILE));

        try (SparqlRdfStore store = new SparqlRdfStore(new Tdb2Transport(dir, 1, 8), GRAPH)) {
            assertThat(generations(dir)).containsExactly("Data-0002");
            assertThat(List.of(store.relations("d1"), store.counts())).isEqualTo(expected);
        }
        long recorded = Long.parseLong(Files.readString(dir.resolve(Tdb2Transport.COMPACTED_FILE)));
        assertThat(recorded).isPositive();

        // the recorded size is the baseline now: reopening does not compact again
        try (SparqlRdfStore store = new SparqlRdfStore(new Tdb2Transport(dir, 1, 8), GRAPH)) {
            assertThat(generations(dir)).containsExactly("Data-0002");
            assertThat(store.relations("d1")).isEqualTo(expected.getFirst());
        }
    }

    @Test
    void a_new_dataset_measures_growth_from_its_own_size_not_from_nothing(@TempDir Path dir) throws IOException {
        Tdb2Transport transport = new Tdb2Transport(dir, 1, 8);
        long empty = Long.parseLong(Files.readString(dir.resolve(Tdb2Transport.COMPACTED_FILE)));
        assertThat(empty).as("an empty dataset's sparse index files").isPositive()
                .isCloseTo(transport.bytes(), org.assertj.core.data.Offset.offset(1024L));
        replaceSixTimes(transport);
        assertThat(generations(dir)).as("grown less than eightfold: not compacted").containsExactly("Data-0001");
    }

    @Test
    void closing_lets_go_of_the_directory_so_another_process_can_open_it(@TempDir Path dir) {
        List<Object> written = replaceSixTimes(new Tdb2Transport(dir));
        org.apache.jena.dboe.base.file.Location storage = org.apache.jena.dboe.base.file.Location.create(
                dir.resolve(generationsUnchecked(dir).getLast()));
        assertThat(org.apache.jena.tdb2.sys.StoreConnection.isSetup(storage))
                .as("TDB2 no longer holds the storage, nor its lock").isFalse();
        try (SparqlRdfStore store = new SparqlRdfStore(new Tdb2Transport(dir), GRAPH)) {
            assertThat(List.of(store.relations("d1"), store.counts())).as("reopened, nothing lost").isEqualTo(written);
        }
    }

    private static List<String> generationsUnchecked(Path dir) {
        try {
            return generations(dir);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
